package io.specwatch.streams;

import io.specwatch.schemas.WindowResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * Compares two sets of window-results records (record key and value) by their natural key
 * (deploymentId, promptCategory, batchBucket, windowStart, windowEnd): every key must appear
 * exactly once on each side and carry an identical value (every field, Avro equality). Field values
 * are not interpreted, so the comparison holds whatever metrics the topology computes.
 */
final class WindowResultsComparison {

  /** One window-results record as read from the topic. */
  record Keyed(String key, WindowResult value) {}

  private WindowResultsComparison() {}

  /** The natural key of a window result. */
  static String naturalKey(WindowResult r) {
    return r.getDeploymentId()
        + "|"
        + r.getPromptCategory()
        + "|"
        + r.getBatchBucket()
        + "|"
        + r.getWindowStart()
        + "|"
        + r.getWindowEnd();
  }

  /**
   * The differences between {@code expected} and {@code actual}, one line each (empty when they
   * match): duplicates on either side, keys missing or extra, values that differ (naming the
   * fields), record keys that are not the deployment id.
   */
  static List<String> differences(List<Keyed> expected, List<Keyed> actual) {
    List<String> out = new ArrayList<>();
    Map<String, WindowResult> exp = index("expected", expected, out);
    Map<String, WindowResult> act = index("actual", actual, out);
    for (Map.Entry<String, WindowResult> e : exp.entrySet()) {
      WindowResult a = act.get(e.getKey());
      if (a == null) {
        out.add("missing window " + e.getKey());
      } else if (!a.equals(e.getValue())) {
        out.add("window " + e.getKey() + " differs in " + differingFields(e.getValue(), a));
      }
    }
    for (String k : act.keySet()) {
      if (!exp.containsKey(k)) {
        out.add("extra window " + k);
      }
    }
    return out;
  }

  private static Map<String, WindowResult> index(
      String side, List<Keyed> records, List<String> out) {
    Map<String, WindowResult> m = new TreeMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (Keyed r : records) {
      if (!Objects.equals(r.key(), r.value().getDeploymentId())) {
        out.add(side + ": record key " + r.key() + " is not the deployment of " + r.value());
      }
      String k = naturalKey(r.value());
      counts.merge(k, 1, Integer::sum);
      m.putIfAbsent(k, r.value());
    }
    counts.forEach(
        (k, n) -> {
          if (n > 1) {
            out.add(side + ": window " + k + " emitted " + n + " times");
          }
        });
    return m;
  }

  /** Names and values of the fields where {@code a} and {@code b} differ. */
  static String differingFields(WindowResult a, WindowResult b) {
    List<String> fields = new ArrayList<>();
    for (Schema.Field f : WindowResult.getClassSchema().getFields()) {
      Object x = a.get(f.pos());
      Object y = b.get(f.pos());
      if (!Objects.equals(x, y)) {
        fields.add(f.name() + " " + x + " vs " + y);
      }
    }
    return String.join(", ", fields);
  }
}
