package io.specwatch.e2e.faults;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * Polling a condition of the fault scenarios until a deadline: an {@link AssertionError} of the
 * check fails at once (a dead app), another exception counts as "not yet" and is the cause of the
 * timeout's error, whose message ends with {@code state} (what a failure needs to show).
 */
final class Await {

  private Await() {}

  /** A condition that may throw while the pipeline is not there yet. */
  interface Check {
    boolean ok() throws Exception;
  }

  static void until(String what, Duration timeout, Check check) {
    until(what, timeout, check, () -> "");
  }

  /** Polls every {@code pollMillis} ms (for a moment that must not be missed). */
  static void until(String what, Duration timeout, Check check, long pollMillis) {
    until(what, timeout, check, () -> "", pollMillis);
  }

  static void until(String what, Duration timeout, Check check, Callable<String> state) {
    until(what, timeout, check, state, 500);
  }

  static void until(
      String what, Duration timeout, Check check, Callable<String> state, long pollMillis) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Throwable last = null;
    while (System.nanoTime() < deadline) {
      try {
        if (check.ok()) {
          return;
        }
        last = null;
      } catch (AssertionError e) {
        throw e;
      } catch (Exception e) {
        last = e;
      }
      try {
        Thread.sleep(pollMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    String detail;
    try {
      detail = state.call();
    } catch (Exception e) {
      detail = "(state unavailable: " + e + ")";
    }
    throw new AssertionError(
        "timed out after " + timeout + " waiting for: " + what + "\n" + detail, last);
  }
}
