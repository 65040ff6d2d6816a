package io.specwatch.ingest.normalise;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Wall time since the previous line of the same rank, within one source. */
final class IntervalTracker {

  private final Map<String, Instant> last = new HashMap<>();

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
