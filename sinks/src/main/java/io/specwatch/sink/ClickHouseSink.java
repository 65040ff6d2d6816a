package io.specwatch.sink;

import io.specwatch.sink.clickhouse.ClickHouseError;
import io.specwatch.sink.clickhouse.ClickHouseFailure;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.rows.RowMapping;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ClickHouse loader: one consumer ({@code read_committed}, manual commits) over the topics of
 * the configured tables, one buffer per table, inserts in batches.
 *
 * <ul>
 *   <li>A table's buffer is inserted when it holds {@code batchSize} rows or {@link
 *       SinkConfig#MAX_BATCH_BYTES}, or when its first row is {@code flushInterval} old, or when a
 *       poll came back empty (caught up) and the table's previous batch left at least {@code
 *       flushInterval} ago or left full (the tail of a catch-up; at most one time-triggered insert
 *       per interval and table). The insert runs on an insert thread while the next batch fills (at
 *       most one closed batch in flight per table: a full buffer waits for it), so consuming and
 *       inserting overlap.
 *   <li>Where no dedup token is sent (18.16) RowBinary inserts are streamed: a batch's insert
 *       starts on a stream thread when its first rows are buffered and its body ({@link
 *       StreamedBody}) gets the rows as they are encoded; closing the batch ends the body. The body
 *       holds back its last byte until then, so a body cut short ends inside a row and inserts
 *       nothing; a failed streamed insert is inserted again as a whole, with the error handling
 *       below.
 *   <li>Decoding and encoding run on an encode thread: a poll's records are encoded while the next
 *       poll runs. The loop waits for them before it flushes or commits, and uses the positions
 *       from before the newer poll's records ({@link #encodedUpTo}), so a position never covers a
 *       record that is not in a buffer yet. Rebalance callbacks wait for the encode thread first.
 *   <li>Every partition feeds exactly one table. When a batch is handed to the insert thread the
 *       consumer positions of the table's partitions are noted (every polled record of them is in
 *       that batch); once ClickHouse acknowledged it, those positions are committed. So offsets are
 *       committed only after every batch holding their records was acknowledged and every dead
 *       letter written.
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
  private final boolean millis;
  // RowBinary inserts without a dedup token are uploaded while their batch fills (StreamedBody)
  private final boolean streaming;
  private final AtomicBoolean stopping = new AtomicBoolean();

  private final ExecutorService inserter =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "sink-insert");
            t.setDaemon(true);
            return t;
          });
  // one streamed upload per table at a time (the filling buffer's)
  private final ExecutorService streamers =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "sink-stream");
            t.setDaemon(true);
            return t;
          });
  private final ExecutorService encoder =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "sink-encode");
            t.setDaemon(true);
            return t;
          });

  /** The polled records being decoded and encoded into the buffers on {@code sink-encode}. */
  private Future<?> encoding;

  /**
   * While the records of the last poll are (or may be) still being encoded: per assigned partition,
   * the position the buffers reflect (the first offset of the last poll's records, else the
   * position). Null when everything polled is in the buffers (then the consumer's position).
   */
  private Map<TopicPartition, Long> encodedUpTo;

  /** Records of the last poll admitted but not yet handed to {@code sink-encode}. */
  private List<ConsumerRecord<String, byte[]>> unencoded;

  private Instant unencodedAt;

  private final Map<TopicPartition, Long> committed = new HashMap<>();
  private final Map<TopicPartition, Long> firstSeen = new HashMap<>();
  private int failedAttempts;
  private long nextAttemptNanos;
  private boolean paused;

  private long recordsPolled;
  private final AtomicLong deadLettered = new AtomicLong();
  private long commits;
  // sink replay: the partitions' spans and the per-record selection (null: the continuous sink)
  private final ReplayScan replay;
  private long retries;
  private long lastActivityNanos;
  private boolean caughtUp;

  /** Builds the consumer, the serdes and the dead-letter producer from the config. */
  public ClickHouseSink(SinkConfig config, ClickHouseSql sql) {
    this(config, sql, SinkListener.NONE);
  }

  /** As {@link #ClickHouseSink(SinkConfig, ClickHouseSql)}, reporting to {@code listener}. */
  public ClickHouseSink(SinkConfig config, ClickHouseSql sql, SinkListener listener) {
    this(config, sql, listener, null);
  }

  /**
   * As {@link #ClickHouseSink(SinkConfig, ClickHouseSql, SinkListener)}; with a {@code replay}
   * range, each assigned partition is sought to the start of its span ({@link ReplayScan}), only
   * the records the range selects are loaded, and {@link #run()} returns once every partition
   * reached its span's end and everything read was inserted and committed.
   */
  public ClickHouseSink(
      SinkConfig config, ClickHouseSql sql, SinkListener listener, ReplayRange replay) {
    this.replay = replay == null ? null : new ReplayScan(replay);
    this.config = config;
    this.sql = sql;
    this.listener = listener;
    String version = sql.serverVersion();
    this.dedupTokens = ClickHouseSql.supportsDedupToken(version);
    this.millis = sql.dialect().isModern();
    this.streaming = !dedupTokens && config.insertFormat() == InsertFormat.ROW_BINARY;
    for (Map.Entry<SinkTable, String> e : config.topics().entrySet()) {
      byTopic.put(e.getValue(), loader(e.getKey(), e.getKey().mapping()));
    }
    this.consumer = new KafkaConsumer<>(config.consumerProperties());
    this.deadLetters = new DeadLetters(config);
    log.info(
        "ClickHouse {}: insert_deduplication_token {}; inserts {}",
        version,
        dedupTokens ? "sent with every insert" : "not supported, relying on ReplacingMergeTree",
        streaming
            ? "uploaded while their batch fills"
            : "sent once their batch is complete (a dedup token or JSONEachRow)");
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
        caughtUp = records.isEmpty();
        if (!records.isEmpty()) {
          lastActivityNanos = System.nanoTime();
          unencodedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
          unencoded = new ArrayList<>(records.count());
          for (ConsumerRecord<String, byte[]> record : records) {
            if (admit(record)) {
              unencoded.add(record);
            }
          }
        }
        // the previous poll's records were encoded while this poll ran; this poll's records are
        // not in the buffers yet, so flushes and commits use the positions from before them
        awaitEncoded();
        encodedUpTo = records.isEmpty() ? null : positionsBefore(records);
        flushDue(false);
        listener.buffered(bufferedRows(), paused); // no encode runs now: the buffers hold still
        if (unencoded != null) {
          List<ConsumerRecord<String, byte[]>> chunk = unencoded;
          Instant at = unencodedAt;
          if (replay != null) {
            encode(chunk, at); // replay: its end check reads positions, keep it in step
            encodedUpTo = null;
          } else {
            encoding = encoder.submit(() -> encode(chunk, at));
          }
          unencoded = null;
        }
        if (replayDone()) {
          flushDue(true);
          log.info("Replay of {} reached its end offsets {}", replay.range(), replay.stops());
          replay.logSummary();
          break;
        }
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
    awaitEncoded(); // a failed encode throws here: nothing of it committed
    if (unencoded != null) { // stopped between a poll and its hand-off: the position covers them
      encode(unencoded, unencodedAt);
      unencoded = null;
    }
    encodedUpTo = null;
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
      rows += l.rows.get();
      batches += l.batches.get();
      byTable.put(l.table.table(), l.rows.get());
    }
    return new SinkStats(
        recordsPolled, rows, batches, deadLettered.get(), commits, retries, byTable);
  }

  /** A replay's scan counters so far; empty for the continuous sink. */
  public Optional<ReplayStats> replayStats() {
    return replay == null ? Optional.empty() : Optional.of(replay.stats());
  }

  /**
   * Rows buffered or being inserted, over all tables (bounded: at most one batch in flight and one
   * filling per table, and buffers are not filled while paused).
   */
  public int bufferedRows() {
    return byTopic.values().stream().mapToInt(Loader::pendingRows).sum();
  }

  /** On the polling thread: replay end (pauses the partition), counters; false = skip. */
  private boolean admit(ConsumerRecord<String, byte[]> record) {
    if (replay != null) {
      TopicPartition tp = new TopicPartition(record.topic(), record.partition());
      Long stop = replay.stops().get(tp);
      if (stop != null && record.offset() >= stop) {
        consumer.pause(List.of(tp));
        return false;
      }
    }
    recordsPolled++;
    firstSeen.putIfAbsent(new TopicPartition(record.topic(), record.partition()), record.offset());
    return true;
  }

  /** Decodes and encodes polled records into their tables' buffers (on {@code sink-encode}). */
  private void encode(List<ConsumerRecord<String, byte[]>> records, Instant insertedAt) {
    for (ConsumerRecord<String, byte[]> record : records) {
      byTopic.get(record.topic()).accept(record, insertedAt);
    }
    for (Loader<?> l : byTopic.values()) {
      l.buffer.publish(); // whole rows only: the streamed upload may send them
    }
  }

  /** Waits until the records handed to {@code sink-encode} are in the buffers. */
  private void awaitEncoded() {
    Future<?> pending = encoding;
    if (pending == null) {
      return;
    }
    encoding = null;
    try {
      pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while encoding polled records", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException("encoding polled records failed", e.getCause());
    }
  }

  private void awaitEncodedQuietly() {
    try {
      awaitEncoded();
    } catch (RuntimeException e) {
      log.warn("Encoding the last polled records failed", e);
    }
    encodedUpTo = null;
  }

  /**
   * Per assigned partition, the position before {@code records}: the first offset of its records in
   * them (a control record skipped before it is read again after a restart, harmlessly), else the
   * consumer's position.
   */
  private Map<TopicPartition, Long> positionsBefore(ConsumerRecords<String, byte[]> records) {
    Map<TopicPartition, Long> before = new HashMap<>();
    for (TopicPartition tp : consumer.assignment()) {
      List<ConsumerRecord<String, byte[]>> of = records.records(tp);
      before.put(tp, of.isEmpty() ? consumer.position(tp) : of.get(0).offset());
    }
    return before;
  }

  /** The position the buffers reflect (see {@link #encodedUpTo}). */
  private long encodedPosition(TopicPartition tp) {
    Map<TopicPartition, Long> upTo = encodedUpTo;
    if (upTo != null) {
      Long p = upTo.get(tp);
      if (p != null) {
        return p;
      }
    }
    return consumer.position(tp);
  }

  /** Replay: every assigned partition at its stop offset, nothing buffered or in flight. */
  private boolean replayDone() {
    if (replay == null || replay.stops().isEmpty() || paused) {
      return false;
    }
    for (Map.Entry<TopicPartition, Long> e : replay.stops().entrySet()) {
      if (consumer.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return bufferedRows() == 0 && byTopic.values().stream().allMatch(l -> l.inFlight == null);
  }

  private boolean idleLongEnough() {
    return config
        .exitWhenIdle()
        .map(
            idle ->
                !paused
                    && encoding == null
                    && bufferedRows() == 0
                    && byTopic.values().stream().allMatch(l -> l.inFlight == null)
                    && System.nanoTime() - lastActivityNanos >= idle.toNanos())
        .orElse(false);
  }

  /**
   * Hands the buffers that are due to the insert thread (all of them, and waits, when {@code
   * force}), collects finished inserts, then commits what is safe. While paused after a retriable
   * failure, retries the pending batches on this thread once the backoff has passed. A retriable
   * failure pauses consumption and schedules the next attempt; a fatal one throws.
   */
  private void flushDue(boolean force) {
    if (paused) {
      if (System.nanoTime() < nextAttemptNanos && !force) {
        return;
      }
      try {
        for (Loader<?> l : byTopic.values()) {
          l.insertPendingNow();
        }
      } catch (ClickHouseFailure f) {
        onRetriable(f);
        return;
      }
      log.info("ClickHouse answered again after {} failed attempts; resuming", failedAttempts);
      consumer.resume(consumer.assignment());
      paused = false;
      failedAttempts = 0;
      listener.clickHouseRecovered();
      commitSafe();
      return;
    }
    ClickHouseFailure failure = null;
    for (Loader<?> l : byTopic.values()) {
      try {
        l.reap(force);
        if (!l.buffer.isEmpty() && (force || l.due())) {
          if (l.inFlight != null && (force || l.full())) {
            l.reap(true); // backpressure: a full buffer waits for the batch in flight
          }
          if (l.inFlight == null && l.sending == null) {
            l.handOff();
            if (force) {
              l.reap(true);
            }
          }
        }
        if (!force) {
          l.maybeStream();
        }
      } catch (ClickHouseFailure f) {
        failure = f;
        break;
      }
    }
    if (failure != null) {
      onRetriable(failure);
      return;
    }
    commitSafe();
  }

  private void onRetriable(ClickHouseFailure f) {
    if (!f.isRetriable()) {
      throw f;
    }
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
      for (Loader<?> l : byTopic.values()) {
        l.abortStream(); // no new uploads while paused; the buffer is retried whole
      }
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

  private long commitTimeouts;

  private void commitSafeOnce() {
    if (deadLetters.pending() > 0) {
      deadLetters.flush();
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (TopicPartition tp : consumer.assignment()) {
      Loader<?> l = byTopic.get(tp.topic());
      if (l == null) {
        continue;
      }
      Long safe;
      if (l.buffer.isEmpty() && l.sending == null) {
        safe = encodedPosition(tp);
      } else {
        safe = l.acked.get(tp);
      }
      if (safe == null) {
        continue;
      }
      Long last = committed.get(tp);
      if (last == null || last.longValue() != safe.longValue()) {
        offsets.put(tp, new OffsetAndMetadata(safe));
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
    } catch (org.apache.kafka.common.errors.TimeoutException e) {
      // the broker is away (restart, outage): the rows are in ClickHouse, the offsets stay
      // uncommitted and the next commit carries them; a crash meanwhile re-reads them, and the
      // replay is idempotent (batch identity, natural keys)
      commitTimeouts++;
      log.warn(
          "Offset commit timed out ({} so far); it is retried with the next commit: {}",
          commitTimeouts,
          e.toString());
    }
  }

  /**
   * Forgets every buffered row and moves the partitions still assigned back to their last committed
   * offset (or the first offset read, if none), so they are read again. Used when partitions are
   * revoked or lost while ClickHouse cannot take the buffers.
   */
  private void discardAndRewind(Collection<TopicPartition> gone) {
    Set<TopicPartition> keep = new HashSet<>(consumer.assignment());
    keep.removeAll(gone);
    int dropped = bufferedRows();
    for (Loader<?> l : byTopic.values()) {
      l.discard();
    }
    for (TopicPartition tp : keep) {
      Long to = committed.containsKey(tp) ? committed.get(tp) : firstSeen.get(tp);
      if (to != null) {
        consumer.seek(tp, to);
      }
    }
    firstSeen.clear();
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
    for (Loader<?> l : byTopic.values()) {
      l.abortStream(); // the server rejects an aborted body (it ends inside a row)
    }
    encoder.shutdownNow();
    inserter.shutdownNow();
    streamers.shutdownNow();
    try {
      consumer.close();
    } finally {
      deadLetters.close();
      byTopic.values().forEach(l -> l.values.close());
    }
  }

  /**
   * One table: its deserializer, the buffer being filled, the batch being inserted ({@code
   * sending}, with the positions it covers) and counters.
   */
  private final class Loader<V extends SpecificRecord> {
    final SinkTable table;
    final RowMapping<V> mapping;
    final String qualified;
    final RecordDecoder<V> values;
    // Avro bytes straight to RowBinary for an exactly matching writer schema (null: none)
    final io.specwatch.sink.rows.RowTranscoder transcoder;
    TableBuffer<V> buffer;
    TableBuffer<V> spare;
    TableBuffer<V> sending;
    CompletableFuture<Void> inFlight;
    // the upload of `buffer` while it fills (null: not streamed); completes once the server
    // acknowledged the whole body, which it can only have after handOff finished the body
    CompletableFuture<Long> bufferStream;
    Map<TopicPartition, Long> sendingUpTo = Map.of();
    final Map<TopicPartition, Long> acked = new HashMap<>();
    final AtomicLong rows = new AtomicLong();
    final AtomicLong batches = new AtomicLong();
    long lastHandOffNanos = System.nanoTime() - config.flushInterval().toNanos();
    // the previous batch was handed off full: a caught-up poll now sees the tail of a catch-up
    boolean lastHandOffFull;

    Loader(SinkTable table, RowMapping<V> mapping) {
      this.table = table;
      this.mapping = mapping;
      this.qualified = config.clickhouse().database() + "." + table.table();
      this.values = new RecordDecoder<>(mapping.type(), config.serdeConfig());
      this.transcoder =
          config.insertFormat() == InsertFormat.ROW_BINARY
              ? io.specwatch.sink.rows.RowTranscoder.forTable(table.table())
              : null;
      this.buffer = new TableBuffer<>(table, mapping, config.insertFormat(), millis);
      this.spare = new TableBuffer<>(table, mapping, config.insertFormat(), millis);
    }

    /**
     * Full, or its first row is {@code flushInterval} old, or the last poll found nothing new
     * (caught up: waiting longer only delays these rows) and either the previous batch left at
     * least {@code flushInterval} ago or it left full (this is the tail of a catch-up: it goes now
     * instead of waiting out the interval). So a table gets at most one time-triggered insert per
     * {@code flushInterval}; only full batches, each followed by at most one tail, come faster.
     */
    boolean due() {
      long interval = config.flushInterval().toNanos();
      return full()
          || buffer.ageNanos() >= interval
          || (caughtUp && (lastHandOffFull || System.nanoTime() - lastHandOffNanos >= interval));
    }

    boolean full() {
      return buffer.rows() >= config.batchSize() || buffer.bytes() >= SinkConfig.MAX_BATCH_BYTES;
    }

    int pendingRows() {
      return buffer.rows() + (sending == null ? 0 : sending.rows());
    }

    /** Detaches the filling buffer and starts its insert on the insert thread. */
    void handOff() {
      Map<TopicPartition, Long> upTo = new HashMap<>();
      for (TopicPartition tp : consumer.assignment()) {
        if (tp.topic().equals(buffer.origin(0).topic())) {
          upTo.put(tp, encodedPosition(tp));
        }
      }
      lastHandOffFull = full();
      sending = buffer;
      sendingUpTo = upTo;
      lastHandOffNanos = System.nanoTime();
      buffer = spare;
      spare = null;
      TableBuffer<V> batch = sending;
      CompletableFuture<Long> stream = bufferStream;
      bufferStream = null;
      long handedOff = System.nanoTime();
      if (stream != null) {
        batch.publish();
        batch.stream().finish();
      }
      inFlight =
          CompletableFuture.runAsync(
              () -> {
                if (stream == null || !streamed(batch, stream, handedOff)) {
                  insertAll(batch);
                }
              },
              inserter);
    }

    /**
     * Starts uploading the filling buffer (the encode thread publishes its rows as they come), if
     * inserts are streamed, the buffer has rows and no upload yet, and ClickHouse is not failing.
     * Main thread, while no encode runs.
     */
    void maybeStream() {
      if (!streaming || paused || buffer.isEmpty() || buffer.stream() != null) {
        return;
      }
      StreamedBody body = new StreamedBody();
      TableBuffer<V> filling = buffer;
      filling.streamTo(body);
      bufferStream =
          CompletableFuture.supplyAsync(
              () ->
                  sql.insert(
                      qualified,
                      filling.columns(),
                      filling.format().clickHouseFormat(),
                      body,
                      Optional.empty()),
              streamers);
    }

    /** Ends the filling buffer's upload unfinished (the server rejects it); no-op without one. */
    void abortStream() {
      CompletableFuture<Long> stream = bufferStream;
      bufferStream = null;
      if (stream != null) {
        buffer.stream().abort();
      }
    }

    /**
     * Waits for the streamed upload of a finished batch: true once ClickHouse acknowledged it
     * (counted like any insert); false when it failed, and the caller inserts the batch again as a
     * whole (splitting around bad rows, classifying the error).
     */
    private boolean streamed(TableBuffer<V> batch, CompletableFuture<Long> stream, long since) {
      int n = batch.rows();
      try {
        stream.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClickHouseFailure(
            "interrupted while waiting for an insert", ClickHouseFailure.NO_SERVER_CODE, e);
      } catch (ExecutionException e) {
        log.info(
            "Streamed insert of {} rows into {} failed, sending the batch again: {}",
            n,
            qualified,
            e.getCause().toString());
        return false;
      }
      long nanos = System.nanoTime() - since;
      rows.addAndGet(n);
      batches.incrementAndGet();
      listener.inserted(table.table(), n, nanos);
      if (log.isDebugEnabled()) {
        log.debug(
            "Inserted {} rows ({}, streamed) {} ms after the batch closed",
            n,
            batch.batchId(0, n),
            nanos / 1_000_000);
      }
      return true;
    }

    /**
     * Collects the insert in flight if it finished (or waits for it when {@code wait}): on success
     * its positions become committable; on failure the batch stays as {@code sending} (retried on
     * this thread) and the failure is thrown.
     */
    void reap(boolean wait) {
      if (inFlight == null || (!wait && !inFlight.isDone())) {
        return;
      }
      CompletableFuture<Void> done = inFlight;
      inFlight = null;
      try {
        done.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ClickHouseFailure(
            "interrupted while waiting for an insert", ClickHouseFailure.NO_SERVER_CODE, e);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof ClickHouseFailure f) {
          throw f;
        }
        throw new IllegalStateException("insert into " + qualified + " failed", e.getCause());
      }
      acked.putAll(sendingUpTo);
      recycle();
    }

    /**
     * Inserts on this thread whatever is pending (after a failure): the failed batch, then the
     * buffer.
     */
    void insertPendingNow() {
      if (inFlight != null) {
        try {
          reap(true);
        } catch (ClickHouseFailure f) {
          if (!f.isRetriable()) {
            throw f;
          }
          // fall through: sending is retried below
        }
      }
      if (sending != null) {
        insertAll(sending);
        acked.putAll(sendingUpTo);
        recycle();
      }
      if (!buffer.isEmpty()) {
        CompletableFuture<Long> stream = bufferStream;
        bufferStream = null;
        if (stream != null) {
          buffer.publish();
          buffer.stream().finish();
        }
        if (stream == null || !streamed(buffer, stream, System.nanoTime())) {
          insertAll(buffer);
        }
        buffer.clear();
      }
    }

    private void recycle() {
      sending.clear();
      spare = sending;
      sending = null;
      sendingUpTo = Map.of();
    }

    void discard() {
      abortStream();
      if (inFlight != null) {
        try {
          inFlight.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
          // dropped anyway
        }
        inFlight = null;
      }
      if (sending != null) {
        recycle();
      }
      buffer.clear();
      acked.clear();
    }

    void accept(ConsumerRecord<String, byte[]> record, Instant insertedAt) {
      TableBuffer.Origin origin =
          new TableBuffer.Origin(
              record.topic(), record.partition(), record.offset(), record.key(), record.value());
      if (record.value() == null) {
        if (table == SinkTable.RUN_CONTEXTS) {
          return; // a compacted topic's tombstone: nothing to load
        }
        if (replay != null && !replay.select(record, null)) {
          return;
        }
        deadLetter(
            DeadLetters.STAGE_DECODE,
            origin,
            IllegalArgumentException.class.getName(),
            "null value (tombstone) on " + record.topic(),
            Map.of());
        return;
      }
      if (replay == null // a replay reads each value's event time first
          && transcoder != null
          && record.value().length >= io.specwatch.serde.WireFormat.HEADER_SIZE
          && values.transcodable(record.topic(), record.value(), transcoder)
          && buffer.addTranscoded(transcoder, record, insertedAt)) {
        return;
      }
      V value;
      try {
        value = values.decode(record.topic(), record.value());
      } catch (RuntimeException e) {
        if (replay != null && !replay.select(record, null)) {
          return;
        }
        deadLetter(
            DeadLetters.STAGE_DECODE, origin, e.getClass().getName(), e.getMessage(), Map.of());
        return;
      }
      if (replay != null && !replay.select(record, mapping.eventTime(value))) {
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

    /** Inserts a whole batch, splitting around bad rows. Runs on the insert thread or this one. */
    void insertAll(TableBuffer<V> batch) {
      insertRange(batch, 0, batch.rows());
    }

    private void insertRange(TableBuffer<V> buffer, int from, int to) {
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
        insertRange(buffer, from, mid);
        insertRange(buffer, mid, to);
        return;
      }
      long nanos = System.nanoTime() - start;
      rows.addAndGet(to - from);
      batches.incrementAndGet();
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
      deadLettered.incrementAndGet();
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
      awaitEncoded(); // everything polled so far is in the buffers: positions are exact
      encodedUpTo = null;
      if (partitions.isEmpty()) {
        return;
      }
      listener.revoked(partitions);
      try {
        for (Loader<?> l : byTopic.values()) {
          l.insertPendingNow();
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
        firstSeen.remove(tp);
        byTopic.get(tp.topic()).acked.remove(tp);
      }
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      awaitEncodedQuietly();
      discardAndRewind(partitions);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      awaitEncoded();
      encodedUpTo = null;
      lastActivityNanos = System.nanoTime();
      if (replay != null && !partitions.isEmpty()) {
        replay.seek(consumer, partitions);
      }
      if (paused) {
        consumer.pause(partitions);
      }
      log.info("Sink assigned {}", partitions);
      listener.assigned(partitions);
    }
  }
}
