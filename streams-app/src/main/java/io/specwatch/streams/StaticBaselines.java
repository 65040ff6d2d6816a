package io.specwatch.streams;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Configured baselines: t_AR in ms per comparison key. A key with bucket {@code *} applies to every
 * bucket without its own entry. Parsed from {@code model|hardwareClass|tp|bucket=stepMs} entries
 * (option {@code --static-baseline}); a malformed entry fails naming the setting.
 *
 * @param stepMs t_AR in ms by key text
 */
public record StaticBaselines(Map<String, Double> stepMs) {
  /** The setting name in messages. */
  public static final String SETTING = "static-baseline";

  public StaticBaselines {
    stepMs = Map.copyOf(stepMs == null ? Map.of() : stepMs);
  }

  /** No static baselines. */
  public static StaticBaselines none() {
    return new StaticBaselines(Map.of());
  }

  /** Parses entries {@code model|hardwareClass|tp|bucket=stepMs}. */
  public static StaticBaselines parse(List<String> entries) {
    Map<String, Double> m = new TreeMap<>();
    for (String entry : entries == null ? List.<String>of() : entries) {
      int eq = entry.lastIndexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException(
            SETTING + " must be model|hardwareClass|tp|bucket=stepMs, got '" + entry + "'");
      }
      ComparisonKey key;
      try {
        key = ComparisonKey.parse(entry.substring(0, eq));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(SETTING + ": " + e.getMessage(), e);
      }
      double ms;
      try {
        ms = Double.parseDouble(entry.substring(eq + 1).strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            SETTING + " step time must be a number of ms in '" + entry + "'", e);
      }
      if (!Double.isFinite(ms) || ms <= 0) {
        throw new IllegalArgumentException(
            SETTING + " step time must be positive in '" + entry + "'");
      }
      if (m.put(key.toString(), ms) != null) {
        throw new IllegalArgumentException(SETTING + " lists " + key + " twice");
      }
    }
    return new StaticBaselines(m);
  }

  /** The step time for {@code key}: its own entry, else its model/hardware/tp with bucket *. */
  public Optional<Double> lookup(ComparisonKey key) {
    Double exact = stepMs.get(key.toString());
    if (exact != null) {
      return Optional.of(exact);
    }
    return Optional.ofNullable(stepMs.get(key.withBucket(BatchBuckets.ALL).toString()));
  }
}
