package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AckTrackerTest {

  @Test
  void commitsOnlyTheContiguousAcknowledgedPrefix() {
    AtomicInteger released = new AtomicInteger();
    AckTracker t = new AckTracker(100, 4, released::incrementAndGet);
    AckTracker.Entry l5 = t.add(110, 5);
    AckTracker.Entry l6 = t.add(125, 6);
    AckTracker.Entry l7 = t.add(140, 7);

    t.done(l6);
    t.done(l7);
    assertThat(t.committed()).isEqualTo(new AckTracker.Committed(100, 4));
    assertThat(released).hasValue(0);
    assertThat(t.idle()).isFalse();

    t.done(l5);
    assertThat(t.committed()).isEqualTo(new AckTracker.Committed(140, 7));
    assertThat(released).hasValue(3);
    assertThat(t.idle()).isTrue();
  }

  /**
   * The checkpoint writer reads the committed position while acks arrive on another thread. Every
   * line here is 10 bytes, so a consistent pair has offset == 10 × lines; reading offset and line
   * count in two steps (as the Tailer once did) tore the pair and a kill -9 resume numbered lines
   * one too high (TailKill9IT, CI of 2026-12-02).
   */
  @Test
  void theCommittedPairIsNeverTornByConcurrentAcks() throws Exception {
    int lines = 300_000;
    AckTracker t = new AckTracker(0, 0, () -> {});
    AtomicBoolean acking = new AtomicBoolean(true);
    CompletableFuture<Void> acks =
        CompletableFuture.runAsync(
            () -> {
              for (int n = 1; n <= lines; n++) {
                t.done(t.add(10L * n, n));
              }
              acking.set(false);
            });
    long reads = 0;
    while (acking.get()) {
      AckTracker.Committed c = t.committed();
      assertThat(c.offset()).as("read %d", reads).isEqualTo(10 * c.lines());
      reads++;
    }
    acks.get(60, TimeUnit.SECONDS);
    assertThat(t.committed()).isEqualTo(new AckTracker.Committed(10L * lines, lines));
    assertThat(reads).as("positions read while acks arrived").isPositive();
  }
}
