package io.specwatch.sink.sqlcheck;

import io.specwatch.sink.clickhouse.ClickHouseFailure;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.util.ArrayList;
import java.util.List;

/**
 * A real ClickHouse server over HTTP (the tests' 18.16 container), through {@link ClickHouseSql}.
 */
final class ClickHouseServerEngine implements SqlEngine {

  private final ClickHouseSql sql;
  private final String version;

  ClickHouseServerEngine(ClickHouseSql sql) {
    this.sql = sql;
    this.version = sql.serverVersion();
  }

  @Override
  public String name() {
    return "ClickHouse " + version;
  }

  @Override
  public List<Outcome> run(String database, List<Statement> statements) {
    List<Outcome> out = new ArrayList<>();
    for (Statement s : statements) {
      if (!s.nativeParams().isEmpty()) {
        throw new IllegalArgumentException(
            "ClickHouse 18.16 has no query parameters: " + s.label());
      }
      try {
        if (s.query()) {
          out.add(new Outcome(s, true, tsv(sql.queryTsvWithNames(s.sql(), database)), null));
        } else {
          sql.execute(s.sql());
          out.add(new Outcome(s, true, "", null));
        }
      } catch (ClickHouseFailure e) {
        out.add(new Outcome(s, false, "", e.getMessage()));
      }
    }
    return out;
  }

  /** Back to TabSeparated text, so both engines' outcomes are compared the same way. */
  private static String tsv(List<List<String>> rows) {
    StringBuilder b = new StringBuilder();
    for (List<String> row : rows) {
      b.append(
              String.join(
                  "\t",
                  row.stream()
                      .map(c -> c == null ? "\\N" : c.replace("\\", "\\\\").replace("\t", "\\t"))
                      .toList()))
          .append('\n');
    }
    return b.toString();
  }
}
