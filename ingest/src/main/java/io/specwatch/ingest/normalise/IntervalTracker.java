package io.specwatch.ingest.normalise;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Wall time since the previous line of the same rank, within one source. One state object per rank
 * key, so a line costs one map lookup (the normaliser's sequential stage calls both methods for
 * every SGLang line; three maps meant five lookups and a boxed count per line).
 */
final class IntervalTracker {

  /** What one rank key has seen; the fields of {@link #next} and {@link #cycleMs} are separate. */
  private static final class Rank {
    Instant last; // previous timestamp given to next()
    Instant lastChange; // timestamp of the last cycleMs() line whose time advanced (or restarted)
    long pendingPasses; // passes carried since lastChange
  }

  private final Map<String, Rank> ranks = new HashMap<>();

  // the rank of the last lookup: a log is mostly one rank's lines (one file per rank, or runs of
  // lines of one rank), and each line asks twice (next, then cycleMs)
  private String lastKey;
  private Rank lastRank;

  private Rank rank(String rankKey) {
    Rank r = lastRank;
    if (r != null && (rankKey == lastKey || (rankKey != null && rankKey.equals(lastKey)))) {
      return r;
    }
    r = ranks.get(rankKey);
    if (r == null) {
      r = new Rank();
      ranks.put(rankKey, r);
    }
    lastKey = rankKey;
    lastRank = r;
    return r;
  }

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
    Rank r = rank(rankKey);
    Instant changed = r.lastChange;
    if (changed == null || time.isBefore(changed)) {
      r.lastChange = time;
      r.pendingPasses = 0;
      return null;
    }
    long pending = r.pendingPasses + passes;
    if (!time.isAfter(changed)) {
      r.pendingPasses = pending;
      return null;
    }
    r.lastChange = time;
    r.pendingPasses = 0;
    return (double) (time.toEpochMilli() - changed.toEpochMilli()) / pending;
  }

  /** Ms since the previous timestamped line of this rank, or null for the first one. */
  Double next(String rankKey, Instant time) {
    if (time == null) {
      return null;
    }
    Rank r = rank(rankKey);
    Instant previous = r.last;
    r.last = time;
    if (previous == null || time.isBefore(previous)) {
      return null;
    }
    return (double) (time.toEpochMilli() - previous.toEpochMilli());
  }
}
