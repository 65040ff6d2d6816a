package io.specwatch.sink;

import io.specwatch.sink.clickhouse.ClickHouseError;
import io.specwatch.sink.clickhouse.ClickHouseFailure;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table's inserts into ClickHouse, for its {@link TableLoader}: a closed batch inserted whole
 * (split in halves around rows the server rejects as bad data, each of those dead-lettered alone),
 * or the streamed upload of a filling batch ({@link StreamedBody}) started and collected; rows the
 * table cannot take go to the dead-letter topic. Counts what ClickHouse acknowledged and what was
 * dead-lettered. Runs on the insert thread, a stream thread, the encode thread ({@link
 * #deadLetter}) or the polling thread (retries); the counters are atomic.
 */
final class TableInserter<V extends SpecificRecord> {

  // the sink's logger, as before this class had its own file: the log lines read the same
  private static final Logger log = LoggerFactory.getLogger(ClickHouseSink.class);

  private final SinkTable table;
  private final String qualified;
  private final ClickHouseSql sql;
  private final boolean dedupTokens;
  private final SinkListener listener;
  private final Supplier<DeadLetters> deadLetters;
  // one streamed upload per table at a time (the filling buffer's)
  private final ExecutorService streamers;
  private final AtomicLong rows = new AtomicLong();
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong deadLettered = new AtomicLong();

  /** {@code qualified}: {@code database.table}. */
  TableInserter(SinkTable table, String qualified, TableLoader.Shared shared) {
    this.table = table;
    this.qualified = qualified;
    this.sql = shared.sql();
    this.dedupTokens = shared.dedupTokens();
    this.listener = shared.listener();
    this.deadLetters = shared.deadLetters();
    this.streamers = shared.streamers();
  }

  /** Rows ClickHouse acknowledged. */
  long rows() {
    return rows.get();
  }

  /** Inserts ClickHouse acknowledged. */
  long batches() {
    return batches.get();
  }

  /** Records sent to the dead-letter topic. */
  long deadLettered() {
    return deadLettered.get();
  }

  /**
   * Starts the insert of {@code filling}'s streamed body on a stream thread (no dedup token: its
   * offset ranges are not known yet); completes once ClickHouse acknowledged the whole body.
   */
  CompletableFuture<Long> upload(TableBuffer<V> filling, StreamedBody body) {
    return CompletableFuture.supplyAsync(
        () ->
            sql.insert(
                qualified,
                filling.columns(),
                filling.format().clickHouseFormat(),
                body,
                Optional.empty()),
        streamers);
  }

  /**
   * Waits for the streamed upload of a finished batch: true once ClickHouse acknowledged it
   * (counted like any insert); false when it failed, and the caller inserts the batch again as a
   * whole (splitting around bad rows, classifying the error).
   */
  boolean streamed(TableBuffer<V> batch, CompletableFuture<Long> stream, long since) {
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
   * Inserts a whole batch, splitting around bad rows. Runs on the insert thread or the polling
   * thread (a retry).
   */
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

  /** Sends a record the table cannot take to the dead-letter topic ({@link DeadLetters}). */
  void deadLetter(
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
    deadLetters.get().send(stage, origin, errorClass, message, context);
    deadLettered.incrementAndGet();
    listener.deadLettered(table.table(), stage);
  }
}
