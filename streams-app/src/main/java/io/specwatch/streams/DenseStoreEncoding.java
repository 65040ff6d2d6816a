package io.specwatch.streams;

import com.datadoghq.sketch.ddsketch.encoding.BinEncodingMode;
import com.datadoghq.sketch.ddsketch.encoding.Flag;
import com.datadoghq.sketch.ddsketch.encoding.Output;
import com.datadoghq.sketch.ddsketch.encoding.VarEncodingHelper;
import java.io.IOException;

/**
 * The bin encoding of sketches-java 0.8.3's {@code DenseStore.encode} (Datadog, Apache License
 * 2.0), re-stated over a plain array of counts so that {@link CompactCollapsingLowestStore} writes
 * the library's bytes: the dense encoding or the sparse one, whichever is shorter. Variable names
 * follow the library's. {@code CompactCollapsingLowestStoreProperties} compares the bytes with the
 * library's store over random inputs.
 */
final class DenseStoreEncoding {

  private DenseStoreEncoding() {}

  /**
   * Encodes the bins in {@code counts[first..last]} (both inclusive, at least one slot), slot
   * {@code i} holding the count of bin index {@code offset + i}.
   */
  static void encode(
      Output output, Flag.Type storeFlagType, double[] counts, int first, int last, int offset)
      throws IOException {
    final int minIndex = offset + first;
    long denseEncodingSize = 0;
    final long numBins = (long) last - (long) first + 1;
    denseEncodingSize += VarEncodingHelper.unsignedVarLongEncodedLength(numBins);
    denseEncodingSize += VarEncodingHelper.signedVarLongEncodedLength(minIndex);
    denseEncodingSize += VarEncodingHelper.signedVarLongEncodedLength(1);
    long sparseEncodingSize = 0;
    long numNonEmptyBins = 0;
    long previousIndex = 0;
    for (int i = first; i <= last; i++) {
      final double count = counts[i];
      final long countLength = VarEncodingHelper.varDoubleEncodedLength(count);
      denseEncodingSize += countLength;
      if (count != 0) {
        numNonEmptyBins++;
        final long index = offset + i;
        sparseEncodingSize += VarEncodingHelper.signedVarLongEncodedLength(index - previousIndex);
        sparseEncodingSize += countLength;
        previousIndex = index;
      }
    }
    if (denseEncodingSize <= sparseEncodingSize) {
      BinEncodingMode.CONTIGUOUS_COUNTS.toFlag(storeFlagType).encode(output);
      VarEncodingHelper.encodeUnsignedVarLong(output, numBins);
      VarEncodingHelper.encodeSignedVarLong(output, minIndex);
      VarEncodingHelper.encodeSignedVarLong(output, 1);
      for (int i = first; i <= last; i++) {
        VarEncodingHelper.encodeVarDouble(output, counts[i]);
      }
    } else {
      BinEncodingMode.INDEX_DELTAS_AND_COUNTS.toFlag(storeFlagType).encode(output);
      VarEncodingHelper.encodeUnsignedVarLong(output, numNonEmptyBins);
      previousIndex = 0;
      for (int i = first; i <= last; i++) {
        final double count = counts[i];
        if (count != 0) {
          final long index = offset + i;
          VarEncodingHelper.encodeSignedVarLong(output, index - previousIndex);
          VarEncodingHelper.encodeVarDouble(output, count);
          previousIndex = index;
        }
      }
    }
  }
}
