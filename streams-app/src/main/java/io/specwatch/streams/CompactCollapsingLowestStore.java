package io.specwatch.streams;

import com.datadoghq.sketch.ddsketch.Serializer;
import com.datadoghq.sketch.ddsketch.encoding.BinEncodingMode;
import com.datadoghq.sketch.ddsketch.encoding.Flag;
import com.datadoghq.sketch.ddsketch.encoding.Input;
import com.datadoghq.sketch.ddsketch.encoding.Output;
import com.datadoghq.sketch.ddsketch.encoding.VarEncodingHelper;
import com.datadoghq.sketch.ddsketch.store.Bin;
import com.datadoghq.sketch.ddsketch.store.BinAcceptor;
import com.datadoghq.sketch.ddsketch.store.CollapsingLowestDenseStore;
import com.datadoghq.sketch.ddsketch.store.Store;
import java.io.IOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A DDSketch store with the bins, the collapsing and the encoding of sketches-java 0.8.3's {@link
 * CollapsingLowestDenseStore} (same {@code maxNumBins}), whose array starts small.
 *
 * <p>Why: the library's dense store allocates 64 bins on its first value and centres them (an array
 * copy and a fill), ~150-350 ns per store; every new window row creates one per metric, so that
 * creation was ~5 % of the stream thread, against ~12 ns per later value. Here the first value
 * allocates {@value #INITIAL_LENGTH} slots, a value outside them grows the array to at least
 * {@value #GROWN_LENGTH} slots and half its range spare (a fresh array needs no fill).
 *
 * <p>Same logical state as the library's store after any sequence of adds, merges, copies and
 * decodes: the bins from {@code minIndex} to {@code maxIndex}; when a value would make that range
 * wider than {@code maxNumBins}, the range becomes {@code [max - maxNumBins + 1, max]} and every
 * count below it is summed into its lowest bin (the library collapses exactly when the range
 * exceeds its array, which it grows up to {@code maxNumBins}). Counts are summed in the library's
 * order, so even non-integer counts end up bit-for-bit equal. The encoding ({@link #encode}) and
 * the protobuf serialisation are the library's code over the same bins, so the bytes are equal; a
 * sketch's quantiles read only the bins. {@code CompactCollapsingLowestStoreProperties} checks all
 * of this against the library's store over random inputs, collapsing included.
 *
 * <p>Not for mixing with the library's store in one sketch: {@code
 * CollapsingLowestDenseStore.mergeWith} of another store type adds its own bins (0.8.3), so a
 * library store must never be merged with this one; this store merges any store correctly.
 */
final class CompactCollapsingLowestStore implements Store {
  /** Slots of a store's first array (see {@link #reserve}). */
  static final int INITIAL_LENGTH = 32;

  /** Slots of a grown array, at least. */
  static final int GROWN_LENGTH = 64;

  private final int maxNumBins;
  private double[] counts; // null until the first count; covers [offset, offset + length)
  private int offset;
  private int minIndex = Integer.MAX_VALUE;
  private int maxIndex = Integer.MIN_VALUE;
  private boolean collapsed;

  CompactCollapsingLowestStore(int maxNumBins) {
    if (maxNumBins < 1) {
      throw new IllegalArgumentException("maxNumBins must be at least 1, got " + maxNumBins);
    }
    this.maxNumBins = maxNumBins;
  }

  private CompactCollapsingLowestStore(CompactCollapsingLowestStore s) {
    this.maxNumBins = s.maxNumBins;
    this.counts = s.counts == null ? null : s.counts.clone();
    this.offset = s.offset;
    this.minIndex = s.minIndex;
    this.maxIndex = s.maxIndex;
    this.collapsed = s.collapsed;
  }

  // ---- updates (the library's DenseStore.add variants: the same checks, the same order)

  @Override
  public void add(int index) {
    // normalize first: it may replace the array (counts[normalize(i)] would read the old one)
    final int slot = normalize(index);
    counts[slot]++;
  }

  @Override
  public void add(int index, double count) {
    if (count < 0) {
      throw new IllegalArgumentException("The count cannot be negative.");
    }
    if (count == 0) {
      return;
    }
    final int slot = normalize(index);
    counts[slot] += count;
  }

  @Override
  public void add(Bin bin) {
    if (bin.getCount() == 0) {
      return;
    }
    final int slot = normalize(bin.getIndex());
    counts[slot] += bin.getCount();
  }

  /** The array slot of {@code index}'s bin, after extending (and maybe collapsing) the range. */
  private int normalize(int index) {
    if (index < minIndex) {
      if (collapsed) {
        return minIndex - offset;
      }
      extendRange(index, index);
      if (collapsed) {
        return minIndex - offset;
      }
    } else if (index > maxIndex) {
      extendRange(index, index);
    }
    return index - offset;
  }

  /**
   * Makes the range cover {@code [lo, hi]}; wider than {@code maxNumBins}, it becomes the top
   * {@code maxNumBins} indices and the counts below are summed (ascending, from 0, as the library's
   * {@code getTotalCount}) into its lowest bin.
   */
  private void extendRange(int lo, int hi) {
    int newMin = Math.min(lo, minIndex);
    int newMax = Math.max(hi, maxIndex);
    if ((long) newMax - newMin + 1 > maxNumBins) {
      int clampedMin = (int) ((long) newMax - maxNumBins + 1);
      boolean fold = !isEmpty() && minIndex < clampedMin;
      double folded = 0;
      if (fold) {
        int foldTo = Math.min(clampedMin - 1, maxIndex);
        for (int i = minIndex; i <= foldTo; i++) {
          folded += counts[i - offset];
          counts[i - offset] = 0;
        }
      }
      reserve(clampedMin, newMax);
      if (fold) {
        counts[clampedMin - offset] += folded;
      }
      minIndex = clampedMin;
      maxIndex = newMax;
      collapsed = true;
    } else {
      reserve(newMin, newMax);
      minIndex = newMin;
      maxIndex = newMax;
    }
  }

  /**
   * Makes the array cover {@code [lo, hi]}, keeping the counts of the current bins inside it (any
   * outside it are zero by then). The first array has {@value #INITIAL_LENGTH} slots (more if the
   * range needs them), a grown one at least {@value #GROWN_LENGTH} and half its range spare; the
   * spare slots are split evenly on both sides. A window's metric typically spans 20-30 bins: one
   * array, at most two (growing by a few slots at a time cost more than the library's fill).
   */
  private void reserve(int lo, int hi) {
    if (counts != null && lo >= offset && (long) hi < (long) offset + counts.length) {
      return;
    }
    int range = hi - lo + 1;
    int length =
        Math.max(counts == null ? INITIAL_LENGTH : GROWN_LENGTH, range + Math.max(1, range / 2));
    int slack = length - range;
    double[] grown = new double[length];
    int newOffset = lo - slack / 2;
    if (counts != null && !isEmpty()) {
      int from = Math.max(minIndex, lo);
      int to = Math.min(maxIndex, hi);
      if (from <= to) {
        System.arraycopy(counts, from - offset, grown, from - newOffset, to - from + 1);
      }
    }
    counts = grown;
    offset = newOffset;
  }

  @Override
  public void mergeWith(Store store) {
    if (store instanceof CompactCollapsingLowestStore s) {
      if (s.isEmpty()) {
        return;
      }
      if (s.minIndex < minIndex || s.maxIndex > maxIndex) {
        extendRange(s.minIndex, s.maxIndex);
      }
      // ascending, the lowest ones into the (collapsed) lowest bin: the library's order
      for (int index = s.minIndex; index <= s.maxIndex; index++) {
        int target = index < minIndex ? minIndex : index;
        counts[target - offset] += s.counts[index - s.offset];
      }
      return;
    }
    if (store.isEmpty()) {
      return;
    }
    int lo = store.getMinIndex();
    int hi = store.getMaxIndex();
    if (lo < minIndex || hi > maxIndex) {
      extendRange(lo, hi);
    }
    store.forEach(
        (index, count) -> counts[(index < minIndex ? minIndex : index) - offset] += count);
  }

  @Override
  public Store copy() {
    return new CompactCollapsingLowestStore(this);
  }

  @Override
  public void clear() {
    if (counts != null) {
      Arrays.fill(counts, 0D);
    }
    minIndex = Integer.MAX_VALUE;
    maxIndex = Integer.MIN_VALUE;
    offset = 0;
    collapsed = false;
  }

  // ---- reads (the library's DenseStore code over [minIndex, maxIndex])

  @Override
  public boolean isEmpty() {
    return maxIndex < minIndex;
  }

  @Override
  public int getMinIndex() {
    if (isEmpty()) {
      throw new NoSuchElementException();
    }
    return minIndex;
  }

  @Override
  public int getMaxIndex() {
    if (isEmpty()) {
      throw new NoSuchElementException();
    }
    return maxIndex;
  }

  @Override
  public double getTotalCount() {
    if (isEmpty()) {
      return 0;
    }
    double total = 0;
    for (int i = minIndex - offset; i <= maxIndex - offset; i++) {
      total += counts[i];
    }
    return total;
  }

  @Override
  public void forEach(BinAcceptor acceptor) {
    if (isEmpty()) {
      return;
    }
    for (int i = minIndex; i < maxIndex; i++) {
      double value = counts[i - offset];
      if (value != 0) {
        acceptor.accept(i, value);
      }
    }
    double lastCount = counts[maxIndex - offset];
    if (lastCount != 0) {
      acceptor.accept(maxIndex, lastCount);
    }
  }

  @Override
  public Stream<Bin> getAscendingStream() {
    if (isEmpty()) {
      return Stream.of();
    }
    return IntStream.rangeClosed(minIndex, maxIndex)
        .filter(index -> counts[index - offset] > 0)
        .mapToObj(index -> new Bin(index, counts[index - offset]));
  }

  @Override
  public Stream<Bin> getDescendingStream() {
    if (isEmpty()) {
      return Stream.of();
    }
    return IntStream.iterate(maxIndex, index -> index - 1)
        .limit((long) maxIndex - minIndex + 1)
        .filter(index -> counts[index - offset] > 0)
        .mapToObj(index -> new Bin(index, counts[index - offset]));
  }

  @Override
  public Iterator<Bin> getAscendingIterator() {
    return new Iterator<>() {
      private long index = minIndex;

      @Override
      public boolean hasNext() {
        return index <= maxIndex;
      }

      @Override
      public Bin next() {
        final int nextIndex = (int) index;
        do {
          index++;
        } while (index <= maxIndex && counts[(int) index - offset] == 0);
        return new Bin(nextIndex, counts[nextIndex - offset]);
      }
    };
  }

  @Override
  public Iterator<Bin> getDescendingIterator() {
    return new Iterator<>() {
      private long index = maxIndex;

      @Override
      public boolean hasNext() {
        return index >= minIndex;
      }

      @Override
      public Bin next() {
        final int nextIndex = (int) index;
        do {
          index--;
        } while (index >= minIndex && counts[(int) index - offset] == 0);
        return new Bin(nextIndex, counts[nextIndex - offset]);
      }
    };
  }

  // ---- encoding and decoding

  /** The library's bytes for these bins: {@link DenseStoreEncoding#encode}. */
  @Override
  public void encode(Output output, Flag.Type storeFlagType) throws IOException {
    if (isEmpty()) {
      return;
    }
    DenseStoreEncoding.encode(
        output, storeFlagType, counts, minIndex - offset, maxIndex - offset, offset);
  }

  /**
   * The library's decoding (each bin added as by {@code add(index, count)}), with the array sized
   * once for a contiguous run of bins instead of growing bin by bin.
   */
  @Override
  public void decodeAndMergeWith(Input input, BinEncodingMode encodingMode) throws IOException {
    if (encodingMode != BinEncodingMode.CONTIGUOUS_COUNTS) {
      Store.super.decodeAndMergeWith(input, encodingMode);
      return;
    }
    final long numBins = VarEncodingHelper.decodeUnsignedVarLong(input);
    long index = VarEncodingHelper.decodeSignedVarLong(input);
    final long indexDelta = VarEncodingHelper.decodeSignedVarLong(input);
    if (indexDelta == 1 && numBins > 0 && numBins <= maxNumBins) {
      long last = index + numBins - 1;
      if (index >= Integer.MIN_VALUE && last <= Integer.MAX_VALUE) {
        // capacity only: the range itself grows as counts are added (zero counts add nothing)
        int lo = isEmpty() ? (int) index : (int) Math.min(index, minIndex);
        int hi = isEmpty() ? (int) last : (int) Math.max(last, maxIndex);
        if ((long) hi - lo + 1 <= maxNumBins) {
          reserve(lo, hi);
        }
      }
    }
    for (long i = 0; i != numBins; i++, index += indexDelta) {
      final double count = VarEncodingHelper.decodeVarDouble(input);
      add(Math.toIntExact(index), count);
    }
  }

  @Override
  public int serializedSize() {
    if (!isEmpty()) {
      return Serializer.sizeOfCompactDoubleArray(2, maxIndex - minIndex + 1)
          + Serializer.signedIntFieldSize(3, minIndex);
    }
    return 0;
  }

  @Override
  public void serialize(Serializer serializer) {
    if (!isEmpty()) {
      serializer.writeCompactArray(2, counts, minIndex - offset, maxIndex - minIndex + 1);
      serializer.writeSignedInt32(3, minIndex);
    }
  }
}
