package io.specwatch.sink.sqlcheck;

import java.util.List;
import java.util.Map;

/**
 * Somewhere to run a list of SQL statements in order, in one session: the real ClickHouse 18.16
 * server or chdb (ClickHouse 26.x). Failures are outcomes, not exceptions, so a test can report
 * every failing statement at once.
 */
interface SqlEngine {

  /** A statement; queries return TabSeparatedWithNames text, others nothing. */
  record Statement(String label, String sql, boolean query, Map<String, String> nativeParams) {

    static Statement exec(String label, String sql) {
      return new Statement(label, sql, false, Map.of());
    }

    static Statement query(String label, String sql) {
      return new Statement(label, sql, true, Map.of());
    }

    /** A query run with server-side parameters ({@code {name:Type}} left in the SQL). */
    static Statement bound(String label, String sql, Map<String, String> params) {
      return new Statement(label, sql, true, params);
    }
  }

  record Outcome(Statement statement, boolean ok, String text, String error) {}

  String name();

  /** Runs all statements in order with {@code database} as the default database. */
  List<Outcome> run(String database, List<Statement> statements);
}
