package io.specwatch.sink;

import io.specwatch.sink.clickhouse.ClickHouseError;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.rows.RowMapping;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ClickHouse loader: one consumer ({@code read_committed}, manual commits) over the topics of
 * the configured tables, one buffer per table, inserts in batches.
 *
 * <ul>
 *   <li>A table's buffer ({@link TableLoader}) is inserted when it holds {@code batchSize} rows or
 *       {@link SinkConfig#MAX_BATCH_BYTES}, or when its first row is {@code flushInterval} old, or
 *       when a poll came back empty (caught up) and the table's previous batch left at least {@code
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
 *       poll runs ({@link PollEncoder}). The loop waits for them before it flushes or commits, and
 *       uses the positions from before the newer poll's records, so a position never covers a
 *       record that is not in a buffer yet. Rebalance callbacks ({@link SinkRebalanceListener})
 *       wait for the encode thread first.
 *   <li>Every partition feeds exactly one table. When a batch is handed to the insert thread the
 *       consumer positions of the table's partitions are noted (every polled record of them is in
 *       that batch); once ClickHouse acknowledged it, those positions are committed. So offsets are
 *       committed only after every batch holding their records was acknowledged and every dead
 *       letter written ({@link OffsetCommitter}).
 *   <li>A retriable ClickHouse error (no server, timeouts, overload; {@link ClickHouseError})
 *       pauses all assigned partitions ({@link BatchFlusher}), so memory stays bounded by what is
 *       buffered, and retries the pending inserts with exponential backoff while polling keeps the
 *       group membership. When a retry succeeds consumption resumes; when {@code retry.maxAttempts}
 *       run out {@link #run()} throws with nothing past the last acknowledged batch committed.
 *   <li>A bad-data error splits the batch in halves until the rejected rows are alone; each goes to
 *       the dead-letter topic ({@code sink.insert}; {@link TableInserter}) and its batch-mates are
 *       inserted. A value the table cannot hold is dead-lettered before it is buffered ({@code
 *       sink.map}), an undecodable one likewise ({@code sink.decode}). A fatal error (unknown
 *       table, credentials) throws.
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
  private final KafkaConsumer<String, byte[]> consumer;
  private final Map<String, TableLoader<?>> byTopic = new LinkedHashMap<>();
  private final DeadLetters deadLetters;
  private final SinkListener listener;
  private final AtomicBoolean stopping = new AtomicBoolean();
  // set by close(): the consumer's close then revokes every partition, and the listener must not
  // insert or commit anything any more (see close())
  private volatile boolean closing;

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
  // decodes and encodes the polled records on sink-encode; the positions the buffers reflect
  private final PollEncoder encoded;
  private final OffsetCommitter offsets;
  // hands batches off, commits, pauses and retries while ClickHouse fails
  private final BatchFlusher flusher;

  /** Records of the last poll admitted but not yet handed to {@code sink-encode}. */
  private List<ConsumerRecord<String, byte[]>> unencoded;

  private Instant unencodedAt;

  private long recordsPolled;
  // sink replay: the partitions' spans and the per-record selection (null: the continuous sink)
  private final ReplayScan replay;
  private long lastActivityNanos;

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
    this.listener = listener;
    String version = sql.serverVersion();
    boolean dedupTokens = ClickHouseSql.supportsDedupToken(version);
    boolean millis = sql.dialect().isModern();
    // RowBinary inserts without a dedup token are uploaded while their batch fills (StreamedBody)
    boolean streaming = !dedupTokens && config.insertFormat() == InsertFormat.ROW_BINARY;
    TableLoader.Shared shared =
        new TableLoader.Shared(
            config,
            sql,
            dedupTokens,
            millis,
            streaming,
            this.replay,
            listener,
            this::deadLetters, // built below, after the loaders and the consumer
            inserter,
            streamers);
    for (Map.Entry<SinkTable, String> e : config.topics().entrySet()) {
      byTopic.put(e.getValue(), loader(e.getKey(), e.getKey().mapping(), shared));
    }
    this.consumer = new KafkaConsumer<>(config.consumerProperties());
    this.deadLetters = new DeadLetters(config);
    this.encoded = new PollEncoder(consumer, byTopic);
    this.offsets = new OffsetCommitter(consumer, byTopic, deadLetters, encoded);
    this.flusher =
        new BatchFlusher(consumer, config.retry(), listener, byTopic.values(), offsets, encoded);
    log.info(
        "ClickHouse {}: insert_deduplication_token {}; inserts {}",
        version,
        dedupTokens ? "sent with every insert" : "not supported, relying on ReplacingMergeTree",
        streaming
            ? "uploaded while their batch fills"
            : "sent once their batch is complete (a dedup token or JSONEachRow)");
  }

  /** The dead-letter producer, for the loaders (they are built before it). */
  private DeadLetters deadLetters() {
    return deadLetters;
  }

  private static <V extends SpecificRecord> TableLoader<V> loader(
      SinkTable table, RowMapping<V> mapping, TableLoader.Shared shared) {
    return new TableLoader<>(table, mapping, shared);
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
    consumer.subscribe(
        List.copyOf(byTopic.keySet()),
        new SinkRebalanceListener(
            consumer,
            byTopic,
            encoded,
            offsets,
            flusher,
            replay,
            listener,
            () -> lastActivityNanos = System.nanoTime(),
            () -> closing));
    lastActivityNanos = System.nanoTime();
    Duration poll =
        config.flushInterval().compareTo(MAX_POLL) < 0 ? config.flushInterval() : MAX_POLL;
    try {
      while (!stopping.get()) {
        ConsumerRecords<String, byte[]> records = consumer.poll(poll);
        flusher.caughtUp(records.isEmpty());
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
        encoded.await();
        encoded.polled(records);
        flusher.flushDue(false);
        // no encode runs now: the buffers hold still
        listener.buffered(bufferedRows(), flusher.paused());
        if (unencoded != null) {
          List<ConsumerRecord<String, byte[]>> chunk = unencoded;
          Instant at = unencodedAt;
          if (replay != null) {
            encoded.encode(chunk, at); // replay: its end check reads positions, keep it in step
            encoded.allEncoded();
          } else {
            encoded.submit(chunk, at);
          }
          unencoded = null;
        }
        if (replayDone()) {
          flusher.flushDue(true);
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
    encoded.await(); // a failed encode throws here: nothing of it committed
    if (unencoded != null) { // stopped between a poll and its hand-off: the position covers them
      encoded.encode(unencoded, unencodedAt);
      unencoded = null;
    }
    encoded.allEncoded();
    flusher.finalFlush();
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
    long deadLettered = 0;
    Map<String, Long> byTable = new LinkedHashMap<>();
    for (TableLoader<?> l : byTopic.values()) {
      rows += l.inserts().rows();
      batches += l.inserts().batches();
      deadLettered += l.inserts().deadLettered();
      byTable.put(l.table().table(), l.inserts().rows());
    }
    return new SinkStats(
        recordsPolled, rows, batches, deadLettered, offsets.commits(), flusher.retries(), byTable);
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
    return TableLoader.pendingRows(byTopic.values());
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
    offsets.read(record);
    return true;
  }

  /** Replay: every assigned partition at its stop offset, nothing buffered or in flight. */
  private boolean replayDone() {
    if (replay == null || replay.stops().isEmpty() || flusher.paused()) {
      return false;
    }
    for (Map.Entry<TopicPartition, Long> e : replay.stops().entrySet()) {
      if (consumer.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return bufferedRows() == 0 && byTopic.values().stream().noneMatch(TableLoader::hasInFlight);
  }

  private boolean idleLongEnough() {
    return config
        .exitWhenIdle()
        .map(
            idle ->
                !flusher.paused()
                    && encoded.idle()
                    && bufferedRows() == 0
                    && byTopic.values().stream().noneMatch(TableLoader::hasInFlight)
                    && System.nanoTime() - lastActivityNanos >= idle.toNanos())
        .orElse(false);
  }

  /**
   * Releases the consumer, producer and threads without inserting or committing anything more.
   * {@link #run()} commits what it inserted before it returns; after a run that failed (a record
   * that could not be decoded nor dead-lettered, a dead letter not delivered, an insert that failed
   * for good) records polled past the failure are in no buffer while the consumer's position is
   * past them, so a commit at close would skip them for good. The consumer's close revokes every
   * partition; the rebalance listener does nothing then, so those records are read again by the
   * next run.
   */
  @Override
  public void close() {
    closing = true;
    for (TableLoader<?> l : byTopic.values()) {
      l.abortStream(); // the server rejects an aborted body (it ends inside a row)
    }
    encoded.shutdownNow();
    inserter.shutdownNow();
    streamers.shutdownNow();
    try {
      consumer.close();
    } finally {
      deadLetters.close();
      byTopic.values().forEach(TableLoader::close);
    }
  }
}
