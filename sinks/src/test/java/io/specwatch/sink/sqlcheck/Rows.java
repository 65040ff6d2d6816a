package io.specwatch.sink.sqlcheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A TabSeparatedWithNames result as rows of column name to cell, with tolerant number checks. */
final class Rows {

  private final String label;
  private final List<Map<String, String>> rows = new ArrayList<>();

  Rows(String label, String tsvWithNames) {
    this.label = label;
    List<List<String>> cells = ClickHouseSql.parseTsv(tsvWithNames);
    if (cells.isEmpty()) {
      throw new AssertionError(label + ": no header in result");
    }
    List<String> header = cells.get(0);
    for (List<String> row : cells.subList(1, cells.size())) {
      Map<String, String> m = new LinkedHashMap<>();
      for (int i = 0; i < header.size(); i++) {
        m.put(header.get(i), row.get(i));
      }
      rows.add(m);
    }
  }

  int size() {
    return rows.size();
  }

  List<Map<String, String>> all() {
    return rows;
  }

  /** The one row whose columns equal the given values (key1, value1, key2, value2...). */
  Map<String, String> row(String... keyValues) {
    List<Map<String, String>> found = new ArrayList<>();
    for (Map<String, String> r : rows) {
      boolean match = true;
      for (int i = 0; i < keyValues.length; i += 2) {
        String cell = r.get(keyValues[i]);
        // DateTime64(3) prints .000: compare on the second
        if (cell != null && cell.endsWith(".000")) {
          cell = cell.substring(0, cell.length() - 4);
        }
        match &= keyValues[i + 1].equals(cell);
      }
      if (match) {
        found.add(r);
      }
    }
    assertThat(found)
        .as(label + ": rows matching " + List.of(keyValues) + " in " + rows)
        .hasSize(1);
    return found.get(0);
  }

  /** Asserts numeric cells (name1, value1, ...) within 1e-6 relative; null means SQL NULL. */
  static void assertNumbers(String label, Map<String, String> row, Object... nameValues) {
    for (int i = 0; i < nameValues.length; i += 2) {
      String name = (String) nameValues[i];
      Object expected = nameValues[i + 1];
      assertThat(row).as(label + ": column " + name).containsKey(name);
      String cell = row.get(name);
      if (expected == null) {
        assertThat(cell).as(label + ": " + name + " in " + row).isNull();
      } else if (expected instanceof String s) {
        assertThat(cell).as(label + ": " + name + " in " + row).isEqualTo(s);
      } else {
        double want = ((Number) expected).doubleValue();
        assertThat(cell).as(label + ": " + name + " in " + row).isNotNull();
        assertThat(Double.parseDouble(cell))
            .as(label + ": " + name + " in " + row)
            .isCloseTo(want, within(Math.max(1e-9, Math.abs(want) * 1e-6)));
      }
    }
  }
}
