package io.specwatch.sink;

import io.specwatch.sink.clickhouse.ClickHouseFailure;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.rows.RowMapping;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One table of {@link ClickHouseSink}: its decoder, the buffer being filled, the batch being
 * inserted ({@code sending}, with the positions it covers) and its inserts ({@link TableInserter},
 * with the counters). {@link #accept} and {@link #publish} run on the encode thread, a handed-off
 * batch's insert on the insert thread, the rest on the polling thread.
 */
final class TableLoader<V extends SpecificRecord> {

  /**
   * What the table loaders of one sink share: the settings, the ClickHouse client and what the
   * server supports, the replay scan (null: the continuous sink), the listener, the dead-letter
   * producer (built after the loaders, hence a supplier) and the insert and stream threads.
   */
  record Shared(
      SinkConfig config,
      ClickHouseSql sql,
      boolean dedupTokens,
      boolean millis,
      boolean streaming,
      ReplayScan replay,
      SinkListener listener,
      Supplier<DeadLetters> deadLetters,
      ExecutorService inserter,
      ExecutorService streamers) {}

  private final SinkConfig config;
  // RowBinary inserts without a dedup token are uploaded while their batch fills (StreamedBody)
  private final boolean streaming;
  private final ReplayScan replay;
  private final ExecutorService insertThread;
  private final SinkTable table;
  private final RowMapping<V> mapping;
  private final String qualified;
  private final RecordDecoder<V> values;
  // Avro bytes straight to RowBinary for an exactly matching writer schema (null: none)
  private final io.specwatch.sink.rows.RowTranscoder transcoder;
  private final TableInserter<V> inserts;
  private TableBuffer<V> buffer;
  private TableBuffer<V> spare;
  private TableBuffer<V> sending;
  private CompletableFuture<Void> inFlight;
  // the upload of `buffer` while it fills (null: not streamed); completes once the server
  // acknowledged the whole body, which it can only have after handOff finished the body
  private CompletableFuture<Long> bufferStream;
  private Map<TopicPartition, Long> sendingUpTo = Map.of();
  private final Map<TopicPartition, Long> acked = new HashMap<>();
  private long lastHandOffNanos;
  // the previous batch was handed off full: a caught-up poll now sees the tail of a catch-up
  private boolean lastHandOffFull;

  TableLoader(SinkTable table, RowMapping<V> mapping, Shared shared) {
    this.config = shared.config();
    this.lastHandOffNanos = System.nanoTime() - config.flushInterval().toNanos();
    this.streaming = shared.streaming();
    this.replay = shared.replay();
    this.insertThread = shared.inserter();
    this.table = table;
    this.mapping = mapping;
    this.qualified = config.clickhouse().database() + "." + table.table();
    this.inserts = new TableInserter<>(table, qualified, shared);
    this.values = new RecordDecoder<>(mapping.type(), config.serdeConfig());
    this.transcoder =
        config.insertFormat() == InsertFormat.ROW_BINARY
            ? io.specwatch.sink.rows.RowTranscoder.forTable(table.table())
            : null;
    this.buffer = new TableBuffer<>(table, mapping, config.insertFormat(), shared.millis());
    this.spare = new TableBuffer<>(table, mapping, config.insertFormat(), shared.millis());
  }

  /** Rows buffered or being inserted, over {@code loaders}. */
  static int pendingRows(Collection<TableLoader<?>> loaders) {
    return loaders.stream().mapToInt(TableLoader::pendingRows).sum();
  }

  SinkTable table() {
    return table;
  }

  /** Its inserts and their counters. */
  TableInserter<V> inserts() {
    return inserts;
  }

  /** Nothing in the filling buffer. */
  boolean bufferEmpty() {
    return buffer.isEmpty();
  }

  /** A batch was handed to the insert thread and not yet collected ({@link #reap}). */
  boolean hasInFlight() {
    return inFlight != null;
  }

  /** A handed-off batch is not yet acknowledged (in flight, or failed and kept for a retry). */
  boolean hasSending() {
    return sending != null;
  }

  /** The position of {@code tp} that acknowledged batches made committable, or null. */
  Long acked(TopicPartition tp) {
    return acked.get(tp);
  }

  /** Forgets {@code tp}'s acknowledged position (the partition moved away). */
  void forget(TopicPartition tp) {
    acked.remove(tp);
  }

  /** Hands the filling buffer's rows to its streamed upload, if any (whole rows only). */
  void publish() {
    buffer.publish();
  }

  /**
   * Full, or its first row is {@code flushInterval} old, or the last poll found nothing new (caught
   * up: waiting longer only delays these rows) and either the previous batch left at least {@code
   * flushInterval} ago or it left full (this is the tail of a catch-up: it goes now instead of
   * waiting out the interval). So a table gets at most one time-triggered insert per {@code
   * flushInterval}; only full batches, each followed by at most one tail, come faster. {@code
   * caughtUp}: the last poll came back empty.
   */
  boolean due(boolean caughtUp) {
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

  /**
   * Detaches the filling buffer and starts its insert on the insert thread. The batch covers, of
   * the consumer's {@code assignment}, the partitions of its topic up to {@code position} (the
   * position the buffers reflect: {@link PollEncoder#position}).
   */
  void handOff(Collection<TopicPartition> assignment, ToLongFunction<TopicPartition> position) {
    Map<TopicPartition, Long> upTo = new HashMap<>();
    for (TopicPartition tp : assignment) {
      if (tp.topic().equals(buffer.origin(0).topic())) {
        upTo.put(tp, position.applyAsLong(tp));
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
              if (stream == null || !inserts.streamed(batch, stream, handedOff)) {
                inserts.insertAll(batch);
              }
            },
            insertThread);
  }

  /**
   * Starts uploading the filling buffer (the encode thread publishes its rows as they come), if
   * inserts are streamed, the buffer has rows and no upload yet, and ClickHouse is not failing.
   * Main thread, while no encode runs. {@code paused}: consumption is paused (ClickHouse failing).
   */
  void maybeStream(boolean paused) {
    if (!streaming || paused || buffer.isEmpty() || buffer.stream() != null) {
      return;
    }
    StreamedBody body = new StreamedBody();
    TableBuffer<V> filling = buffer;
    filling.streamTo(body);
    bufferStream = inserts.upload(filling, body);
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
      inserts.insertAll(sending);
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
      if (stream == null || !inserts.streamed(buffer, stream, System.nanoTime())) {
        inserts.insertAll(buffer);
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
      inserts.deadLetter(
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
      inserts.deadLetter(
          DeadLetters.STAGE_DECODE, origin, e.getClass().getName(), e.getMessage(), Map.of());
      return;
    }
    if (replay != null && !replay.select(record, mapping.eventTime(value))) {
      return;
    }
    try {
      buffer.add(value, record, insertedAt);
    } catch (RuntimeException e) {
      inserts.deadLetter(
          DeadLetters.STAGE_MAP,
          origin,
          e.getClass().getName(),
          e.getMessage(),
          Map.of("table", qualified));
    }
  }

  /** Closes the decoder (its schema registry client). */
  void close() {
    values.close();
  }
}
