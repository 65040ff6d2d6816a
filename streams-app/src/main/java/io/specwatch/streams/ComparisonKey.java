package io.specwatch.streams;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a speculative window is compared against: the same target model on the same hardware class
 * and tensor-parallel size, at the same batch-size bucket (DOMAIN.md: t_AR depends strongly on the
 * batch size). Text form {@code model|hardwareClass|tp|bucket}, used as the repartition and store
 * key; a {@code |} or {@code \} inside the model or hardware class is written {@code \|} or {@code
 * \\}, so {@link #parse} reads back exactly the key {@link #toString} wrote (also in a static
 * baseline entry: {@code my\|model|8xH100|8|*=20}).
 *
 * @param model target model (RunContext.model), leading and trailing blanks removed; not blank
 * @param hardwareClass RunContext.hardwareClass, else {@code <gpuCount>x<gpuModel>}, stripped alike
 * @param tp tensor-parallel size, at least 1
 * @param bucket {@link BatchBuckets} name, or {@code *} in a static baseline matching any bucket
 */
public record ComparisonKey(String model, String hardwareClass, int tp, String bucket) {
  public ComparisonKey {
    model = Objects.requireNonNull(model, "model").strip();
    hardwareClass = Objects.requireNonNull(hardwareClass, "hardwareClass").strip();
    bucket = Objects.requireNonNull(bucket, "bucket").strip();
    if (model.isEmpty() || hardwareClass.isEmpty() || bucket.isEmpty()) {
      throw new IllegalArgumentException(
          "comparison key has an empty part: model '"
              + model
              + "', hardwareClass '"
              + hardwareClass
              + "', bucket '"
              + bucket
              + "'");
    }
    if (tp < 1) {
      throw new IllegalArgumentException("tp must be at least 1, got " + tp);
    }
  }

  /** This key with another bucket. */
  public ComparisonKey withBucket(String other) {
    return new ComparisonKey(model, hardwareClass, tp, other);
  }

  /**
   * Parses {@code model|hardwareClass|tp|bucket} ({@code \|} and {@code \\} inside a part stand for
   * {@code |} and {@code \}); IllegalArgumentException when malformed.
   */
  public static ComparisonKey parse(String text) {
    List<String> parts = split(text);
    if (parts == null || parts.size() != 4) {
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
      tp = Integer.parseInt(parts.get(2).strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("tp must be an integer in '" + text + "'", e);
    }
    if (tp < 1) {
      throw new IllegalArgumentException("tp must be at least 1 in '" + text + "'");
    }
    String bucket = parts.get(3).strip();
    if (!bucket.equals(BatchBuckets.ALL) && !BatchBuckets.isBucket(bucket)) {
      throw new IllegalArgumentException(
          "bucket must be one of " + BatchBuckets.NAMES + " or * in '" + text + "'");
    }
    return new ComparisonKey(parts.get(0), parts.get(1), tp, bucket);
  }

  /**
   * The parts of {@code text} split at unescaped {@code |}, unescaped; null on a dangling {@code
   * \}.
   */
  private static List<String> split(String text) {
    List<String> parts = new ArrayList<>(4);
    StringBuilder part = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        if (i + 1 == text.length()) {
          return null;
        }
        part.append(text.charAt(++i));
      } else if (c == '|') {
        parts.add(part.toString());
        part.setLength(0);
      } else {
        part.append(c);
      }
    }
    parts.add(part.toString());
    return parts;
  }

  private static String escape(String part) {
    return part.indexOf('|') < 0 && part.indexOf('\\') < 0
        ? part
        : part.replace("\\", "\\\\").replace("|", "\\|");
  }

  @Override
  public String toString() {
    return escape(model) + "|" + escape(hardwareClass) + "|" + tp + "|" + escape(bucket);
  }
}
