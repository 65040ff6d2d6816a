package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import com.datadoghq.sketch.ddsketch.Serializer;
import com.datadoghq.sketch.ddsketch.encoding.BinEncodingMode;
import com.datadoghq.sketch.ddsketch.encoding.ByteArrayInput;
import com.datadoghq.sketch.ddsketch.encoding.Flag;
import com.datadoghq.sketch.ddsketch.encoding.GrowingByteArrayOutput;
import com.datadoghq.sketch.ddsketch.encoding.Input;
import com.datadoghq.sketch.ddsketch.mapping.CubicallyInterpolatedMapping;
import com.datadoghq.sketch.ddsketch.store.Bin;
import com.datadoghq.sketch.ddsketch.store.CollapsingLowestDenseStore;
import com.datadoghq.sketch.ddsketch.store.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * {@link CompactCollapsingLowestStore} against the library's {@link CollapsingLowestDenseStore}
 * (the store of earlier releases) over random inputs: after the same adds, merges, copies and
 * decodes both hold the same bins (counts bit for bit), encode and serialise to the same bytes, and
 * sketches on either give the same bytes and quantiles. The inputs span more than the store's
 * width, so the lowest bins collapse, both at {@link WeightedQuantiles#MAX_BINS} and at small
 * widths where collapsing is frequent.
 */
class CompactCollapsingLowestStoreProperties {
  private static final int[] WIDTHS = {1, 2, 7, 64, 100, WeightedQuantiles.MAX_BINS};
  private static final int[] SPREADS = {3, 40, 600, 3_000, 20_000};

  /** One random input: the same operations applied to a library store and to ours. */
  private static final class Pair {
    final Store library;
    final Store ours;

    Pair(int width) {
      library = new CollapsingLowestDenseStore(width);
      ours = new CompactCollapsingLowestStore(width);
    }

    void fill(Random r, int ops) {
      int center = r.nextInt(20_001) - 10_000;
      int spread = SPREADS[r.nextInt(SPREADS.length)];
      boolean drift = r.nextInt(4) == 0; // a moving range: repeated collapses, far jumps
      for (int i = 0; i < ops; i++) {
        if (drift) {
          center += r.nextInt(2 * spread + 1) - spread / 3;
        }
        int index = center + r.nextInt(2 * spread + 1) - spread;
        switch (r.nextInt(5)) {
          case 0 -> {
            library.add(index);
            ours.add(index);
          }
          case 1 -> {
            long w = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(1_000);
            library.add(index, w);
            ours.add(index, w);
          }
          case 2 -> {
            // fractional counts: the sums must be made in the same order to stay bit-equal
            double w = r.nextInt(6) == 0 ? 0.0 : r.nextDouble() * 7.3;
            library.add(index, w);
            ours.add(index, w);
          }
          case 3 -> {
            Bin bin = new Bin(index, r.nextInt(3) == 0 ? 0.0 : 0.5 + r.nextInt(50));
            library.add(bin);
            ours.add(bin);
          }
          default -> {
            double w = 1 + r.nextInt(1 << 20);
            library.add(index, w);
            ours.add(index, w);
          }
        }
      }
    }
  }

  @Property(tries = 400)
  void randomAddsGiveTheSameBinsAndBytes(@ForAll long seed) throws IOException {
    Random r = new Random(seed);
    Pair p = new Pair(WIDTHS[r.nextInt(WIDTHS.length)]);
    int ops = r.nextInt(600);
    for (int done = 0; done < ops; done += 50) {
      p.fill(r, Math.min(50, ops - done));
      assertSameStore(p.library, p.ours);
    }
    assertSameStore(p.library, p.ours);
  }

  @Property(tries = 300)
  void mergesAndCopiesGiveTheSameBinsAndBytes(@ForAll long seed) throws IOException {
    Random r = new Random(seed);
    int width = WIDTHS[r.nextInt(WIDTHS.length)];
    Pair a = new Pair(width);
    Pair b = new Pair(width);
    a.fill(r, r.nextInt(400));
    b.fill(r, r.nextInt(400));
    Store libraryCopy = a.library.copy();
    Store oursCopy = a.ours.copy();
    // merging any store (here the library's) into ours equals merging ours into ours
    Store oursMergedWithLibrary = a.ours.copy();
    oursMergedWithLibrary.mergeWith(b.library);
    a.library.mergeWith(b.library);
    a.ours.mergeWith(b.ours);
    assertSameStore(a.library, a.ours);
    assertSameStore(a.library, oursMergedWithLibrary);
    assertSameStore(b.library, b.ours); // the merged-in store is unchanged
    // copies are independent of their originals and keep evolving alike
    Pair later = new Pair(width);
    later.fill(r, r.nextInt(200));
    libraryCopy.mergeWith(later.library);
    oursCopy.mergeWith(later.ours);
    assertSameStore(libraryCopy, oursCopy);
    assertSameStore(a.library, a.ours);
  }

  @Property(tries = 300)
  void decodingTheLibrarysBytesGivesTheSameStore(@ForAll long seed) throws IOException {
    Random r = new Random(seed);
    int width = WIDTHS[r.nextInt(WIDTHS.length)];
    Pair source = new Pair(width);
    source.fill(r, r.nextInt(500));
    // decode into an empty store or merge into a filled one (DDSketch.decode, restore)
    Pair target = new Pair(width);
    target.fill(r, r.nextInt(3) == 0 ? r.nextInt(300) : 0);
    byte[] bytes = encode(source.library, Flag.Type.POSITIVE_STORE);
    if (bytes.length > 0) {
      decodeInto(target.library, bytes);
      decodeInto(target.ours, bytes);
    }
    assertSameStore(target.library, target.ours);
  }

  @Property(tries = 300)
  void sketchesGiveTheSameBytesQuantilesAndMerges(@ForAll long seed) {
    Random r = new Random(seed);
    WeightedQuantiles[] ours = {new WeightedQuantiles(), new WeightedQuantiles()};
    WeightedQuantiles[] library = {
      new WeightedQuantiles(WeightedQuantiles.LIBRARY_STORE),
      new WeightedQuantiles(WeightedQuantiles.LIBRARY_STORE)
    };
    for (int s = 0; s < 2; s++) {
      int n = r.nextInt(300);
      // a wide span (beyond 2048 bins of 2 %: > 6e17) makes the stores collapse
      boolean wide = r.nextBoolean();
      for (int i = 0; i < n; i++) {
        double value =
            switch (r.nextInt(10)) {
              case 0 -> 0.0;
              // the sketch's bounds: zero bucket below the smallest indexable value, ignored
              // above the largest (ours copy them from an empty sketch, the library computes them)
              case 8 -> Double.MIN_NORMAL * r.nextInt(4) * (r.nextBoolean() ? 1 : -1);
              case 9 ->
                  WeightedQuantiles.MAX_INDEXABLE
                      * (0.999 + r.nextDouble() * 0.002)
                      * (r.nextBoolean() ? 1 : -1);
              case 1 -> -Math.pow(10, r.nextDouble() * 6 - 2);
              case 2 -> wide ? Math.pow(10, r.nextDouble() * 600 - 300) : r.nextDouble();
              default -> 0.5 + r.nextGaussian() * 0.1 + r.nextInt(200);
            };
        long weight = r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(2_000);
        ours[s].add(value, weight);
        library[s].add(value, weight);
      }
      assertSameSketch(library[s], ours[s]);
    }
    assertSameSketch(library[0].merge(library[1]), ours[0].merge(ours[1]));
    // bytes of either store read back through ours give the same sketch
    byte[] bytes = library[0].toBytes();
    assertThat(ours[0].toBytes()).isEqualTo(bytes);
    assertSameSketch(
        WeightedQuantiles.fromBytes(bytes, WeightedQuantiles.LIBRARY_STORE),
        WeightedQuantiles.fromBytes(bytes));
  }

  @Test
  void theCachedIndexableBoundIsTheMappingsOwn() {
    assertThat(WeightedQuantiles.MAX_INDEXABLE)
        .isEqualTo(
            new CubicallyInterpolatedMapping(WeightedQuantiles.RELATIVE_ACCURACY)
                .maxIndexableValue());
  }

  @Test
  void aWidthBeyondMaxBinsCollapsesTheLowestBinsIntoOne() throws IOException {
    // pins the collapse rule itself (not only the equality): 5 values 1000 bins apart, width 2048
    Store ours = new CompactCollapsingLowestStore(WeightedQuantiles.MAX_BINS);
    Store library = new CollapsingLowestDenseStore(WeightedQuantiles.MAX_BINS);
    for (int i = 0; i < 5; i++) {
      ours.add(i * 1_000, 1 + i);
      library.add(i * 1_000, 1 + i);
    }
    assertThat(ours.getMaxIndex()).isEqualTo(4_000);
    assertThat(ours.getMinIndex()).isEqualTo(4_000 - WeightedQuantiles.MAX_BINS + 1);
    assertThat(bins(ours))
        .containsExactly("1953:3.0", "2000:3.0", "3000:4.0", "4000:5.0"); // 1 + 2 folded into 1953
    assertSameStore(library, ours);
  }

  // ---- helpers

  private static void assertSameSketch(WeightedQuantiles library, WeightedQuantiles ours) {
    assertThat(ours.toBytes()).isEqualTo(library.toBytes());
    assertThat(ours.weight()).isEqualTo(library.weight());
    for (double rank : new double[] {0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1}) {
      assertThat(ours.quantile(rank)).as("rank %s", rank).isEqualTo(library.quantile(rank));
    }
  }

  private static void assertSameStore(Store library, Store ours) throws IOException {
    assertThat(ours.isEmpty()).isEqualTo(library.isEmpty());
    assertThat(bins(ours)).isEqualTo(bins(library));
    assertThat(Double.doubleToLongBits(ours.getTotalCount()))
        .isEqualTo(Double.doubleToLongBits(library.getTotalCount()));
    if (!library.isEmpty()) {
      assertThat(ours.getMinIndex()).isEqualTo(library.getMinIndex());
      assertThat(ours.getMaxIndex()).isEqualTo(library.getMaxIndex());
    }
    assertThat(descending(ours)).isEqualTo(descending(library));
    assertThat(ours.getAscendingStream().map(CompactCollapsingLowestStoreProperties::bin).toList())
        .isEqualTo(
            library.getAscendingStream().map(CompactCollapsingLowestStoreProperties::bin).toList());
    assertThat(ours.getDescendingStream().map(CompactCollapsingLowestStoreProperties::bin).toList())
        .isEqualTo(
            library
                .getDescendingStream()
                .map(CompactCollapsingLowestStoreProperties::bin)
                .toList());
    List<String> forEachOurs = new ArrayList<>();
    List<String> forEachLibrary = new ArrayList<>();
    ours.forEach((i, c) -> forEachOurs.add(i + ":" + c));
    library.forEach((i, c) -> forEachLibrary.add(i + ":" + c));
    assertThat(forEachOurs).isEqualTo(forEachLibrary);
    for (Flag.Type type : new Flag.Type[] {Flag.Type.POSITIVE_STORE, Flag.Type.NEGATIVE_STORE}) {
      assertThat(encode(ours, type)).isEqualTo(encode(library, type));
    }
    assertThat(ours.serializedSize()).isEqualTo(library.serializedSize());
    assertThat(serialize(ours)).isEqualTo(serialize(library));
  }

  /** The ascending iterator's bins (what quantile queries read), counts as exact bits. */
  private static List<String> bins(Store store) {
    List<String> out = new ArrayList<>();
    for (Iterator<Bin> it = store.getAscendingIterator(); it.hasNext(); ) {
      out.add(bin(it.next()));
    }
    return out;
  }

  private static List<String> descending(Store store) {
    List<String> out = new ArrayList<>();
    for (Iterator<Bin> it = store.getDescendingIterator(); it.hasNext(); ) {
      out.add(bin(it.next()));
    }
    return out;
  }

  private static String bin(Bin b) {
    return b.getIndex() + ":" + b.getCount();
  }

  private static byte[] encode(Store store, Flag.Type type) throws IOException {
    GrowingByteArrayOutput out = GrowingByteArrayOutput.withDefaultInitialCapacity();
    store.encode(out, type);
    return out.trimmedCopy();
  }

  private static byte[] serialize(Store store) {
    Serializer s = new Serializer(store.serializedSize());
    store.serialize(s);
    return s.getBuffer().array();
  }

  private static void decodeInto(Store store, byte[] bytes) throws IOException {
    Input in = ByteArrayInput.wrap(bytes);
    BinEncodingMode mode = BinEncodingMode.ofFlag(Flag.decode(in));
    store.decodeAndMergeWith(in, mode);
    assertThat(in.hasRemaining()).isFalse();
  }
}
