package io.specwatch.sink;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.specwatch.runtime.Readiness;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;

/**
 * The sink's meters ({@code specwatch_sink_rows_inserted_total}, {@code
 * specwatch_sink_batches_total}, {@code specwatch_sink_dead_letters_total}, {@code
 * specwatch_sink_insert_seconds}) and its readiness: ready once the group assigned partitions (the
 * caller has already seen ClickHouse answer, by migrating), not ready while a rebalance revoked
 * them.
 */
public final class SinkMeters implements SinkListener {

  private final Readiness readiness;
  private final Counter rows;
  private final Counter batches;
  private final Counter deadLetters;
  private final Timer insert;

  public SinkMeters(MeterRegistry registry, Readiness readiness, String table) {
    this.readiness = readiness;
    this.rows =
        Counter.builder("specwatch.sink.rows.inserted")
            .description("Rows ClickHouse acknowledged")
            .tag("table", table)
            .register(registry);
    this.batches =
        Counter.builder("specwatch.sink.batches")
            .description("Inserts ClickHouse acknowledged")
            .tag("table", table)
            .register(registry);
    this.deadLetters =
        Counter.builder("specwatch.sink.dead.letters")
            .description("Undecodable records sent to the dead-letter topic")
            .tag("table", table)
            .register(registry);
    this.insert =
        Timer.builder("specwatch.sink.insert")
            .description("Time of one acknowledged insert, retries included")
            .tag("table", table)
            .publishPercentileHistogram()
            .register(registry);
  }

  @Override
  public void assigned(Collection<TopicPartition> partitions) {
    readiness.ready();
  }

  @Override
  public void revoked(Collection<TopicPartition> partitions) {
    readiness.notReady("partitions revoked: rebalancing");
  }

  @Override
  public void inserted(int rowCount, long nanos) {
    rows.increment(rowCount);
    batches.increment();
    insert.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void deadLettered() {
    deadLetters.increment();
  }
}
