package io.specwatch.sink;

import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.rows.WindowResultRows;
import java.util.List;
import java.util.Optional;

/**
 * Reads window rows back. Every read uses {@code FINAL}: replays insert duplicate natural keys that
 * ReplacingMergeTree only collapses at merge time, and FINAL collapses them at read time.
 */
public final class WindowQueries {

  /** Columns the {@code windows} command prints. */
  static final String SUMMARY_COLUMNS =
      "deployment_id, prompt_category, batch_bucket, window_start, window_end, events, cycles,"
          + " round(mean_accept_length, 3) AS tau, round(accept_rate, 3) AS accept_rate,"
          + " round(mean_cycle_ms, 2) AS cycle_ms, round(effective_tok_s_per_request, 1) AS tok_s,"
          + " round(speedup, 3) AS speedup";

  private final ClickHouseSql sql;
  private final String database;

  public WindowQueries(ClickHouseSql sql, String database) {
    this.sql = sql;
    this.database = database;
  }

  /** Summary rows (header first), optionally for one deployment, ordered by deployment, start. */
  public List<List<String>> windows(Optional<String> deploymentId, int limit) {
    return sql.queryTsvWithNames(windowsSql(database, deploymentId, limit));
  }

  /** All columns of every row (header first), FINAL, in key order. */
  public List<List<String>> allColumns(Optional<String> deploymentId) {
    return sql.queryTsvWithNames(allColumnsSql(database, deploymentId));
  }

  /** Rows as seen by readers (FINAL): duplicates of a natural key count once. */
  public long countFinal() {
    return number(countFinalSql(database));
  }

  /** Distinct natural keys, computed without FINAL. */
  public long distinctKeys() {
    return number(distinctKeysSql(database));
  }

  /** Physical rows, duplicates included (before merges): shows what FINAL hides. */
  public long countRaw() {
    return number(countRawSql(database));
  }

  // The SQL of each read (public: SqlCompatibilityIT runs it on 18.16 and chdb).

  /** The SQL of {@link #windows}. */
  public static String windowsSql(String database, Optional<String> deploymentId, int limit) {
    return "SELECT "
        + SUMMARY_COLUMNS
        + " FROM "
        + table(database)
        + " FINAL"
        + where(deploymentId)
        + " ORDER BY deployment_id, window_start, prompt_category, batch_bucket LIMIT "
        + limit;
  }

  /** The SQL of {@link #allColumns}. */
  public static String allColumnsSql(String database, Optional<String> deploymentId) {
    return "SELECT * FROM "
        + table(database)
        + " FINAL"
        + where(deploymentId)
        + " ORDER BY deployment_id, window_start, prompt_category, batch_bucket";
  }

  /** The SQL of {@link #countFinal}. */
  public static String countFinalSql(String database) {
    return "SELECT count() AS c FROM " + table(database) + " FINAL";
  }

  /** The SQL of {@link #distinctKeys}. */
  public static String distinctKeysSql(String database) {
    return "SELECT uniqExact(deployment_id, prompt_category, batch_bucket, spec_enabled,"
        + " window_start) AS c FROM "
        + table(database);
  }

  /** The SQL of {@link #countRaw}. */
  public static String countRawSql(String database) {
    return "SELECT count() AS c FROM " + table(database);
  }

  private static String table(String database) {
    return database + "." + WindowResultRows.TABLE;
  }

  /** The window table as text. */
  public String windowsTable(Optional<String> deploymentId, int limit) {
    return TextTable.format(windows(deploymentId, limit));
  }

  private long number(String select) {
    return Long.parseLong(sql.queryTsvWithNames(select).get(1).get(0));
  }

  static String where(Optional<String> deploymentId) {
    return deploymentId.map(d -> " WHERE deployment_id = '" + escape(d) + "'").orElse("");
  }

  /** Escapes a value for a single-quoted ClickHouse string literal. */
  static String escape(String value) {
    return value.replace("\\", "\\\\").replace("'", "\\'");
  }
}
