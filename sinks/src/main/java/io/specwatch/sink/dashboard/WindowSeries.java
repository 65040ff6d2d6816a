package io.specwatch.sink.dashboard;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Merges the slices of each window into one {@link WindowPoint} and the whole range into a {@link
 * Summary}; pure (no I/O), so the weighting is unit-tested.
 *
 * <p>Which rows of a window count ({@link #representative(List)}): streams-app writes, per window
 * and per side (speculative or not), a total row (category {@code *}, bucket {@code *}) plus
 * breakdown rows per category ({@code cat, *}) and per batch bucket ({@code *, bucket}) that count
 * the same events again. So the speculative side is used when the window has one, and of it the
 * total row when there is one; only rows without a total (older data, hand-loaded rows) are merged,
 * cycle-weighted.
 */
public final class WindowSeries {

  private WindowSeries() {}

  /** The range's figures and its verdict. */
  public record Summary(
      int windows,
      long cycles,
      Double tau,
      Double tauStar,
      Double effectiveTokS,
      Double baselineTokS,
      Double speedup,
      Verdict verdict,
      List<Double> perPositionRange,
      List<Double> perPositionLatest) {}

  /** Slices ordered by window start (any order within a window) to points, one per window start. */
  static List<WindowPoint> points(List<SliceRow> slices) {
    List<WindowPoint> points = new ArrayList<>();
    byWindow(slices).forEach((t, rows) -> points.add(merge(t, rows)));
    return points;
  }

  /** The representative rows of each window (see the class comment), by window start. */
  static Map<Long, List<SliceRow>> byWindow(List<SliceRow> slices) {
    Map<Long, List<SliceRow>> byWindow = new LinkedHashMap<>();
    for (SliceRow s : slices) {
      byWindow.computeIfAbsent(s.t(), k -> new ArrayList<>()).add(s);
    }
    byWindow.replaceAll((t, rows) -> representative(rows));
    return byWindow;
  }

  /** Of one window's rows: the speculative side if any, of it the total rows if any. */
  static List<SliceRow> representative(List<SliceRow> rows) {
    List<SliceRow> side = rows.stream().filter(SliceRow::specEnabled).toList();
    if (side.isEmpty()) {
      side = rows;
    }
    List<SliceRow> totals = side.stream().filter(SliceRow::isTotal).toList();
    return totals.isEmpty() ? side : totals;
  }

  static WindowPoint merge(long t, List<SliceRow> rows) {
    int n = SliceRow.METRICS.size();
    Weighted[] metrics = new Weighted[n];
    for (int i = 0; i < n; i++) {
      metrics[i] = new Weighted();
    }
    long cycles = 0;
    long events = 0;
    long late = 0;
    for (SliceRow r : rows) {
      cycles += r.cycles();
      events += r.events();
      late += r.lateEvents();
      for (int i = 0; i < n; i++) {
        metrics[i].add(r.metrics()[i], r.cycles());
      }
    }
    Double[] m = new Double[n];
    for (int i = 0; i < n; i++) {
      m[i] = metrics[i].mean();
    }
    return new WindowPoint(
        t,
        cycles,
        events,
        late,
        m[0],
        m[1],
        m[2],
        m[3],
        m[4],
        m[5],
        m[6],
        m[7],
        m[8],
        m[9],
        m[10],
        m[11],
        m[12],
        m[13],
        perPosition(rows));
  }

  /** The range: cycle-weighted over all slices, per-position over the range and the last window. */
  static Summary summary(List<SliceRow> all) {
    List<SliceRow> slices = byWindow(all).values().stream().flatMap(List::stream).toList();
    Weighted tau = new Weighted();
    Weighted tauStar = new Weighted();
    Weighted effective = new Weighted();
    Weighted baseline = new Weighted();
    Weighted speedup = new Weighted();
    long cycles = 0;
    long lastT = Long.MIN_VALUE;
    java.util.Set<Long> windows = new java.util.HashSet<>();
    for (SliceRow r : slices) {
      cycles += r.cycles();
      windows.add(r.t());
      tau.add(r.metrics()[0], r.cycles());
      tauStar.add(r.metrics()[1], r.cycles());
      effective.add(r.metrics()[2], r.cycles());
      baseline.add(r.metrics()[3], r.cycles());
      speedup.add(r.metrics()[4], r.cycles());
      if (!r.perPosition().isEmpty()) {
        lastT = Math.max(lastT, r.t());
      }
    }
    final long latest = lastT;
    List<SliceRow> last = slices.stream().filter(r -> r.t() == latest).toList();
    return new Summary(
        windows.size(),
        cycles,
        tau.mean(),
        tauStar.mean(),
        effective.mean(),
        baseline.mean(),
        speedup.mean(),
        Verdict.of(speedup.mean(), tau.mean(), tauStar.mean(), effective.mean(), baseline.mean()),
        perPosition(slices),
        perPosition(last));
  }

  /** Per draft position: the cycle-weighted mean acceptance of the slices that reach it. */
  static List<Double> perPosition(List<SliceRow> rows) {
    List<Weighted> positions = new ArrayList<>();
    for (SliceRow r : rows) {
      for (int i = 0; i < r.perPosition().size(); i++) {
        while (positions.size() <= i) {
          positions.add(new Weighted());
        }
        positions.get(i).add(r.perPosition().get(i), r.cycles());
      }
    }
    return positions.stream().map(Weighted::mean).toList();
  }

  /** A weighted mean over the non-null values with positive weight. */
  static final class Weighted {
    private double sum;
    private double weight;

    void add(Double value, long w) {
      if (value != null && w > 0) {
        sum += value * w;
        weight += w;
      }
    }

    Double mean() {
      return weight > 0 ? sum / weight : null;
    }
  }
}
