package io.specwatch.sink;

import io.specwatch.serde.AvroSerde;
import io.specwatch.sink.clickhouse.ClickHouseError;
import io.specwatch.sink.clickhouse.ClickHouseFailure;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.rows.RowMapping;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ClickHouse loader: one consumer ({@code read_committed}, manual commits) over the topics of
 * the configured tables, one buffer per table, inserts in batches.
 *
 * <ul>
 *   <li>A table's buffer is inserted when it holds {@code batchSize} rows or {@link
 *       SinkConfig#MAX_BATCH_BYTES}, or when its first row is {@code flushInterval} old.
 *   <li>Every partition feeds exactly one table, so once a table's buffer is acknowledged (or
 *       empty) the consumer positions of its partitions are safe to commit: offsets are committed
 *       only after every batch holding their records was acknowledged and every dead letter
 *       written.
 *   <li>A retriable ClickHouse error (no server, timeouts, overload; {@link ClickHouseError})
 *       pauses all assigned partitions, so memory stays bounded by what is buffered, and retries
 *       the pending inserts with exponential backoff while polling keeps the group membership. When
 *       a retry succeeds consumption resumes; when {@code retry.maxAttempts} run out {@link #run()}
 *       throws with nothing past the last acknowledged batch committed.
 *   <li>A bad-data error splits the batch in halves until the rejected rows are alone; each goes to
 *       the dead-letter topic ({@code sink.insert}) and its batch-mates are inserted. A value the
 *       table cannot hold is dead-lettered before it is buffered ({@code sink.map}), an undecodable
 *       one likewise ({@code sink.decode}). A fatal error (unknown table, credentials) throws.
 *   <li>Retries and replays create no visible duplicates: batch identity is deterministic (table +
 *       per-partition offset ranges), sent as {@code insert_deduplication_token} where the server
 *       supports it (22.2+), and every table is a ReplacingMergeTree on the natural key, read with
 *       {@code FINAL}.
 * </ul>
 *
 * Not thread-safe except {@link #stop()}.
 */
public final class ClickHouseSink implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ClickHouseSink.class);
  private static final Duration MAX_POLL = Duration.ofMillis(200);

  private final SinkConfig config;
  private final ClickHouseSql sql;
  private final KafkaConsumer<String, byte[]> consumer;
  private final Map<String, Loader<?>> byTopic = new LinkedHashMap<>();
  private final DeadLetters deadLetters;
  private final SinkListener listener;
  private final boolean dedupTokens;
  private final AtomicBoolean stopping = new AtomicBoolean();

  private final Map<TopicPartition, Long> committed = new HashMap<>();
  private final Map<TopicPartition, Long> firstUnacked = new HashMap<>();
  private int failedAttempts;
  private long nextAttemptNanos;
  private boolean paused;

  private long recordsPolled;
  private long deadLettered;
  private long commits;
  private long retries;
  private long lastActivityNanos;

  /** Builds the consumer, the serdes and the dead-letter producer from the config. */
  public ClickHouseSink(SinkConfig config, ClickHouseSql sql) {
    this(config, sql, SinkListener.NONE);
  }

  /** As {@link #ClickHouseSink(SinkConfig, ClickHouseSql)}, reporting to {@code listener}. */
  public ClickHouseSink(SinkConfig config, ClickHouseSql sql, SinkListener listener) {
    this.config = config;
    this.sql = sql;
    this.listener = listener;
    String version = sql.serverVersion();
    this.dedupTokens = ClickHouseSql.supportsDedupToken(version);
    for (Map.Entry<SinkTable, String> e : config.topics().entrySet()) {
      byTopic.put(e.getValue(), loader(e.getKey(), e.getKey().mapping()));
    }
    this.consumer = new KafkaConsumer<>(config.consumerProperties());
    this.deadLetters = new DeadLetters(config);
    log.info(
        "ClickHouse {}: insert_deduplication_token {}",
        version,
        dedupTokens ? "sent with every insert" : "not supported, relying on ReplacingMergeTree");
  }

  private <V extends SpecificRecord> Loader<V> loader(SinkTable table, RowMapping<V> mapping) {
    return new Loader<>(table, mapping);
  }

  /**
   * Polls and inserts until {@link #stop()} is called (or, with {@code exitWhenIdle}, until no
   * record arrived for that long with nothing pending). Inserts and commits what it holds before
   * returning (if ClickHouse is still unavailable then, the rows stay uncommitted for the next
   * run). Throws on a fatal ClickHouse error or when retries run out.
   */
  public SinkStats run() {
    log.info(
        "Sink starting: tables={} group={} format={} batchSize={} flushInterval={} exitWhenIdle={}",
        config.topics(),
        config.groupId(),
        config.insertFormat(),
        config.batchSize(),
        config.flushInterval(),
        config.exitWhenIdle().map(Duration::toString).orElse("never"));
    consumer.subscribe(List.copyOf(byTopic.keySet()), new Rebalance());
    lastActivityNanos = System.nanoTime();
    Duration poll =
        config.flushInterval().compareTo(MAX_POLL) < 0 ? config.flushInterval() : MAX_POLL;
    try {
      while (!stopping.get()) {
        ConsumerRecords<String, byte[]> records = consumer.poll(poll);
        if (!records.isEmpty()) {
          lastActivityNanos = System.nanoTime();
          Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
          for (ConsumerRecord<String, byte[]> record : records) {
            accept(record, now);
          }
        }
        flushDue(false);
        if (idleLongEnough()) {
          log.info("Sink idle for {}, exiting", config.exitWhenIdle().orElseThrow());
          break;
        }
      }
    } catch (WakeupException e) {
      if (!stopping.get()) {
        throw e;
      }
    }
    finalFlush();
    SinkStats stats = stats();
    log.info("Sink stopped: {}", stats);
    return stats;
  }

  /** Asks {@link #run()} to flush, commit and return. Safe from any thread (a SIGTERM hook). */
  public void stop() {
    stopping.set(true);
    consumer.wakeup();
  }

  /** Counters so far. */
  public SinkStats stats() {
    long rows = 0;
    long batches = 0;
    Map<String, Long> byTable = new LinkedHashMap<>();
    for (Loader<?> l : byTopic.values()) {
      rows += l.rows;
      batches += l.batches;
      byTable.put(l.table.table(), l.rows);
    }
    return new SinkStats(recordsPolled, rows, batches, deadLettered, commits, retries, byTable);
  }

  /** Rows buffered, over all tables (bounded: buffers are not filled while paused). */
  public int bufferedRows() {
    return byTopic.values().stream().mapToInt(l -> l.buffer.rows()).sum();
  }

  private void accept(ConsumerRecord<String, byte[]> record, Instant insertedAt) {
    recordsPolled++;
    Loader<?> loader = byTopic.get(record.topic());
    firstUnacked.putIfAbsent(
        new TopicPartition(record.topic(), record.partition()), record.offset());
    loader.accept(record, insertedAt);
  }

  private boolean idleLongEnough() {
    return config
        .exitWhenIdle()
        .map(
            idle ->
                !paused
                    && bufferedRows() == 0
                    && System.nanoTime() - lastActivityNanos >= idle.toNanos())
        .orElse(false);
  }

  /**
   * Inserts the buffers that are due (all of them when {@code force} or while retrying), then
   * commits what is safe. A retriable failure pauses consumption and schedules the next attempt.
   */
  private void flushDue(boolean force) {
    long now = System.nanoTime();
    if (paused && now < nextAttemptNanos && !force) {
      return;
    }
    ClickHouseFailure failure = null;
    for (Loader<?> l : byTopic.values()) {
      if (l.buffer.isEmpty() || !(force || paused || l.due())) {
        continue;
      }
      try {
        l.insertAll();
      } catch (ClickHouseFailure f) {
        if (!f.isRetriable()) {
          throw f;
        }
        failure = f;
        break;
      }
    }
    if (failure != null) {
      onRetriable(failure);
      return;
    }
    if (paused) {
      log.info("ClickHouse answered again after {} failed attempts; resuming", failedAttempts);
      consumer.resume(consumer.assignment());
      paused = false;
      failedAttempts = 0;
      listener.clickHouseRecovered();
    }
    commitSafe();
  }

  private void onRetriable(ClickHouseFailure f) {
    failedAttempts++;
    retries++;
    if (failedAttempts >= config.retry().maxAttempts()) {
      log.error(
          "ClickHouse still failing after {} attempts; giving up, offsets of {} buffered rows not"
              + " committed",
          failedAttempts,
          bufferedRows(),
          f);
      throw f;
    }
    Duration wait = config.retry().delay(failedAttempts);
    nextAttemptNanos = System.nanoTime() + wait.toNanos();
    if (!paused) {
      consumer.pause(consumer.assignment());
      paused = true;
      listener.clickHouseUnavailable(f.getMessage());
    }
    log.warn(
        "Insert failed retriably (attempt {}, code {}), partitions paused with {} rows buffered,"
            + " retrying in {}: {}",
        failedAttempts,
        f.code(),
        bufferedRows(),
        wait,
        f.getMessage());
  }

  private void finalFlush() {
    try {
      flushDue(true);
      if (paused) {
        log.warn(
            "Stopping while ClickHouse is unavailable: {} rows not inserted and their offsets not"
                + " committed; the next run reads them again",
            bufferedRows());
      }
    } catch (ClickHouseFailure f) {
      log.warn("Final insert failed; offsets of the buffered rows not committed", f);
      throw f;
    }
  }

  /**
   * Commits, for every assigned partition whose table has nothing buffered, the consumer's position
   * (past every record read, control records of transactions included). Dead letters are flushed
   * first.
   */
  private void commitSafe() {
    try {
      commitSafeOnce();
    } catch (WakeupException e) {
      // stop() woke the consumer while committing: the wakeup is spent, commit again.
      commitSafeOnce();
    }
  }

  private void commitSafeOnce() {
    if (deadLetters.pending() > 0) {
      deadLetters.flush();
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition tp : consumer.assignment()) {
      Loader<?> l = byTopic.get(tp.topic());
      if (l == null || !l.buffer.isEmpty()) {
        continue;
      }
      long position = consumer.position(tp);
      firstUnacked.remove(tp);
      Long last = committed.get(tp);
      if (last == null || last != position) {
        offsets.put(tp, new OffsetAndMetadata(position));
      }
    }
    if (offsets.isEmpty()) {
      return;
    }
    try {
      consumer.commitSync(offsets);
      offsets.forEach((tp, o) -> committed.put(tp, o.offset()));
      commits++;
    } catch (CommitFailedException | RebalanceInProgressException e) {
      log.warn(
          "Offset commit refused during a rebalance; the next owner re-reads them: {}",
          e.toString());
    }
  }

  /**
   * Forgets every buffered row and moves the partitions still assigned back to their first
   * unacknowledged offset, so they are read again. Used when partitions are revoked or lost while
   * ClickHouse cannot take the buffers.
   */
  private void discardAndRewind(Collection<TopicPartition> gone) {
    Set<TopicPartition> keep = new HashSet<>(consumer.assignment());
    keep.removeAll(gone);
    for (TopicPartition tp : keep) {
      Long first = firstUnacked.get(tp);
      if (first != null) {
        consumer.seek(tp, first);
      }
    }
    int dropped = bufferedRows();
    byTopic.values().forEach(l -> l.buffer.clear());
    firstUnacked.clear();
    for (TopicPartition tp : gone) {
      committed.remove(tp);
    }
    if (paused) {
      consumer.resume(keep);
      paused = false;
      failedAttempts = 0;
    }
    log.warn(
        "Dropped {} uninserted rows (offsets not committed: they are read again) on losing {}",
        dropped,
        gone);
  }

  @Override
  public void close() {
    try {
      consumer.close();
    } finally {
      deadLetters.close();
      byTopic.values().forEach(l -> l.values.close());
    }
  }

  /** One table: its deserializer, buffer and counters. */
  private final class Loader<V extends SpecificRecord> {
    final SinkTable table;
    final String qualified;
    final Deserializer<V> values;
    final TableBuffer<V> buffer;
    long rows;
    long batches;

    Loader(SinkTable table, RowMapping<V> mapping) {
      this.table = table;
      this.qualified = config.clickhouse().database() + "." + table.table();
      this.values = AvroSerde.forClass(mapping.type(), config.serdeConfig(), false).deserializer();
      this.buffer = new TableBuffer<>(table, mapping, config.insertFormat());
    }

    boolean due() {
      return buffer.rows() >= config.batchSize()
          || buffer.bytes() >= SinkConfig.MAX_BATCH_BYTES
          || buffer.ageNanos() >= config.flushInterval().toNanos();
    }

    void accept(ConsumerRecord<String, byte[]> record, Instant insertedAt) {
      TableBuffer.Origin origin =
          new TableBuffer.Origin(
              record.topic(), record.partition(), record.offset(), record.key(), record.value());
      if (record.value() == null) {
        if (table == SinkTable.RUN_CONTEXTS) {
          return; // a compacted topic's tombstone: nothing to load
        }
        deadLetter(
            DeadLetters.STAGE_DECODE,
            origin,
            IllegalArgumentException.class.getName(),
            "null value (tombstone) on " + record.topic(),
            Map.of());
        return;
      }
      V value;
      try {
        value = values.deserialize(record.topic(), record.headers(), record.value());
      } catch (RuntimeException e) {
        deadLetter(
            DeadLetters.STAGE_DECODE, origin, e.getClass().getName(), e.getMessage(), Map.of());
        return;
      }
      try {
        buffer.add(value, record, insertedAt);
      } catch (RuntimeException e) {
        deadLetter(
            DeadLetters.STAGE_MAP,
            origin,
            e.getClass().getName(),
            e.getMessage(),
            Map.of("table", qualified));
      }
    }

    /** Inserts the whole buffer (splitting around bad rows) and clears it. */
    void insertAll() {
      insertRange(0, buffer.rows());
      buffer.clear();
    }

    private void insertRange(int from, int to) {
      String batchId = buffer.batchId(from, to);
      long start = System.nanoTime();
      try {
        sql.insert(
            qualified,
            buffer.columns(),
            buffer.format().clickHouseFormat(),
            buffer.body(from, to),
            dedupTokens ? Optional.of(batchId) : Optional.empty());
      } catch (ClickHouseFailure f) {
        if (f.category() != ClickHouseError.Category.BAD_DATA) {
          throw f;
        }
        if (to - from == 1) {
          deadLetter(
              DeadLetters.STAGE_INSERT,
              buffer.origin(from),
              "ClickHouse " + f.error() + " (code " + f.code() + ")",
              f.getMessage(),
              Map.of(
                  "table", qualified,
                  "clickhouse_code", Integer.toString(f.code()),
                  "batch_id", batchId));
          return;
        }
        log.warn(
            "ClickHouse rejected {} rows of {} ({}, code {}): splitting to isolate the bad rows",
            to - from,
            batchId,
            f.error(),
            f.code());
        int mid = (from + to) >>> 1;
        insertRange(from, mid);
        insertRange(mid, to);
        return;
      }
      long nanos = System.nanoTime() - start;
      rows += to - from;
      batches++;
      listener.inserted(table.table(), to - from, nanos);
      log.debug("Inserted {} rows ({}) in {} ms", to - from, batchId, nanos / 1_000_000);
    }

    private void deadLetter(
        String stage,
        TableBuffer.Origin origin,
        String errorClass,
        String message,
        Map<String, String> context) {
      log.warn(
          "Record {}-{}@{} sent to dead letters at {}: {}",
          origin.topic(),
          origin.partition(),
          origin.offset(),
          stage,
          message);
      deadLetters.send(stage, origin, errorClass, message, context);
      deadLettered++;
      listener.deadLettered(table.table(), stage);
    }
  }

  /**
   * Before partitions move to another member, insert and commit what was read; if ClickHouse cannot
   * take it now, drop the buffers uncommitted (the next owner reads them again) and rewind the
   * partitions kept.
   */
  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      if (partitions.isEmpty()) {
        return;
      }
      listener.revoked(partitions);
      try {
        for (Loader<?> l : byTopic.values()) {
          if (!l.buffer.isEmpty()) {
            l.insertAll();
          }
        }
        commitSafe();
      } catch (ClickHouseFailure f) {
        if (f.category() == ClickHouseError.Category.FATAL) {
          throw f;
        }
        discardAndRewind(partitions);
      }
      for (TopicPartition tp : partitions) {
        committed.remove(tp);
        firstUnacked.remove(tp);
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      discardAndRewind(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      lastActivityNanos = System.nanoTime();
      if (paused) {
        consumer.pause(partitions);
      }
      log.info("Sink assigned {}", partitions);
      listener.assigned(partitions);
    }
  }
}
