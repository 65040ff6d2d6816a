package io.specwatch.ingest.parse.context;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Typed reads of values from {@link PyRepr} maps; a wrong type reads as absent. */
public final class EngineArgs {

  private EngineArgs() {}

  public static String text(Map<String, Object> m, String key) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    String s = String.valueOf(v).strip();
    return s.isEmpty() ? null : s;
  }

  public static Integer positiveInt(Map<String, Object> m, String key) {
    Object v = m.get(key);
    if (v instanceof Long l && l >= 0 && l <= Integer.MAX_VALUE) {
      return l.intValue();
    }
    return null;
  }

  public static Boolean bool(Map<String, Object> m, String key) {
    return m.get(key) instanceof Boolean b ? b : null;
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> map(Map<String, Object> m, String key) {
    return m.get(key) instanceof Map<?, ?> inner ? (Map<String, Object>) inner : null;
  }

  /** Every value as text (None as "None"), for rawFields. */
  public static Map<String, String> raw(Map<String, Object> m) {
    Map<String, String> out = new LinkedHashMap<>();
    m.forEach((k, v) -> out.put(k, v == null ? "None" : String.valueOf(v)));
    return out;
  }

  /** The listed keys that are present, as text, for {@code extra}. */
  public static Map<String, String> selected(Map<String, Object> m, List<String> keys) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String k : keys) {
      if (m.containsKey(k)) {
        Object v = m.get(k);
        out.put(k, v == null ? "None" : String.valueOf(v));
      }
    }
    return out;
  }
}
