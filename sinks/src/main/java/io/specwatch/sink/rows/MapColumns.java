package io.specwatch.sink.rows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** An Avro map as two parallel arrays (keys, values), keys sorted so a row's bytes are stable. */
final class MapColumns {

  private MapColumns() {}

  static void write(String prefix, Map<String, String> map, ColumnWriter out) {
    List<String> keys = new ArrayList<>(map.size());
    List<String> values = new ArrayList<>(map.size());
    for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
      keys.add(e.getKey());
      values.add(e.getValue());
    }
    out.stringArray(prefix + "_keys", keys);
    out.stringArray(prefix + "_values", values);
  }
}
