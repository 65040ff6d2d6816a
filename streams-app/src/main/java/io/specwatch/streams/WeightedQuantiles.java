package io.specwatch.streams;

import java.util.Arrays;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantilescommon.DoublesSortedView;
import org.apache.datasketches.quantilescommon.QuantileSearchCriteria;

/**
 * A mergeable, weighted quantile sketch of one metric: Apache DataSketches' KLL doubles sketch with
 * {@code k = 200}. The sketch is created on the first value, so windows without the metric cost
 * nothing.
 *
 * <p>Error bound: normalised rank error about 1.33% for a single quantile and about 1.65% for
 * PMF/CDF-style (double-sided) queries, at 99% confidence ({@link #RANK_ERROR}). A reported p95 is
 * a value whose true (weighted) rank lies in 0.95 +/- that bound. Values are exact while the sketch
 * retains every item (a few hundred updates).
 */
final class WeightedQuantiles {
  /** KLL accuracy parameter. */
  static final int K = 200;

  /** The stated normalised rank error bound (double-sided, 99% confidence), ~0.0165. */
  static final double RANK_ERROR = KllDoublesSketch.getNormalizedRankError(K, true);

  /**
   * Updates kept as plain (value, weight) pairs until there are more than this many; then (or when
   * the sketch is read, merged or serialised) they are fed, in arrival order, into the KLL sketch.
   * A sketch fed the same updates in the same order is the same sketch, so this changes no result,
   * only the heap: a KLL heap sketch allocates its k-item buffer on the first update (~2 KB), and a
   * window holds up to 3 rows x 4 sketches per side, most of them with a few dozen updates.
   */
  static final int BUFFERED_UPDATES = 64;

  private KllDoublesSketch sketch;
  private double[] values;
  private long[] weights;
  private int buffered;
  private double[] sortedValues;
  private long[] sortedWeights;
  private static final long TAIL_ROUNDING = 10_000_000L;

  /** Adds {@code value} with {@code weight} (cycles it stands for); ignores NaN and weight 0. */
  void add(Double value, long weight) {
    if (value == null || !Double.isFinite(value) || weight <= 0) {
      return;
    }
    if (sketch == null) {
      if (buffered < BUFFERED_UPDATES) {
        if (values == null || buffered == values.length) {
          int n = values == null ? 4 : values.length * 2;
          values = values == null ? new double[n] : Arrays.copyOf(values, n);
          weights = weights == null ? new long[n] : Arrays.copyOf(weights, n);
        }
        sortedValues = null;
        sortedWeights = null;
        values[buffered] = value;
        weights[buffered] = weight;
        buffered++;
        return;
      }
      materialize();
    }
    update(sketch, value, weight);
  }

  private static void update(KllDoublesSketch sketch, double value, long weight) {
    if (weight == 1) {
      sketch.update(value);
    } else {
      sketch.update(value, weight);
    }
  }

  /** The KLL sketch with every update so far (null without any). */
  private KllDoublesSketch materialize() {
    if (buffered > 0) {
      if (sketch == null) {
        sketch = KllDoublesSketch.newHeapInstance(K);
      }
      for (int i = 0; i < buffered; i++) {
        update(sketch, values[i], weights[i]);
      }
      buffered = 0;
      values = null;
      weights = null;
      sortedValues = null;
      sortedWeights = null;
    }
    return sketch;
  }

  /** A new sketch holding both inputs; neither input changes. */
  WeightedQuantiles merge(WeightedQuantiles other) {
    materialize();
    other.materialize();
    WeightedQuantiles m = new WeightedQuantiles();
    if (sketch != null) {
      m.sketch = KllDoublesSketch.heapify(Memory.wrap(sketch.toByteArray()));
    }
    if (other.sketch != null) {
      if (m.sketch == null) {
        m.sketch = KllDoublesSketch.heapify(Memory.wrap(other.sketch.toByteArray()));
      } else {
        m.sketch.merge(other.sketch);
      }
    }
    return m;
  }

  /**
   * The (inclusive) quantile at {@code rank} in [0, 1], or null without any value. While the
   * updates are still buffered (at most {@link #BUFFERED_UPDATES}) it is computed exactly from
   * them, with the KLL sorted view's rule (the smallest value whose cumulative weight reaches
   * ceil(rank x total weight)), which is what the sketch answers while it has compacted nothing;
   * exact, so within the stated error bound in any case.
   */
  Double quantile(double rank) {
    if (sketch == null && buffered > 0) {
      return exactQuantile(rank);
    }
    materialize();
    return sketch == null || sketch.isEmpty()
        ? null
        : sketch.getQuantile(rank, QuantileSearchCriteria.INCLUSIVE);
  }

  private double exactQuantile(double rank) {
    if (sortedValues == null) {
      sortedValues = Arrays.copyOf(values, buffered);
      sortedWeights = Arrays.copyOf(weights, buffered);
      for (int i = 1; i < buffered; i++) { // insertion sort of at most BUFFERED_UPDATES pairs
        double v = sortedValues[i];
        long w = sortedWeights[i];
        int j = i - 1;
        while (j >= 0 && sortedValues[j] > v) {
          sortedValues[j + 1] = sortedValues[j];
          sortedWeights[j + 1] = sortedWeights[j];
          j--;
        }
        sortedValues[j + 1] = v;
        sortedWeights[j + 1] = w;
      }
    }
    long total = 0;
    for (long w : sortedWeights) {
      total += w;
    }
    double natural = rank * total;
    if (total <= TAIL_ROUNDING) {
      natural = Math.round(natural * TAIL_ROUNDING) / (double) TAIL_ROUNDING;
    }
    long target = (long) Math.ceil(natural);
    long cumulative = 0;
    for (int i = 0; i < sortedValues.length; i++) {
      cumulative += sortedWeights[i];
      if (cumulative >= target) {
        return sortedValues[i];
      }
    }
    return sortedValues[sortedValues.length - 1];
  }

  /** Total weight added. */
  long weight() {
    if (sketch == null && buffered > 0) {
      long total = 0;
      for (int i = 0; i < buffered; i++) {
        total += weights[i];
      }
      return total;
    }
    materialize();
    return sketch == null ? 0 : sketch.getN();
  }

  /** The sketch's own serialisation, or an empty array when no value was added. */
  byte[] toBytes() {
    materialize();
    return sketch == null ? new byte[0] : sketch.toByteArray();
  }

  /** Reads {@link #toBytes()}. */
  static WeightedQuantiles fromBytes(byte[] bytes) {
    WeightedQuantiles q = new WeightedQuantiles();
    if (bytes.length > 0) {
      q.sketch = KllDoublesSketch.heapify(Memory.wrap(bytes));
    }
    return q;
  }

  /**
   * Same weight and same retained items with the same cumulative weights (the sorted view); the
   * internal level layout, which depends on how the items arrived, is not compared.
   */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WeightedQuantiles q)) {
      return false;
    }
    materialize();
    q.materialize();
    if (weight() != q.weight()) {
      return false;
    }
    if (weight() == 0) {
      return true;
    }
    DoublesSortedView mine = sketch.getSortedView();
    DoublesSortedView theirs = q.sketch.getSortedView();
    return Arrays.equals(mine.getQuantiles(), theirs.getQuantiles())
        && Arrays.equals(mine.getCumulativeWeights(), theirs.getCumulativeWeights());
  }

  @Override
  public int hashCode() {
    return Long.hashCode(weight());
  }
}
