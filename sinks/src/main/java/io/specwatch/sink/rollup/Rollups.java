package io.specwatch.sink.rollup;

import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;

/**
 * The hourly and daily rollups: {@code window_rollup_hourly/daily} over {@code window_results}
 * (migration V010, per deployment, prompt category and batch bucket; V013 adds the spec side,
 * {@code spec_enabled}) and {@code request_rollup_hourly/daily} over {@code request_acceptance}
 * (V011, per deployment, prompt category, model and draft-model version). Each is an
 * AggregatingMergeTree fed by a materialized view and read through a view ({@code window_hourly},
 * {@code window_daily}, {@code request_hourly}, {@code request_daily}).
 *
 * <p>A materialized view sees every inserted block, so a replayed batch counts twice in a rollup
 * although the base table read with FINAL shows it once. {@link #rebuild} makes a month exact
 * again: it drops the month's partition of every rollup table and recomputes it from the base table
 * with FINAL, with the same expressions as the views (SqlCompatibilityIT pins that both agree).
 * Rows inserted into that month while a rebuild runs may be counted twice; run it when the month is
 * quiet or with the sink stopped.
 */
public final class Rollups {

  /** One rollup table: its base table, time column, period function and SELECT list. */
  public record Rollup(
      String table,
      String source,
      String timeColumn,
      String periodFunction,
      String columns,
      String groupBy) {}

  private static final String WINDOW_COLUMNS =
      "deployment_id, prompt_category, batch_bucket, spec_enabled,"
          + " %s(window_start) AS period_start,"
          + " countState() AS windows_state,"
          + " sumState(events) AS events_state,"
          + " sumState(cycles) AS cycles_state,"
          + " sumState(requests) AS requests_state,"
          + " sumState(accepted_tokens) AS accepted_tokens_state,"
          + " sumState(drafted_tokens) AS drafted_tokens_state,"
          + " sumState(late_events) AS late_events_state,"
          + weighted("mean_accept_length", "tau")
          + " minState(toFloat64(ifNull(mean_accept_length, inf))) AS tau_min_state,"
          + weighted("mean_cycle_ms", "cycle_ms")
          + weighted("effective_tok_s_per_request", "tok_s")
          + weighted("baseline_tok_s", "baseline_tok_s")
          + weighted("break_even_accept_length", "break_even")
          + weighted("speedup", "speedup")
          + " sumState(toUInt64(ifNull(accept_margin, 0) < 0)) AS below_break_even_windows_state,"
          + " maxState(toFloat64(ifNull(verify_ms_p99, 0))) AS verify_ms_p99_max_state";

  private static final String REQUEST_COLUMNS =
      "deployment_id, ifNull(prompt_category, '') AS prompt_category, ifNull(model, '') AS model,"
          + " ifNull(draft_model_version, '') AS draft_model_version,"
          + " %s(finished_at) AS period_start,"
          + " countState() AS requests_state,"
          + " sumState(output_tokens) AS output_tokens_state,"
          + " sumState(verify_cycles) AS verify_cycles_state,"
          + " sumState(toInt64(ifNull(accepted_tokens, 0))) AS accepted_tokens_state,"
          + " sumState(toInt64(ifNull(drafted_tokens, 0))) AS drafted_tokens_state,"
          + " sumState(accept_length * verify_cycles) AS tau_x_cycles_state,"
          + " quantilesTDigestState(0.1, 0.5, 0.9)(accept_length) AS tau_quantiles_state,"
          + " sumState(toUInt64(accept_length <= 1.0)) AS no_acceptance_requests_state";

  public static final List<Rollup> ALL =
      List.of(
          window("window_rollup_hourly", "toStartOfHour"),
          window("window_rollup_daily", "toStartOfDay"),
          request("request_rollup_hourly", "toStartOfHour"),
          request("request_rollup_daily", "toStartOfDay"));

  private final ClickHouseSql sql;
  private final String database;

  public Rollups(ClickHouseSql sql, String database) {
    this.sql = sql;
    this.database = database;
  }

  /** Recomputes every rollup for one month from its base table read with FINAL. */
  public void rebuild(YearMonth month) {
    rebuildStatements(database, month).forEach(sql::execute);
  }

  /** The statements {@link #rebuild} runs, in order. */
  public static List<String> rebuildStatements(String database, YearMonth month) {
    String partition = String.format("%04d%02d", month.getYear(), month.getMonthValue());
    List<String> out = new ArrayList<>();
    for (Rollup r : ALL) {
      String table = database + "." + r.table();
      out.add("ALTER TABLE " + table + " DROP PARTITION " + partition);
      out.add(
          "INSERT INTO "
              + table
              + " SELECT "
              + r.columns()
              + " FROM "
              + database
              + "."
              + r.source()
              + " FINAL WHERE toYYYYMM("
              + r.timeColumn()
              + ") = "
              + partition
              + " GROUP BY "
              + r.groupBy());
    }
    return List.copyOf(out);
  }

  private static Rollup window(String table, String period) {
    return new Rollup(
        table,
        "window_results",
        "window_start",
        period,
        String.format(WINDOW_COLUMNS, period),
        "deployment_id, prompt_category, batch_bucket, spec_enabled, period_start");
  }

  private static Rollup request(String table, String period) {
    return new Rollup(
        table,
        "request_acceptance",
        "finished_at",
        period,
        String.format(REQUEST_COLUMNS, period),
        "deployment_id, prompt_category, model, draft_model_version, period_start");
  }

  private static String weighted(String column, String name) {
    return " sumState(if(isNull("
        + column
        + "), toInt64(0), cycles)) AS "
        + name
        + "_cycles_state, sumState(toFloat64(ifNull("
        + column
        + ", 0) * cycles)) AS "
        + name
        + "_x_cycles_state,";
  }
}
