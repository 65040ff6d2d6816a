package io.specwatch.streams;

import java.util.List;
import java.util.Optional;

/**
 * Batch-size buckets of the window breakdowns and of the baseline comparison key, by running
 * requests: {@code 1, 2-4, 5-8, 9-16, 17-32, 33-64, 65-128, 129+}. Powers of two because MoE decode
 * step time grows roughly with the log of the batch at small batches; a bucket is narrow enough
 * that t_AR inside it varies little. {@link #ALL} ({@code *}) is the row over every batch size.
 */
public final class BatchBuckets {
  /** The "all batch sizes" (and "all prompt categories") marker. */
  public static final String ALL = "*";

  /** Inclusive upper bounds of every bucket but the last. */
  private static final int[] UPPER = {1, 4, 8, 16, 32, 64, 128};

  /** Bucket names, in order. */
  public static final List<String> NAMES =
      List.of("1", "2-4", "5-8", "9-16", "17-32", "33-64", "65-128", "129+");

  private BatchBuckets() {}

  /** The bucket of {@code runningRequests}; 0 and below count as 1 (an idle pass). */
  public static String of(int runningRequests) {
    for (int i = 0; i < UPPER.length; i++) {
      if (runningRequests <= UPPER[i]) {
        return NAMES.get(i);
      }
    }
    return NAMES.get(NAMES.size() - 1);
  }

  /** The bucket of a mean batch size (rounded half up), or empty when unknown. */
  public static Optional<String> ofMean(Double meanBatchSize) {
    if (meanBatchSize == null || !Double.isFinite(meanBatchSize)) {
      return Optional.empty();
    }
    long rounded = Math.round(meanBatchSize);
    return Optional.of(of((int) Math.min(Integer.MAX_VALUE, rounded)));
  }

  /** Whether {@code name} is a bucket name (not {@link #ALL}). */
  public static boolean isBucket(String name) {
    return NAMES.contains(name);
  }
}
