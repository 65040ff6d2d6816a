package io.specwatch.sink;

import io.specwatch.sink.clickhouse.ClickHouseFailure;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After every poll, hands the tables' due batches to the insert thread, collects finished inserts
 * and commits what is safe ({@link OffsetCommitter}). A retriable ClickHouse failure pauses every
 * assigned partition (memory stays bounded by what is buffered) and retries the pending batches on
 * the polling thread with {@link Backoff}; the first success resumes consumption, and when the
 * attempts run out, or on a fatal error, the failure is thrown. Used on the polling thread.
 */
final class BatchFlusher {

  // the sink's logger, as before this class had its own file: the log lines read the same
  private static final Logger log = LoggerFactory.getLogger(ClickHouseSink.class);

  private final Consumer<String, byte[]> consumer;
  private final Backoff retry;
  private final SinkListener listener;
  private final Collection<TableLoader<?>> loaders;
  private final OffsetCommitter offsets;
  private final PollEncoder encoded;

  private boolean caughtUp;
  private int failedAttempts;
  private long nextAttemptNanos;
  private boolean paused;
  private long retries;

  BatchFlusher(
      Consumer<String, byte[]> consumer,
      Backoff retry,
      SinkListener listener,
      Collection<TableLoader<?>> loaders,
      OffsetCommitter offsets,
      PollEncoder encoded) {
    this.consumer = consumer;
    this.retry = retry;
    this.listener = listener;
    this.loaders = loaders;
    this.offsets = offsets;
    this.encoded = encoded;
  }

  /** Whether the last poll came back empty (caught up: see {@link TableLoader#due}). */
  void caughtUp(boolean caughtUp) {
    this.caughtUp = caughtUp;
  }

  /** Consumption is paused because ClickHouse failed retriably. */
  boolean paused() {
    return paused;
  }

  /** Insert attempts that failed retriably. */
  long retries() {
    return retries;
  }

  /**
   * Hands the buffers that are due to the insert thread (all of them, and waits, when {@code
   * force}), collects finished inserts, then commits what is safe. While paused after a retriable
   * failure, retries the pending batches on this thread once the backoff has passed. A retriable
   * failure pauses consumption and schedules the next attempt; a fatal one throws.
   */
  void flushDue(boolean force) {
    if (paused) {
      if (System.nanoTime() < nextAttemptNanos && !force) {
        return;
      }
      try {
        for (TableLoader<?> l : loaders) {
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
      offsets.commitSafe();
      return;
    }
    ClickHouseFailure failure = null;
    for (TableLoader<?> l : loaders) {
      try {
        l.reap(force);
        if (!l.bufferEmpty() && (force || l.due(caughtUp))) {
          if (l.hasInFlight() && (force || l.full())) {
            l.reap(true); // backpressure: a full buffer waits for the batch in flight
          }
          if (!l.hasInFlight() && !l.hasSending()) {
            l.handOff(consumer.assignment(), encoded::position);
            if (force) {
              l.reap(true);
            }
          }
        }
        if (!force) {
          l.maybeStream(paused);
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
    offsets.commitSafe();
  }

  private void onRetriable(ClickHouseFailure f) {
    if (!f.isRetriable()) {
      throw f;
    }
    failedAttempts++;
    retries++;
    if (failedAttempts >= retry.maxAttempts()) {
      log.error(
          "ClickHouse still failing after {} attempts; giving up, offsets of {} buffered rows not"
              + " committed",
          failedAttempts,
          TableLoader.pendingRows(loaders),
          f);
      throw f;
    }
    Duration wait = retry.delay(failedAttempts);
    nextAttemptNanos = System.nanoTime() + wait.toNanos();
    if (!paused) {
      for (TableLoader<?> l : loaders) {
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
        TableLoader.pendingRows(loaders),
        wait,
        f.getMessage());
  }

  /** Inserts and commits everything buffered before the sink returns. */
  void finalFlush() {
    try {
      flushDue(true);
      if (paused) {
        log.warn(
            "Stopping while ClickHouse is unavailable: {} rows not inserted and their offsets not"
                + " committed; the next run reads them again",
            TableLoader.pendingRows(loaders));
      }
    } catch (ClickHouseFailure f) {
      log.warn("Final insert failed; offsets of the buffered rows not committed", f);
      throw f;
    }
  }

  /**
   * The buffered rows were dropped and {@code keep} rewound (a rebalance during an outage): if
   * paused, resumes {@code keep} and starts counting attempts afresh.
   */
  void resumeRewound(Set<TopicPartition> keep) {
    if (paused) {
      consumer.resume(keep);
      paused = false;
      failedAttempts = 0;
    }
  }
}
