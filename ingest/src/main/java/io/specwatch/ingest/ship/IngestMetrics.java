package io.specwatch.ingest.ship;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.LongSupplier;

/**
 * The shipper's Prometheus metrics (served on {@code /metrics} by ship, tail and scrape when {@code
 * --health-port} is set):
 *
 * <ul>
 *   <li>{@code specwatch_ingest_lines_read_total}, {@code specwatch_ingest_bytes_read_total}
 *       (lines/s = {@code rate(...)});
 *   <li>{@code specwatch_ingest_records_total{kind=decode_event|request|run_context}};
 *   <li>{@code specwatch_ingest_dead_letters_total}, {@code specwatch_ingest_skipped_total}, {@code
 *       specwatch_ingest_unrecognised_lines_total};
 *   <li>{@code specwatch_ingest_kafka_errors_total} (failed or blocked sends);
 *   <li>{@code specwatch_ingest_bytes_behind} (gauge: bytes of the shipped files not read yet).
 * </ul>
 */
public final class IngestMetrics implements ShipObserver {

  private final Counter lines;
  private final Counter bytes;
  private final Counter events;
  private final Counter requests;
  private final Counter contexts;
  private final Counter dead;
  private final Counter skipped;
  private final Counter unrecognised;
  private final Counter kafkaErrors;

  public IngestMetrics(MeterRegistry registry, LongSupplier bytesBehind) {
    lines =
        Counter.builder("specwatch.ingest.lines.read").description("Lines read").register(registry);
    bytes =
        Counter.builder("specwatch.ingest.bytes.read")
            .description("Bytes read, line terminators included")
            .register(registry);
    events = records(registry, "decode_event");
    requests = records(registry, "request");
    contexts = records(registry, "run_context");
    dead =
        Counter.builder("specwatch.ingest.dead.letters")
            .description("Lines sent to the dead-letter topic")
            .register(registry);
    skipped =
        Counter.builder("specwatch.ingest.skipped")
            .description("Valid lines skipped by decision (non-speculative meta_info)")
            .register(registry);
    unrecognised =
        Counter.builder("specwatch.ingest.unrecognised.lines")
            .description("Lines that are not metric lines")
            .register(registry);
    kafkaErrors =
        Counter.builder("specwatch.ingest.kafka.errors")
            .description("Sends Kafka failed or blocked")
            .register(registry);
    Gauge.builder("specwatch.ingest.bytes.behind", bytesBehind, s -> (double) s.getAsLong())
        .description("Bytes of the shipped files not read yet")
        .baseUnit("bytes")
        .strongReference(true)
        .register(registry);
  }

  private static Counter records(MeterRegistry registry, String kind) {
    return Counter.builder("specwatch.ingest.records")
        .description("Records handed to the producer, by kind")
        .tag("kind", kind)
        .register(registry);
  }

  @Override
  public void line(SourceLine line, long endOffset, IngestOutcome outcome) {
    lines.increment();
    bytes.increment(line.bytes().length + 1.0);
    for (int i = 0, n = outcome.partCount(); i < n; i++) {
      count(outcome.part(i));
    }
  }

  private void count(IngestOutcome part) {
    if (part instanceof IngestOutcome.Event || part instanceof IngestOutcome.PreEncoded) {
      events.increment();
    } else if (part instanceof IngestOutcome.Request) {
      requests.increment();
    } else if (part instanceof IngestOutcome.Context) {
      contexts.increment();
    } else if (part instanceof IngestOutcome.Dead) {
      dead.increment();
    } else if (part instanceof IngestOutcome.Skipped) {
      skipped.increment();
    } else if (part instanceof IngestOutcome.Unrecognised) {
      unrecognised.increment();
    }
  }

  @Override
  public void runContexts(int n) {
    contexts.increment(n);
  }

  @Override
  public void kafkaError(Exception e) {
    kafkaErrors.increment();
  }
}
