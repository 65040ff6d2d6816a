package io.specwatch.ingest.tail;

import java.time.Duration;

/**
 * The stop and crash requests of one {@link Tailer} run, read by its loop, by the producer's
 * delivery callbacks ({@link Delivery}) and by the {@link CheckpointWriter}.
 */
final class StopSignal {

  private volatile boolean stop;
  private volatile boolean crash;

  /** Clean stop: stop reading, flush, write final checkpoints. */
  void stop() {
    stop = true;
  }

  /** Simulated kill -9: stop at once, drop unsent records, write no further checkpoint. */
  void crash() {
    crash = true;
    stop = true;
  }

  boolean stopping() {
    return stop;
  }

  boolean crashed() {
    return crash;
  }

  /** Sleeps for d; an interrupt stops the run (and keeps the thread's interrupt status). */
  void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      stop = true;
    }
  }
}
