package io.specwatch.streams;

import com.datadoghq.sketch.ddsketch.DDSketch;
import com.datadoghq.sketch.ddsketch.encoding.ByteArrayInput;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import com.datadoghq.sketch.ddsketch.mapping.CubicallyInterpolatedMapping;
import com.datadoghq.sketch.ddsketch.mapping.IndexMapping;
import com.datadoghq.sketch.ddsketch.store.Bin;
import com.datadoghq.sketch.ddsketch.store.CollapsingLowestDenseStore;
import com.datadoghq.sketch.ddsketch.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.datasketches.kll.KllDoublesSketch;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.quantilescommon.DoublesSortedView;

/**
 * A mergeable, weighted quantile sketch of one metric: Datadog's DDSketch with a relative accuracy
 * of 1% ({@link #RELATIVE_ACCURACY}), a cubically interpolated index mapping and a dense store of
 * at most {@link #MAX_BINS} bins per sign that collapses its lowest bins first. The sketch is
 * created on the first value, so windows without the metric cost nothing.
 *
 * <p>Error bound (deterministic, not probabilistic): every value falls into a bin whose
 * representative value is within 1% of it, relatively, and bins are ordered like values; so a
 * reported quantile is within 1% relative error of the true value at that (cycle-weighted) rank:
 * {@code |reported - x_q| <= 0.01 * |x_q|}. The rank is not approximated at all. Queries use the
 * inclusive definition: x_q is the smallest value whose cumulative weight reaches {@code q} of the
 * total. The bound holds unless the store collapsed bins, which needs values spanning a ratio of
 * more than ~6e17 (2048 bins of a factor 1.0202 each), and then only for quantiles inside the
 * collapsed lowest range (high percentiles are what the window reports, hence collapsing lowest).
 *
 * <p>Weights are native: {@code accept(value, cycles)} adds the cycles to one bin's count, so an
 * SGLang line summarising hundreds of cycles costs the same as one cycle. Zero and values smaller
 * than the mapping's smallest indexable magnitude go to the zero bucket; negative values to a
 * negative store (kept, as before); NaN, infinities and magnitudes above the mapping's largest
 * indexable value (~1e307) are ignored.
 */
final class WeightedQuantiles {
  /** DDSketch relative accuracy: a reported quantile is within 1% of the true value. */
  static final double RELATIVE_ACCURACY = 0.01;

  /** Bins per store (positive and negative values) before the lowest ones collapse. */
  static final int MAX_BINS = 2048;

  private static final IndexMapping MAPPING = new CubicallyInterpolatedMapping(RELATIVE_ACCURACY);

  /**
   * The stores of every sketch here: {@link CompactCollapsingLowestStore}, bins, collapsing and
   * encoding of the library's {@code CollapsingLowestDenseStore(MAX_BINS)} without its 64-bin
   * centred array per new store (which earlier releases used: same bytes, same answers).
   */
  static final Supplier<Store> STORE = () -> new CompactCollapsingLowestStore(MAX_BINS);

  /**
   * The mapping's largest indexable magnitude, computed once: the mapping computes it with {@code
   * Math.pow} on every call, and {@link #add} checks it for every value.
   */
  static final double MAX_INDEXABLE = MAPPING.maxIndexableValue();

  /**
   * An empty sketch with {@link #STORE} stores, never changed: a new sketch is a copy of it (the
   * copy takes its index bounds, where DDSketch's constructor computes two {@code Math.pow}).
   */
  private static final DDSketch EMPTY = new DDSketch(MAPPING, STORE);

  /** The library's store that {@link #STORE} replaces; tests compare the two. */
  static final Supplier<Store> LIBRARY_STORE = () -> new CollapsingLowestDenseStore(MAX_BINS);

  private final Supplier<Store> stores;
  private DDSketch sketch;

  WeightedQuantiles() {
    this(STORE);
  }

  /** A sketch whose stores come from {@code stores} (tests: {@link #LIBRARY_STORE}). */
  WeightedQuantiles(Supplier<Store> stores) {
    this.stores = stores;
  }

  /** Adds {@code value} with {@code weight} (cycles it stands for); ignores NaN and weight 0. */
  void add(Double value, long weight) {
    if (value == null
        || !Double.isFinite(value)
        || Math.abs(value) > MAX_INDEXABLE
        || weight <= 0) {
      return;
    }
    if (sketch == null) {
      sketch = stores == STORE ? EMPTY.copy() : new DDSketch(MAPPING, stores);
    }
    sketch.accept(value, weight);
  }

