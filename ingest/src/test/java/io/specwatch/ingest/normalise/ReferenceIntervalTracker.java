package io.specwatch.ingest.normalise;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * IntervalTracker before it kept one state per rank (2026-12-02), verbatim: the property test's
 * oracle.
 */
final class ReferenceIntervalTracker {

  private final Map<String, Instant> last = new HashMap<>();
  private final Map<String, Instant> lastChange = new HashMap<>();
  private final Map<String, Long> pendingPasses = new HashMap<>();

  /**
   * Ms per decode pass for second-resolution logs: passes of lines whose timestamp did not advance
   * are carried to the next line whose timestamp advanced; that line gets elapsed ms since the last
   * timestamp change divided by all passes accumulated since then. Null for the first line of a
   * rank (or after time went backwards, e.g. a restart) and for lines whose timestamp did not move.
   */
  Double cycleMs(String rankKey, Instant time, long passes) {
    if (time == null || passes <= 0) {
      return null;
    }
    Instant changed = lastChange.get(rankKey);
    if (changed == null || time.isBefore(changed)) {
      lastChange.put(rankKey, time);
      pendingPasses.put(rankKey, 0L);
      return null;
    }
    long pending = pendingPasses.getOrDefault(rankKey, 0L) + passes;
    if (!time.isAfter(changed)) {
      pendingPasses.put(rankKey, pending);
      return null;
    }
    lastChange.put(rankKey, time);
    pendingPasses.put(rankKey, 0L);
    return (double) (time.toEpochMilli() - changed.toEpochMilli()) / pending;
  }

  /** Ms since the previous timestamped line of this rank, or null for the first one. */
  Double next(String rankKey, Instant time) {
    if (time == null) {
      return null;
    }
    Instant previous = last.put(rankKey, time);
    if (previous == null || time.isBefore(previous)) {
      return null;
    }
    return (double) (time.toEpochMilli() - previous.toEpochMilli());
  }
}
