package io.specwatch.ingest.normalise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

class IntervalTrackerTest {

  @Test
  void secondResolutionLinesAt488msSpacingGive12point2msPerPass() {
    Instant start = Instant.parse("2026-11-30T10:00:00Z");
    double ms = 0;
    long passes = 0;
    // weight each cycle value by the passes it covers: total ms / total passes
    IntervalTracker t2 = new IntervalTracker();
    long carried = 0;
    for (int i = 0; i < 123; i++) {
      Instant printed = start.plusMillis(i * 488L).truncatedTo(ChronoUnit.SECONDS);
      Double c = t2.cycleMs("tp0", printed, 40);
      if (i == 0) {
        assertNull(c);
        continue;
      }
      carried += 40;
      if (c != null) {
        ms += c * carried;
        passes += carried;
        carried = 0;
      }
    }
    assertEquals(12.2, ms / passes, 0.3);
  }

  @Test
  void timeGoingBackwardsRestartsWithoutInterval() {
    IntervalTracker t = new IntervalTracker();
    assertNull(t.cycleMs("r", Instant.parse("2026-11-30T10:00:05Z"), 40));
    assertEquals(25.0, t.cycleMs("r", Instant.parse("2026-11-30T10:00:06Z"), 40));
    assertNull(t.cycleMs("r", Instant.parse("2026-11-30T10:00:01Z"), 40));
    assertNull(t.cycleMs("r", Instant.parse("2026-11-30T10:00:01Z"), 40));
    assertEquals(12.5, t.cycleMs("r", Instant.parse("2026-11-30T10:00:02Z"), 40));
  }
}
