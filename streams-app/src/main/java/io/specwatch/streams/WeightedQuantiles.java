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

  private KllDoublesSketch sketch;

  /** Adds {@code value} with {@code weight} (cycles it stands for); ignores NaN and weight 0. */
  void add(Double value, long weight) {
    if (value == null || !Double.isFinite(value) || weight <= 0) {
      return;
    }
    if (sketch == null) {
      sketch = KllDoublesSketch.newHeapInstance(K);
    }
    if (weight == 1) {
      sketch.update(value);
    } else {
      sketch.update(value, weight);
    }
  }

  /** A new sketch holding both inputs; neither input changes. */
  WeightedQuantiles merge(WeightedQuantiles other) {
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

  /** The (inclusive) quantile at {@code rank} in [0, 1], or null without any value. */
  Double quantile(double rank) {
    return sketch == null || sketch.isEmpty()
        ? null
        : sketch.getQuantile(rank, QuantileSearchCriteria.INCLUSIVE);
  }

  /** Total weight added. */
  long weight() {
    return sketch == null ? 0 : sketch.getN();
  }

  /** The sketch's own serialisation, or an empty array when no value was added. */
  byte[] toBytes() {
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
    if (!(o instanceof WeightedQuantiles q) || weight() != q.weight()) {
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
