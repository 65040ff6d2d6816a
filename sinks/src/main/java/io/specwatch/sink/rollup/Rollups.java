package io.specwatch.sink.rollup;

import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;

/**
 * The hourly and daily rollups of {@code window_results} (migration V010): AggregatingMergeTree
 * tables {@code window_rollup_hourly} / {@code window_rollup_daily} fed by materialized views, read
 * through the views {@code window_hourly} / {@code window_daily}.
 *
 * <p>The materialized views see every inserted block, so a replayed batch counts twice in a rollup
 * although {@code window_results FINAL} shows it once. {@link #rebuild} makes a month exact again:
 * it drops the month's partitions of both rollup tables and recomputes them from {@code
 * window_results FINAL} with the same expressions the views use (a test pins that the two agree).
 * Rows inserted into that month while a rebuild runs may be counted twice; run it when the month is
 * quiet (e.g. the day after it ended) or stop the sink for the moment.
 */
public final class Rollups {

  /** Rollup tables, in the order {@link #rebuild} recomputes them, with their period function. */
  public static final List<List<String>> TABLES =
      List.of(
          List.of("window_rollup_hourly", "toStartOfHour"),
          List.of("window_rollup_daily", "toStartOfDay"));

  private final ClickHouseSql sql;
  private final String database;

  public Rollups(ClickHouseSql sql, String database) {
    this.sql = sql;
    this.database = database;
  }

  /** Recomputes both rollups for one month from {@code window_results FINAL}. */
  public void rebuild(YearMonth month) {
    rebuildStatements(database, month).forEach(sql::execute);
  }

  /** The statements {@link #rebuild} runs, in order. */
  public static List<String> rebuildStatements(String database, YearMonth month) {
    String partition = String.format("%04d%02d", month.getYear(), month.getMonthValue());
    List<String> out = new ArrayList<>();
    for (List<String> t : TABLES) {
      String table = database + "." + t.get(0);
      out.add("ALTER TABLE " + table + " DROP PARTITION " + partition);
      out.add(
          "INSERT INTO "
              + table
              + " "
              + select(t.get(1), database)
              + " FINAL WHERE toYYYYMM(window_start) = "
              + partition
              + " GROUP BY deployment_id, prompt_category, batch_bucket, period_start");
    }
    return List.copyOf(out);
  }

  /** The views' SELECT up to and including {@code FROM <db>.window_results}. */
  static String select(String periodFunction, String database) {
    return "SELECT deployment_id, prompt_category, batch_bucket, "
        + periodFunction
        + "(window_start) AS period_start,"
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
        + " maxState(toFloat64(ifNull(verify_ms_p99, 0))) AS verify_ms_p99_max_state"
        + " FROM "
        + database
        + ".window_results";
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
