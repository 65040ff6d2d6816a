package io.specwatch.sink.rows;

import java.util.Arrays;
import java.util.Map;

/** An Avro map as two parallel arrays (keys, values), keys sorted so a row's bytes are stable. */
final class MapColumns {

  private MapColumns() {}

  static void write(String prefix, Map<String, String> map, ColumnWriter out) {
    // sorted key array instead of a TreeMap copy: this runs once per decode event (hot path)
    String[] keys = map.keySet().toArray(new String[0]);
    Arrays.sort(keys);
    String[] values = new String[keys.length];
    for (int i = 0; i < keys.length; i++) {
      values[i] = map.get(keys[i]);
    }
    out.stringArray(prefix + "_keys", Arrays.asList(keys));
    out.stringArray(prefix + "_values", Arrays.asList(values));
  }
}
