package io.specwatch.sink.sqlcheck;

import static io.specwatch.sink.sqlcheck.Outcomes.rows;
import static io.specwatch.sink.sqlcheck.Rows.assertNumbers;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.rollup.Rollups;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;

/**
 * The rollups of {@link SqlCompatibilityIT}: the hourly and daily window rollups from the
 * materialized views and after a rebuild, and the hourly request rollup, with their expected
 * values.
 */
final class RollupCheck {

  private static final YearMonth MONTH = YearMonth.of(2026, 3);

  private RollupCheck() {}

  /** The rollups before and after a rebuild of the fixtures' month, run after the fixtures. */
  static List<Statement> statements(String db) {
    List<Statement> out = new ArrayList<>();
    out.add(Statement.query("hourly before rebuild", hourly()));
    Rollups.rebuildStatements(db, MONTH).forEach(s -> out.add(Statement.exec("rebuild", s)));
    out.add(Statement.query("hourly after rebuild", hourly()));
    out.add(
        Statement.query(
            "daily after rebuild",
            "SELECT * FROM window_daily ORDER BY deployment_id, prompt_category, period_start"));
    out.add(
        Statement.query(
            "request hourly",
            "SELECT deployment_id, prompt_category, model, draft_model_version, period_start,"
                + " requests, output_tokens, verify_cycles, tau, no_acceptance_requests"
                + " FROM request_hourly ORDER BY deployment_id, prompt_category, period_start"));
    return out;
  }

  private static String hourly() {
    return "SELECT * FROM window_hourly ORDER BY deployment_id, prompt_category, period_start";
  }

  /** The duplicate row counts twice before a rebuild, once after; the spec sides stay apart. */
  static void checkWindows(String e, List<Outcome> outcomes) {
    // The duplicate 02:17 chat row counts twice before a rebuild (documented), once after.
    Rows before = rows(outcomes, "hourly before rebuild");
    assertNumbers(
        e + "before rebuild",
        before.row(
            "deployment_id",
            "kimi-eagle3",
            "prompt_category",
            "chat",
            "period_start",
            "2026-03-14 02:00:00"),
        "windows",
        3,
        "cycles",
        700);
    Rows hourly = rows(outcomes, "hourly after rebuild");
    assertThat(hourly.size()).as(e + "hourly rows").isEqualTo(5);
    assertNumbers(
        e + "hourly",
        hourly.row(
            "deployment_id",
            "kimi-eagle3",
            "prompt_category",
            "chat",
            "period_start",
            "2026-03-14 02:00:00"),
        "windows",
        2,
        "cycles",
        400,
        "events",
        40,
        "tau",
        2.3,
        "tau_min",
        2.0,
        "mean_cycle_ms",
        30.0,
        "effective_tok_s",
        76.5,
        "baseline_tok_s",
        82.0,
        "break_even_tau",
        2.5,
        "speedup",
        0.92,
        "below_break_even_windows",
        2,
        "verify_ms_p99_max",
        31.0,
        "late_events",
        1);
    assertNumbers(
        e + "hourly without tau",
        hourly.row(
            "deployment_id",
            "kimi-eagle3",
            "prompt_category",
            "chat",
            "period_start",
            "2026-03-14 03:00:00"),
        "windows",
        1,
        "cycles",
        200,
        "tau",
        null,
        "tau_min",
        null,
        "speedup",
        null);
    assertNumbers(
        e + "hourly untouched by the rebuild",
        hourly.row("deployment_id", "llama-eagle3", "period_start", "2026-03-14 02:00:00"),
        "windows",
        1,
        "cycles",
        50,
        "tau",
        4.0,
        "speedup",
        1.68);
    assertThat(hourly.row("deployment_id", "llama-eagle3", "period_start", "2026-03-14 02:00:00"))
        .as(e + "a rebuild reproduces what the materialized view computed")
        .isEqualTo(
            before.row("deployment_id", "llama-eagle3", "period_start", "2026-03-14 02:00:00"));
    // V013: the plain 03:05 window has its own rollup row (before V013 it was merged into the
    // speculative one: windows 3, cycles 600)
    Rows daily = rows(outcomes, "daily after rebuild");
    assertNumbers(
        e + "daily",
        daily.row(
            "deployment_id",
            "kimi-eagle3",
            "prompt_category",
            "chat",
            "spec_enabled",
            "1",
            "period_start",
            "2026-03-14 00:00:00"),
        "windows",
        2,
        "cycles",
        400,
        "tau_cycles",
        400,
        "tau",
        2.3);
    assertNumbers(
        e + "daily plain side",
        daily.row(
            "deployment_id",
            "kimi-eagle3",
            "prompt_category",
            "chat",
            "spec_enabled",
            "0",
            "period_start",
            "2026-03-14 00:00:00"),
        "windows",
        1,
        "cycles",
        200,
        "tau",
        null);
  }

  /** The hourly request rollup. */
  static void checkRequests(String e, List<Outcome> outcomes) {
    Rows requests = rows(outcomes, "request hourly");
    assertNumbers(
        e + "request rollup",
        requests.row(
            "deployment_id",
            "kimi-eagle3",
            "prompt_category",
            "chat",
            "draft_model_version",
            "v1",
            "period_start",
            "2026-03-14 02:00:00"),
        "model",
        "kimi-k2.5",
        "requests",
        8,
        "verify_cycles",
        745,
        "tau",
        1270.0 / 745,
        "no_acceptance_requests",
        2);
  }
}
