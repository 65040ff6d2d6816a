package io.specwatch.sink.dashboard;

import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.util.List;

/**
 * The dashboard's reads. Every read of a ReplacingMergeTree table uses {@code FINAL} (replays leave
 * duplicate keys until a merge). Values reach the SQL only as numbers (time bounds) or as escaped
 * string literals ({@link #literal(String)}), so a parameter cannot change a query's structure.
 * Only functions that ClickHouse 18.16 and modern servers share are used.
 */
public final class DashboardQueries {

  /** At most this many slices per request; more and the answer says {@code truncated}. */
  public static final int MAX_SLICES = 50_000;

  private final ClickHouseSql sql;
  private final String database;

  public DashboardQueries(ClickHouseSql sql, String database) {
    this.sql = sql;
    this.database = database;
  }

  /** Deployments with their window count and first/last window (epoch seconds), by name. */
  public record Deployment(String id, long windows, long firstWindow, long lastWindowEnd) {}

  public List<Deployment> deployments() {
    return parseDeployments(sql.queryTsvWithNames(deploymentsSql(database)));
  }

  /** The deployments query (FINAL). */
  public static String deploymentsSql(String database) {
    return "SELECT deployment_id, uniqExact(window_start) AS windows,"
        + " toUInt32(min(window_start)) AS first_window,"
        + " toUInt32(max(window_end)) AS last_window_end FROM "
        + database
        + ".window_results FINAL GROUP BY deployment_id ORDER BY deployment_id";
  }

  /** Rows of {@link #deploymentsSql} (header first) as deployments. */
  public static List<Deployment> parseDeployments(List<List<String>> rows) {
    return rows.stream()
        .skip(1)
        .map(
            r ->
                new Deployment(
                    r.get(0),
                    Long.parseLong(r.get(1)),
                    Long.parseLong(r.get(2)),
                    Long.parseLong(r.get(3))))
        .toList();
  }

  /** The slices of one deployment's windows starting in the range, by window start. */
  List<SliceRow> slices(String deployment, TimeRange range) {
    return parseSlices(sql.queryTsvWithNames(slicesSql(database, deployment, range)));
  }

  /** The slices query (FINAL), at most {@link #MAX_SLICES} + 1 rows. */
  public static String slicesSql(String database, String deployment, TimeRange range) {
    return "SELECT "
        + SliceRow.selectList()
        + " FROM "
        + database
        + ".window_results FINAL WHERE deployment_id = "
        + literal(deployment)
        + " AND "
        + range.condition("window_start")
        + " ORDER BY window_start, prompt_category, batch_bucket, spec_enabled LIMIT "
        + (MAX_SLICES + 1);
  }

  static List<SliceRow> parseSlices(List<List<String>> rows) {
    return rows.stream().skip(1).map(SliceRow::fromTsv).toList();
  }

  /** The {@code /api/windows} body for rows of {@link #slicesSql} (header first). */
  public static byte[] windowsJson(String deployment, TimeRange range, List<List<String>> rows) {
    List<SliceRow> slices = parseSlices(rows);
    boolean truncated = slices.size() > MAX_SLICES;
    if (truncated) {
      slices = slices.subList(0, MAX_SLICES);
    }
    return DashboardJson.windows(
        deployment, range, truncated, WindowSeries.summary(slices), WindowSeries.points(slices));
  }

  /** The {@code /api/windows} body. */
  public byte[] windowsJson(String deployment, TimeRange range) {
    return windowsJson(
        deployment, range, sql.queryTsvWithNames(slicesSql(database, deployment, range)));
  }

  /** An alert state change (raise or clear) of one deployment. */
  public record Alert(
      String alertId,
      String type,
      String state,
      long windowStart,
      String emittedAt,
      String metric,
      Double observed,
      Double reference,
      Double pValue,
      String attributedChange,
      String message) {}

  /** Alerts of a deployment whose window starts in the range, by window start then emit time. */
  public List<Alert> alerts(String deployment, TimeRange range) {
    return parseAlerts(sql.queryTsvWithNames(alertsSql(database, deployment, range)));
  }

  /** The alerts query (FINAL). */
  public static String alertsSql(String database, String deployment, TimeRange range) {
    return "SELECT alert_id, type, state, toUInt32(window_start) AS t, toString(toDateTime(emitted_at)) AS"
        + " emitted, metric, observed, reference, p_value, attributed_change, message FROM "
        + database
        + ".alerts FINAL WHERE deployment_id = "
        + literal(deployment)
        + " AND "
        + range.condition("window_start")
        + " ORDER BY window_start, emitted_at, alert_id LIMIT 1000";
  }

  /** Rows of {@link #alertsSql} (header first) as alerts. */
  public static List<Alert> parseAlerts(List<List<String>> rows) {
    return rows.stream()
        .skip(1)
        .map(
            r ->
                new Alert(
                    r.get(0),
                    r.get(1),
                    r.get(2),
                    Long.parseLong(r.get(3)),
                    r.get(4),
                    r.get(5),
                    SliceRow.number(r.get(6)),
                    SliceRow.number(r.get(7)),
                    SliceRow.number(r.get(8)),
                    r.get(9),
                    r.get(10)))
        .toList();
  }

  /** A single-quoted ClickHouse string literal; backslash and quote escaped, control chars too. */
  static String literal(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('\'');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\'' -> out.append("\\'");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\0' -> out.append("\\0");
        default -> out.append(c);
      }
    }
    return out.append('\'').toString();
  }
}
