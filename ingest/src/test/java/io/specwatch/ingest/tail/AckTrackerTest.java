package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;

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
    assertThat(t.committedOffset()).isEqualTo(100);
    assertThat(t.committedLines()).isEqualTo(4);
    assertThat(released).hasValue(0);
    assertThat(t.idle()).isFalse();

    t.done(l5);
    assertThat(t.committedOffset()).isEqualTo(140);
    assertThat(t.committedLines()).isEqualTo(7);
    assertThat(released).hasValue(3);
    assertThat(t.idle()).isTrue();
  }
}
