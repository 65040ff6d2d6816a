package io.specwatch.ingest.scrape;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One sample line of the Prometheus text exposition format.
 *
 * @param name metric name including any suffix ({@code _total}, {@code _bucket}...)
 * @param labels label names to unescaped values, sorted by name
 * @param value the value (NaN and infinities allowed)
 * @param valueText the value exactly as printed, for rawFields
 * @param timestampMs optional sample timestamp, null when absent
 */
public record PromSample(
    String name, Map<String, String> labels, double value, String valueText, Long timestampMs) {

  public PromSample {
    Objects.requireNonNull(name, "name");
    labels = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(labels));
    Objects.requireNonNull(valueText, "valueText");
  }

  /** Label value or null. */
  public String label(String key) {
    return labels.get(key);
  }
}
