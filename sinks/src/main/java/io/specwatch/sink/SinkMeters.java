package io.specwatch.sink;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.specwatch.runtime.Readiness;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;

/**
 * The sink's meters, tagged by table ({@code specwatch_sink_rows_inserted_total}, {@code
 * specwatch_sink_batches_total}, {@code specwatch_sink_dead_letters_total} (also by stage), {@code
 * specwatch_sink_insert_seconds}, {@code specwatch_sink_clickhouse_unavailable_total}), the gauges
 * {@code specwatch_sink_buffered_rows} and {@code specwatch_sink_paused} (1 while consumption is
 * paused because ClickHouse is unavailable) and its readiness: ready once the group assigned
 * partitions (the caller has already seen ClickHouse answer, by migrating), not ready while a
 * rebalance revoked them or while ClickHouse is unavailable and consumption is paused.
 */
public final class SinkMeters implements SinkListener {

  private final MeterRegistry registry;
  private final Readiness readiness;
  private final String database;
  private final Counter unavailable;
  private final AtomicInteger bufferedRows = new AtomicInteger();
  private final AtomicInteger paused = new AtomicInteger();

  public SinkMeters(MeterRegistry registry, Readiness readiness, String database) {
    this.registry = registry;
    this.readiness = readiness;
    this.database = database;
    this.unavailable =
        Counter.builder("specwatch.sink.clickhouse.unavailable")
            .description("Times an insert failed retriably and consumption was paused")
            .register(registry);
    Gauge.builder("specwatch.sink.buffered.rows", bufferedRows, AtomicInteger::get)
        .description("Rows buffered or being inserted, over all tables")
        .register(registry);
    Gauge.builder("specwatch.sink.paused", paused, AtomicInteger::get)
        .description("1 while consumption is paused because ClickHouse is unavailable")
        .register(registry);
  }

  private String qualified(String table) {
    return database + "." + table;
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
  public void inserted(String table, int rowCount, long nanos) {
    Counter.builder("specwatch.sink.rows.inserted")
        .description("Rows ClickHouse acknowledged")
        .tag("table", qualified(table))
        .register(registry)
        .increment(rowCount);
    Counter.builder("specwatch.sink.batches")
        .description("Inserts ClickHouse acknowledged")
        .tag("table", qualified(table))
        .register(registry)
        .increment();
    Timer.builder("specwatch.sink.insert")
        .description("Time of one acknowledged insert")
        .tag("table", qualified(table))
        .publishPercentileHistogram()
        .register(registry)
        .record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void deadLettered(String table, String stage) {
    Counter.builder("specwatch.sink.dead.letters")
        .description("Records sent to the dead-letter topic")
        .tag("table", qualified(table))
        .tag("stage", stage)
        .register(registry)
        .increment();
  }

  @Override
  public void clickHouseUnavailable(String reason) {
    unavailable.increment();
    readiness.notReady("ClickHouse unavailable, consumption paused: " + reason);
  }

  @Override
  public void clickHouseRecovered() {
    readiness.ready();
  }

  @Override
  public void buffered(int rows, boolean paused) {
    bufferedRows.set(rows);
    this.paused.set(paused ? 1 : 0);
  }
}
