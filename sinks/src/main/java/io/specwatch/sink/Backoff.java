package io.specwatch.sink;

import java.time.Duration;

/**
 * Bounded exponential backoff for retriable insert failures: attempt n waits {@code initial *
 * 2^(n-1)}, capped at {@code max}; after {@code maxAttempts} the sink gives up and exits non-zero
 * with the batch's offsets uncommitted (a restart replays them; the table is idempotent). The
 * default (200 ms doubling to 10 s, 60 attempts) rides out about 9.5 minutes of ClickHouse being
 * unavailable, during which the sink keeps its group membership with partitions paused.
 */
public record Backoff(Duration initial, Duration max, int maxAttempts) {

  public static final Backoff DEFAULT =
      new Backoff(Duration.ofMillis(200), Duration.ofSeconds(10), 60);

  public Backoff {
    if (initial == null || initial.isNegative() || initial.isZero()) {
      throw new IllegalArgumentException("--retry-initial must be positive, got: " + initial);
    }
    if (max == null || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("--retry-max must be >= --retry-initial, got: " + max);
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("--retry-attempts must be >= 1, got: " + maxAttempts);
    }
  }

  /** Wait before retry number {@code attempt} (1 = first retry). */
  public Duration delay(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt starts at 1: " + attempt);
    }
    int shift = Math.min(attempt - 1, 30);
    long millis = initial.toMillis() << shift;
    return millis <= 0 || millis > max.toMillis() ? max : Duration.ofMillis(millis);
  }
}
