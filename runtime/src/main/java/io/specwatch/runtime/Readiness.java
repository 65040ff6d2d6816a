package io.specwatch.runtime;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What an app reports about itself to {@link HealthServer}: ready or not (with a reason), and live
 * unless it reached a fatal state. Thread-safe; a fatal state is final.
 */
public final class Readiness {

  /**
   * A snapshot of the app's state.
   *
   * @param live false once the app is in a fatal state (an orchestrator should restart it)
   * @param ready true while the app serves (e.g. Streams RUNNING, sink partitions assigned)
   * @param reason why the app is not ready or not live; "ok" when it is both
   */
  public record Status(boolean live, boolean ready, String reason) {
    public Status {
      Objects.requireNonNull(reason, "reason");
    }
  }

  private final AtomicReference<Status> status =
      new AtomicReference<>(new Status(true, false, "starting"));

  /** The current status. */
  public Status status() {
    return status.get();
  }

  /** The app serves now. Ignored after {@link #fatal}. */
  public void ready() {
    status.updateAndGet(s -> s.live() ? new Status(true, true, "ok") : s);
  }

  /** The app does not serve now, for {@code reason}, but is expected to recover. */
  public void notReady(String reason) {
    Objects.requireNonNull(reason, "reason");
    status.updateAndGet(s -> s.live() ? new Status(true, false, reason) : s);
  }

  /** The app failed for good: not live and not ready from now on. */
  public void fatal(String reason) {
    Objects.requireNonNull(reason, "reason");
    status.updateAndGet(s -> s.live() ? new Status(false, false, reason) : s);
  }
}
