package io.specwatch.sink;

import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.sink.clickhouse.ClickHouseFailure;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes {@code WindowResult}s (read_committed, manual commits) and inserts them into {@code
 * <db>.window_results} in batches: a batch is flushed when it holds {@code batchSize} rows or its
 * first row is {@code flushInterval} old. Offsets are committed only after ClickHouse acknowledged
 * the insert, and they are the consumer's positions, which cover exactly the records of the batch
 * (every polled record is in the batch). A failed insert is retried with bounded backoff; when
 * retries run out {@link #run()} throws and nothing past the last acknowledged batch is committed.
 *
 * <p>Delivery is at-least-once into an idempotent table: a replay (crash between insert and commit,
 * a reset group) inserts the same natural keys again, and ReplacingMergeTree plus {@code FINAL} in
 * every read makes those copies invisible. Not thread-safe except {@link #stop()}.
 */
public final class WindowResultSink implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(WindowResultSink.class);
  private static final Duration MAX_POLL = Duration.ofMillis(200);

  private final SinkConfig config;
  private final ClickHouseSql sql;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Deserializer<WindowResult> values;
  private final DeadLetters deadLetters;
  private final String table;
  private final RowBuffer buffer = new RowBuffer();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final SinkListener listener;

  private long recordsPolled;
  private long rowsInserted;
  private long batches;
  private long deadLettered;
  private long pendingDeadLetters;
  private long commits;
  private long lastActivityNanos;

  /** Builds the consumer, the serde and the dead-letter producer from the config. */
  public WindowResultSink(SinkConfig config, ClickHouseSql sql) {
    this(config, sql, SinkListener.NONE);
  }

  /** As {@link #WindowResultSink(SinkConfig, ClickHouseSql)}, reporting to {@code listener}. */
  public WindowResultSink(SinkConfig config, ClickHouseSql sql, SinkListener listener) {
    this.listener = listener;
    this.config = config;
    this.sql = sql;
    this.table = config.clickhouse().database() + "." + WindowResultRow.TABLE;
    this.values =
        AvroSerde.forClass(WindowResult.class, config.serdeConfig(), false).deserializer();
    this.consumer = new KafkaConsumer<>(config.consumerProperties());
    this.deadLetters = new DeadLetters(config, DeadLetters.DEFAULT_TOPIC);
  }

  /**
   * Polls and inserts until {@link #stop()} is called (or, with {@code exitWhenIdle}, until no
   * record arrived for that long with nothing pending). Flushes and commits what it holds before
   * returning. Throws if ClickHouse keeps failing; offsets of unacknowledged rows stay uncommitted.
   */
  public SinkStats run() {
    log.info(
        "Sink starting: topic={} group={} table={} batchSize={} flushInterval={} exitWhenIdle={}",
        config.topic(),
        config.groupId(),
        table,
        config.batchSize(),
        config.flushInterval(),
        config.exitWhenIdle().map(Duration::toString).orElse("never"));
    consumer.subscribe(List.of(config.topic()), new FlushOnRevoke());
    lastActivityNanos = System.nanoTime();
    Duration poll =
        config.flushInterval().compareTo(MAX_POLL) < 0 ? config.flushInterval() : MAX_POLL;
    try {
      while (!stopping.get()) {
        ConsumerRecords<String, byte[]> records = consumer.poll(poll);
        if (!records.isEmpty()) {
          lastActivityNanos = System.nanoTime();
          for (ConsumerRecord<String, byte[]> record : records) {
            accept(record);
          }
        }
        if (buffer.rows() >= config.batchSize()
            || buffer.ageNanos() >= config.flushInterval().toNanos()
            || (buffer.isEmpty() && pendingDeadLetters > 0)) {
          flush();
        }
        if (idleLongEnough()) {
          flush();
          commitPositions();
          log.info("Sink idle for {}, exiting", config.exitWhenIdle().orElseThrow());
          break;
        }
      }
    } catch (WakeupException e) {
      if (!stopping.get()) {
        throw e;
      }
    }
    flush();
    SinkStats stats = stats();
    log.info("Sink stopped: {}", stats);
    return stats;
  }

  /**
   * Asks {@link #run()} to flush, commit and return. Safe from any thread (e.g. a SIGTERM hook).
   */
  public void stop() {
    stopping.set(true);
    consumer.wakeup();
  }

  /** Counters so far. */
  public SinkStats stats() {
    return new SinkStats(recordsPolled, rowsInserted, batches, deadLettered, commits);
  }

  private void accept(ConsumerRecord<String, byte[]> record) {
    recordsPolled++;
    WindowResult result;
    try {
      if (record.value() == null) {
        throw new IllegalArgumentException("null value (tombstone) on a window-results topic");
      }
      result = values.deserialize(record.topic(), record.headers(), record.value());
    } catch (RuntimeException e) {
      log.warn(
          "Undecodable record {}-{}@{} sent to dead letters: {}",
          record.topic(),
          record.partition(),
          record.offset(),
          e.toString());
      deadLetters.send(record, e);
      deadLettered++;
      pendingDeadLetters++;
      listener.deadLettered();
      return;
    }
    buffer.add(
        result,
        new WindowResultRow.Source(record.topic(), record.partition(), record.offset()),
        Instant.now().truncatedTo(ChronoUnit.SECONDS));
  }

  private boolean idleLongEnough() {
    return config
        .exitWhenIdle()
        .map(idle -> buffer.isEmpty() && System.nanoTime() - lastActivityNanos >= idle.toNanos())
        .orElse(false);
  }

  /** Inserts the buffer (retrying), flushes dead letters, then commits positions. */
  private void flush() {
    if (buffer.isEmpty() && pendingDeadLetters == 0) {
      return;
    }
    if (!buffer.isEmpty()) {
      long start = System.nanoTime();
      insertWithRetry(buffer.toByteArray(), buffer.rows());
      listener.inserted(buffer.rows(), System.nanoTime() - start);
      rowsInserted += buffer.rows();
      batches++;
      buffer.clear();
    }
    deadLetters.flush();
    pendingDeadLetters = 0;
    commitPositions();
  }

  private void insertWithRetry(byte[] body, int rows) {
    for (int attempt = 1; ; attempt++) {
      try {
        long start = System.nanoTime();
        sql.insertJsonEachRow(table, body);
        log.debug(
            "Inserted {} rows into {} in {} ms",
            rows,
            table,
            (System.nanoTime() - start) / 1_000_000);
        return;
      } catch (ClickHouseFailure e) {
        if (!e.isRetriable() || attempt >= config.retry().maxAttempts()) {
          log.error(
              "Insert of {} rows into {} failed for good after {} attempts; offsets not committed",
              rows,
              table,
              attempt,
              e);
          throw e;
        }
        Duration wait = config.retry().delay(attempt);
        log.warn(
            "Insert of {} rows into {} failed (attempt {}), retrying in {}: {}",
            rows,
            table,
            attempt,
            wait,
            e.getMessage());
        sleep(wait);
      }
    }
  }

  private void commitPositions() {
    try {
      commitPositionsOnce();
    } catch (WakeupException e) {
      // stop() woke the consumer while we were committing: the wakeup is spent, commit again.
      commitPositionsOnce();
    }
  }

  private void commitPositionsOnce() {
    Set<TopicPartition> assigned = consumer.assignment();
    if (assigned.isEmpty()) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition tp : assigned) {
      offsets.put(tp, new OffsetAndMetadata(consumer.position(tp)));
    }
    consumer.commitSync(offsets);
    commits++;
  }

  private static void sleep(Duration wait) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting to retry an insert", e);
    }
  }

  @Override
  public void close() {
    try {
      consumer.close();
    } finally {
      deadLetters.close();
      values.close();
    }
  }

  /** Before partitions move to another member, insert and commit what was read from them. */
  private final class FlushOnRevoke implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      if (!partitions.isEmpty()) {
        listener.revoked(partitions);
        flush();
      }
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      lastActivityNanos = System.nanoTime();
      log.info("Sink assigned {}", partitions);
      listener.assigned(partitions);
    }
  }
}
