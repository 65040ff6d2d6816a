package io.specwatch.sink;

import java.time.Instant;
import java.util.Objects;

/**
 * A replay of the Kafka record-time range {@code [from, to)}: every partition starts at the first
 * record whose timestamp is at or after {@code from} ({@code offsetsForTimes}) and stops before the
 * first record at or after {@code to} (or at the end offset seen at assignment).
 */
public record ReplayRange(Instant from, Instant to) {

  public ReplayRange {
    Objects.requireNonNull(from, "--from is required");
    Objects.requireNonNull(to, "--to is required");
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException("--from must be before --to, got " + from + " / " + to);
    }
  }
}
