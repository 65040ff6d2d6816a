package io.specwatch.streams;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The recent non-speculative windows of one comparison key, oldest first (value of the {@code
 * baseline-store}). At most {@link #MAX_ENTRIES} are kept.
 *
 * @param entries learned step times, sorted by window start
 */
public record LearnedBaselines(List<Entry> entries) {
  /** Entries kept per key (64 one-minute windows: an hour of one baseline deployment). */
  static final int MAX_ENTRIES = 64;

  /**
   * One non-speculative window's step time.
   *
   * @param windowStartMs window start, epoch ms
   * @param stepMs its cycle-weighted mean decode step time t_AR
   * @param cycles cycles (decode steps x requests) behind it
   * @param deploymentId the baseline deployment
   */
  public record Entry(long windowStartMs, double stepMs, long cycles, String deploymentId) {}

  public LearnedBaselines {
    entries = List.copyOf(entries);
  }

  /** No entries. */
  public static LearnedBaselines empty() {
    return new LearnedBaselines(List.of());
  }

  /** These entries plus {@code e} (replacing one of the same deployment and window). */
  public LearnedBaselines with(Entry e) {
    List<Entry> m = new ArrayList<>(entries.size() + 1);
    for (Entry old : entries) {
      if (old.windowStartMs() != e.windowStartMs()
          || !old.deploymentId().equals(e.deploymentId())) {
        m.add(old);
      }
    }
    m.add(e);
    m.sort(Comparator.comparingLong(Entry::windowStartMs));
    while (m.size() > MAX_ENTRIES) {
      m.remove(0);
    }
    return new LearnedBaselines(m);
  }

  /**
   * The baseline for a speculative window starting at {@code windowStartMs}: the entry with the
   * latest window start strictly before it and not more than {@code maxAgeMs} before it; among
   * equal starts the one learned last. Strictly before: the baseline window of the same minute
   * closes at the same stream time as the speculative one and may reach the baseline stage after
   * it, an earlier one has closed a window earlier, so the choice does not depend on that race.
   */
  public Optional<Entry> forWindow(long windowStartMs, long maxAgeMs) {
    Entry best = null;
    for (Entry e : entries) {
      if (e.windowStartMs() < windowStartMs
          && windowStartMs - e.windowStartMs() <= maxAgeMs
          && (best == null || e.windowStartMs() >= best.windowStartMs())) {
        best = e;
      }
    }
    return Optional.ofNullable(best);
  }
}
