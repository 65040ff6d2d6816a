package io.specwatch.sink.bench;

import io.specwatch.serde.AvroSerde;
import io.specwatch.sink.Backoff;
import io.specwatch.sink.ClickHouseSink;
import io.specwatch.sink.InsertFormat;
import io.specwatch.sink.SinkConfig;
import io.specwatch.sink.SinkListener;
import io.specwatch.sink.SinkStats;
import io.specwatch.sink.SinkTable;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The sink's side of the benchmark: the generated records produced to Kafka (Avro, the registry),
 * and one timed {@link ClickHouseSink} run (defaults: RowBinary, batch and flush interval) that
 * drains a topic into a fresh database.
 */
final class SinkRuns {

  /**
   * One timed sink run: rows/s from the first assignment to the last acknowledgement, inserts per
   * second over the same time (inserts from the table's block numbers), rows per insert.
   */
  record SinkRun(double rowsPerSecond, double insertsPerSecond, double rowsPerInsert) {}

  private final BenchTarget target;

  SinkRuns(BenchTarget target) {
    this.target = target;
  }

  <V extends SpecificRecord> void produce(
      String topic, Class<V> type, List<V> values, java.util.function.Function<V, String> key) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, target.bootstrap);
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
    long t0 = System.nanoTime();
    try (KafkaProducer<String, V> producer =
        new KafkaProducer<>(
            p,
            new StringSerializer(),
            AvroSerde.forClass(type, Map.of("schema.registry.url", target.registry), false)
                .serializer())) {
      for (V v : values) {
        producer.send(new ProducerRecord<>(topic, key.apply(v), v));
      }
      producer.flush();
    }
    System.out.printf(
        "  produced %d records to %s in %.1f s%n",
        values.size(), topic, (System.nanoTime() - t0) / 1e9);
  }

  SinkRun sink(String db, SinkTable table, String topic, int rows, int round, double base)
      throws Exception {
    SinkConfig config =
        new SinkConfig(
            target.bootstrap,
            target.registry,
            Map.of(table, topic),
            "bench." + target.run + ".dlq",
            "bench-" + target.run + "-" + table.table() + "-" + round,
            target.config(db),
            SinkConfig.DEFAULT_BATCH_SIZE,
            SinkConfig.DEFAULT_FLUSH_INTERVAL,
            Optional.of(Duration.ofSeconds(3)),
            Backoff.DEFAULT,
            InsertFormat.ROW_BINARY,
            Map.of());
    AtomicLong lastAck = new AtomicLong();
    AtomicLong firstRecord = new AtomicLong();
    SinkListener timing =
        new SinkListener() {
          @Override
          public void inserted(String t, int n, long nanos) {
            lastAck.set(System.nanoTime());
          }

          @Override
          public void assigned(java.util.Collection<org.apache.kafka.common.TopicPartition> tps) {
            firstRecord.compareAndSet(0, System.nanoTime());
          }
        };
    SinkStats stats;
    long cpu0 = processCpuNanos();
    try (ClickHouseSql sql = new ClickHouseSql(target.config(db));
        ClickHouseSink sink = new ClickHouseSink(config, sql, timing)) {
      stats = sink.run();
    }
    // the JVM's CPU (all threads: poll, encode, insert, GC, JIT) while the sink ran: unlike rows/s
    // it
    // hardly depends on what else the machine runs
    double cpuSeconds = (processCpuNanos() - cpu0) / 1e9;
    target.check(db, table.table(), rows);
    double seconds = (lastAck.get() - firstRecord.get()) / 1e9;
    double rate = rows / seconds;
    long inserts;
    try (ClickHouseSql sql = new ClickHouseSql(target.config(db))) {
      inserts =
          Long.parseLong(
              sql.queryTsvWithNames(
                      "SELECT max(max_block_number) FROM system.parts WHERE database = '"
                          + db
                          + "' AND table = '"
                          + table.table()
                          + "'")
                  .get(1)
                  .get(0));
    }
    if (round == 0) {
      System.out.printf(
          "  sink warm-up (not counted): %d %s rows in %.2f s%n", rows, table.table(), seconds);
      return new SinkRun(rate, inserts / seconds, (double) rows / inserts);
    }
    System.out.printf(
        "  %-22s %-15s JVM CPU %.2f s = %.1f us per row%n",
        "", table.table(), cpuSeconds, cpuSeconds * 1e6 / rows);
    System.out.printf(
        "  %-22s %-15s %6.2f s  %9.0f rows/s  ratio to clickhouse-client %.2f;"
            + " %d inserts (system.parts block numbers; sink counted %d) = %.2f inserts/s%n",
        "sink",
        table.table(),
        seconds,
        rate,
        rate / base,
        inserts,
        stats.batches(),
        inserts / seconds);
    return new SinkRun(rate, inserts / seconds, (double) rows / inserts);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
