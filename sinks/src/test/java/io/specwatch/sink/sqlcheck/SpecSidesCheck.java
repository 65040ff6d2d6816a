package io.specwatch.sink.sqlcheck;

import static io.specwatch.sink.sqlcheck.Outcomes.rows;
import static io.specwatch.sink.sqlcheck.Rows.assertNumbers;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.cookbook.Cookbook;
import io.specwatch.sink.rollup.Rollups;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** V013's spec sides in {@link SqlCompatibilityIT}: the statements and the expected values. */
final class SpecSidesCheck {

  private SpecSidesCheck() {}

  /**
   * V013: a deployment toggled between speculative and plain inside one hour (April, run after the
   * cookbook queries so their figures stay as they are): one rollup row per spec side, from the
   * materialized view and from a rebuild alike, and the trend / speculation queries read only the
   * speculative side.
   */
  static List<Statement> statements(String db) {
    List<Statement> out = new ArrayList<>();
    out.add(
        Statement.exec(
            "spec sides fixture",
            "INSERT INTO "
                + db
                + ".window_results (deployment_id, prompt_category, batch_bucket, window_start,"
                + " window_end, events, cycles, requests, spec_enabled, mean_accept_length,"
                + " accepted_tokens, drafted_tokens, per_position_acceptance,"
                + " per_position_conditional, speedup, late_events, kafka_topic, kafka_partition,"
                + " kafka_offset, inserted_at) VALUES"
                + " ('toggle-1', 'chat', '1', '2026-04-02 01:10:00', '2026-04-02 01:11:00', 10,"
                + " 100, 2, 1, 2.0, 100, 200, [0.6], [0.6], 1.2, 0, 'wr', 0, 100,"
                + " '2026-04-02 01:12:00'),"
                + " ('toggle-1', 'chat', '1', '2026-04-02 01:10:00', '2026-04-02 01:11:00', 30,"
                + " 300, 3, 0, NULL, 0, 0, [], [], NULL, 0, 'wr', 0, 101,"
                + " '2026-04-02 01:12:00')"));
    String hourly =
        "SELECT spec_enabled, windows, cycles, tau, speedup FROM "
            + db
            + ".window_hourly WHERE deployment_id = 'toggle-1' ORDER BY spec_enabled";
    out.add(Statement.query("spec sides hourly", hourly));
    Rollups.rebuildStatements(db, YearMonth.of(2026, 4))
        .forEach(s -> out.add(Statement.exec("spec sides rebuild", s)));
    out.add(Statement.query("spec sides hourly after rebuild", hourly));
    out.add(
        Statement.query(
            "spec sides daily",
            "SELECT spec_enabled, windows, cycles, tau FROM "
                + db
                + ".window_daily WHERE deployment_id = 'toggle-1' ORDER BY spec_enabled"));
    Map<String, String> toggle = Map.of("deployment", "toggle-1");
    out.add(
        Statement.query(
            "spec sides trend", Cookbook.bundled().get("acceptance_trend").render(toggle)));
    out.add(
        Statement.query(
            "spec sides speculation",
            Cookbook.bundled().get("speculation_vs_baseline").render(toggle)));
    return out;
  }

  /** See {@link #statements}: the old rollup key merged both rows into one (400 cycles). */
  static void check(String e, List<Outcome> outcomes) {
    for (String label : List.of("spec sides hourly", "spec sides hourly after rebuild")) {
      Rows sides = rows(outcomes, label);
      assertThat(sides.size()).as(e + label + ": one row per spec side").isEqualTo(2);
      assertNumbers(
          e + label,
          sides.row("spec_enabled", "1"),
          "windows",
          1,
          "cycles",
          100,
          "tau",
          2.0,
          "speedup",
          1.2);
      assertNumbers(
          e + label,
          sides.row("spec_enabled", "0"),
          "windows",
          1,
          "cycles",
          300,
          "tau",
          null,
          "speedup",
          null);
    }
    Rows daily = rows(outcomes, "spec sides daily");
    assertThat(daily.size()).as(e + "spec sides daily").isEqualTo(2);
    assertNumbers(e + "spec sides daily", daily.row("spec_enabled", "0"), "cycles", 300);
    Rows trend = rows(outcomes, "spec sides trend");
    assertThat(trend.size()).as(e + "spec sides trend rows").isEqualTo(1);
    assertNumbers(
        e + "spec sides trend",
        trend.row("deployment_id", "toggle-1", "day", "2026-04-02"),
        "cycles",
        100,
        "tau",
        2.0);
    Rows spec = rows(outcomes, "spec sides speculation");
    assertThat(spec.size()).as(e + "spec sides speculation rows").isEqualTo(1);
    assertNumbers(
        e + "spec sides speculation",
        spec.row("deployment_id", "toggle-1", "hour", "2026-04-02 01:00:00"),
        "windows",
        1,
        "cycles",
        100,
        "tau",
        2.0,
        "speedup",
        1.2);
  }
}