  /** A new sketch holding both inputs; neither input changes. */
  WeightedQuantiles merge(WeightedQuantiles other) {
    WeightedQuantiles m = new WeightedQuantiles(stores);
    if (sketch != null) {
      m.sketch = sketch.copy();
    }
    if (other.sketch != null) {
      if (m.sketch == null) {
        m.sketch = other.sketch.copy();
      } else {
        m.sketch.mergeWith(other.sketch);
      }
    }
    return m;
  }

  /**
   * The (inclusive) quantile at {@code rank} in [0, 1], or null without any value: within 1% of the
   * smallest value whose cumulative weight reaches {@code rank} of the total.
   */
  Double quantile(double rank) {
    if (sketch == null || sketch.isEmpty()) {
      return null;
    }
    double total = sketch.getCount();
    // DDSketch answers the first bin whose cumulative count exceeds q * (total - 1); with integer
    // counts, asking for (target - 0.5) / (total - 1) gives the first bin reaching target.
    double target = Math.max(1.0, Math.ceil(Math.min(1.0, Math.max(0.0, rank)) * total));
    double q = total <= 1 ? 0.0 : Math.min(1.0, Math.max(0.0, (target - 0.5) / (total - 1)));
    return sketch.getValueAtQuantile(q);
  }

  /** Total weight added. */
  long weight() {
    return sketch == null ? 0 : Math.round(sketch.getCount());
  }

  /**
   * The sketch's own binary encoding ({@code DDSketch.encode(output, true)}: bins and zero count,
   * index mapping omitted because it is fixed here; a new mapping needs a new serde version), or an
   * empty array when no value was added.
   */
  byte[] toBytes() {
    if (sketch == null) {
      return new byte[0];
    }
    GrowingByteArrayOutput out = GrowingByteArrayOutput.withDefaultInitialCapacity();
    try {
      sketch.encode(out, true);
    } catch (IOException e) {
      throw new UncheckedIOException("DDSketch encoding", e);
    }
    return out.trimmedCopy();
  }

  /** Reads {@link #toBytes()} ({@code DDSketch.decode} with this class's store and mapping). */
  static WeightedQuantiles fromBytes(byte[] bytes) {
    return fromBytes(bytes, STORE);
  }

  /** {@link #fromBytes(byte[])} into stores from {@code stores}. */
  static WeightedQuantiles fromBytes(byte[] bytes, Supplier<Store> stores) {
    WeightedQuantiles q = new WeightedQuantiles(stores);
    if (bytes.length > 0) {
      try {
        q.sketch = DDSketch.decode(ByteArrayInput.wrap(bytes), stores, MAPPING);
      } catch (IOException e) {
        throw new UncheckedIOException("bad DDSketch bytes", e);
      }
    }
    return q;
  }

  /**
   * Reads a KLL doubles sketch's {@code toByteArray()} (state written by {@code
   * WindowAccumulatorSerde} v2 and v3): every retained item of its sorted view is added with its
   * weight, so the result answers within the KLL sketch's own rank error plus 1% relative.
   */
  static WeightedQuantiles fromLegacyKllBytes(byte[] bytes) {
    WeightedQuantiles q = new WeightedQuantiles();
    if (bytes.length == 0) {
      return q;
    }
    KllDoublesSketch kll = KllDoublesSketch.heapify(Memory.wrap(bytes));
    if (kll.isEmpty()) {
      return q;
    }
    DoublesSortedView view = kll.getSortedView();
    double[] values = view.getQuantiles();
    long[] cumulative = view.getCumulativeWeights();
    long previous = 0;
    for (int i = 0; i < values.length; i++) {
      q.add(values[i], cumulative[i] - previous);
      previous = cumulative[i];
    }
    return q;
  }

  /** Same zero count and the same bins (index and count) in both stores. */
  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WeightedQuantiles q) || weight() != q.weight()) {
      return false;
    }
    if (weight() == 0) {
      return true;
    }
    return bins(sketch.getPositiveValueStore()).equals(bins(q.sketch.getPositiveValueStore()))
        && bins(sketch.getNegativeValueStore()).equals(bins(q.sketch.getNegativeValueStore()));
  }

  private static List<String> bins(Store store) {
    List<String> bins = new ArrayList<>();
    for (Iterator<Bin> it = store.getAscendingIterator(); it.hasNext(); ) {
      Bin bin = it.next();
      bins.add(bin.getIndex() + ":" + bin.getCount());
    }
    return bins;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(weight());
  }
}
