package io.specwatch.streams;

import java.util.Objects;

/**
 * What a speculative window is compared against: the same target model on the same hardware class
 * and tensor-parallel size, at the same batch-size bucket (DOMAIN.md: t_AR depends strongly on the
 * batch size). Text form {@code model|hardwareClass|tp|bucket}, used as the repartition and store
 * key.
 *
 * @param model target model (RunContext.model)
 * @param hardwareClass RunContext.hardwareClass, else {@code <gpuCount>x<gpuModel>}
 * @param tp tensor-parallel size
 * @param bucket {@link BatchBuckets} name, or {@code *} in a static baseline matching any bucket
 */
public record ComparisonKey(String model, String hardwareClass, int tp, String bucket) {
  public ComparisonKey {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(hardwareClass, "hardwareClass");
    Objects.requireNonNull(bucket, "bucket");
  }

  /** This key with another bucket. */
  public ComparisonKey withBucket(String other) {
    return new ComparisonKey(model, hardwareClass, tp, other);
  }

  /** Parses {@code model|hardwareClass|tp|bucket}; IllegalArgumentException when malformed. */
  public static ComparisonKey parse(String text) {
    String[] parts = text.split("\\|", -1);
    if (parts.length != 4) {
      throw new IllegalArgumentException(
          "comparison key must be model|hardwareClass|tp|bucket, got '" + text + "'");
    }
    for (String p : parts) {
      if (p.isBlank()) {
        throw new IllegalArgumentException("comparison key has an empty part: '" + text + "'");
      }
    }
    int tp;
    try {
      tp = Integer.parseInt(parts[2].strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("tp must be an integer in '" + text + "'", e);
    }
    if (tp < 1) {
      throw new IllegalArgumentException("tp must be at least 1 in '" + text + "'");
    }
    String bucket = parts[3].strip();
    if (!bucket.equals(BatchBuckets.ALL) && !BatchBuckets.isBucket(bucket)) {
      throw new IllegalArgumentException(
          "bucket must be one of " + BatchBuckets.NAMES + " or * in '" + text + "'");
    }
    return new ComparisonKey(parts[0].strip(), parts[1].strip(), tp, bucket);
  }

  @Override
  public String toString() {
    return model + "|" + hardwareClass + "|" + tp + "|" + bucket;
  }
}
