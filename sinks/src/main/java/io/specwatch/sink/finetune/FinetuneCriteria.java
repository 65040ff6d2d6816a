package io.specwatch.sink.finetune;

import java.time.Instant;
import java.util.Optional;

/**
 * What {@code select-finetune} selects from {@code request_acceptance}: requests finished in {@code
 * [from, to)}, optionally of one deployment / model / draft-model version, with at least {@code
 * minOutputTokens} output tokens, whose tau is below {@code maxRelativeTau} times their category's
 * median; at most {@code limit} of them, balanced across categories. Validated on construction,
 * messages name the option.
 */
public record FinetuneCriteria(
    Instant from,
    Instant to,
    Optional<String> deployment,
    Optional<String> model,
    Optional<String> draftModelVersion,
    long minOutputTokens,
    int limit,
    double maxRelativeTau) {

  public static final long DEFAULT_MIN_OUTPUT_TOKENS = 32;
  public static final int DEFAULT_LIMIT = 1000;
  public static final double DEFAULT_MAX_RELATIVE_TAU = 1.0;

  public FinetuneCriteria {
    if (from == null || to == null || !from.isBefore(to)) {
      throw new IllegalArgumentException("--from must be before --to, got " + from + " .. " + to);
    }
    deployment = blankToEmpty(deployment);
    model = blankToEmpty(model);
    draftModelVersion = blankToEmpty(draftModelVersion);
    if (minOutputTokens < 1) {
      throw new IllegalArgumentException(
          "--min-output-tokens must be >= 1, got " + minOutputTokens);
    }
    if (limit < 1) {
      throw new IllegalArgumentException("--limit must be >= 1, got " + limit);
    }
    if (!(maxRelativeTau > 0) || Double.isInfinite(maxRelativeTau)) {
      throw new IllegalArgumentException(
          "--max-relative-tau must be a positive number, got " + maxRelativeTau);
    }
  }

  private static Optional<String> blankToEmpty(Optional<String> value) {
    return value == null ? Optional.empty() : value.filter(v -> !v.isBlank()).map(String::strip);
  }
}
