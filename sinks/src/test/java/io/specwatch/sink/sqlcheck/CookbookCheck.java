package io.specwatch.sink.sqlcheck;

import static io.specwatch.sink.sqlcheck.Outcomes.rows;
import static io.specwatch.sink.sqlcheck.Rows.assertNumbers;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.cookbook.Cookbook;
import io.specwatch.sink.cookbook.CookbookQuery;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Every bundled cookbook query in {@link SqlCompatibilityIT}, with its expected values. */
final class CookbookCheck {

  private CookbookCheck() {}

  /**
   * Every cookbook query with substituted literals ({@code cookbook NAME}) and, where the engine
   * has server-side parameters, bound as well ({@code bound NAME}).
   */
  static List<Statement> statements(boolean nativeBinding) {
    List<Statement> out = new ArrayList<>();
    for (CookbookQuery q : Cookbook.bundled().queries()) {
      out.add(Statement.query("cookbook " + q.name(), q.render(Map.of())));
      if (nativeBinding) {
        out.add(Statement.bound("bound " + q.name(), q.sql(), q.nativeParams(Map.of())));
      }
    }
    return out;
  }

  /** Trend, speculation vs baseline, per-position decay, category / batch and verify ms. */
  static void checkAcceptance(String e, List<Outcome> outcomes) {
    Rows trend = rows(outcomes, "cookbook acceptance_trend");
    assertThat(trend.size()).as(e + "trend rows").isEqualTo(3);
    assertNumbers(
        e + "trend",
        trend.row("deployment_id", "kimi-eagle3", "day", "2026-03-14"),
        "cycles",
        500, // speculative windows only (the plain 03:05 window's 200 cycles are not counted)
        "tau",
        2.44,
        "prev_day_tau",
        null,
        "change",
        null);
    assertNumbers(
        e + "trend",
        trend.row("deployment_id", "kimi-eagle3", "day", "2026-03-15"),
        "cycles",
        400,
        "tau",
        2.5,
        "prev_day_tau",
        2.44,
        "change",
        0.06);
    assertNumbers(
        e + "trend", trend.row("deployment_id", "llama-eagle3", "day", "2026-03-14"), "tau", 4.0);

    Rows spec = rows(outcomes, "cookbook speculation_vs_baseline");
    // the 03:00 hour holds only a plain window: not listed (speculative side only)
    assertThat(spec.size()).as(e + "speculation rows").isEqualTo(3);
    assertNumbers(
        e + "speculation",
        spec.row("deployment_id", "kimi-eagle3", "hour", "2026-03-14 02:00:00"),
        "windows",
        3,
        "cycles",
        500,
        "tau",
        2.44,
        "tau_star",
        2.4,
        "margin",
        0.04,
        "effective_tok_s",
        85.2,
        "baseline_tok_s",
        82.0,
        "speedup",
        1.028,
        "below_break_even_windows",
        2,
        "verdict",
        "faster");
    assertThat(spec.all())
        .as(e + "speculation: no row for the plain-only hour")
        .noneMatch(r -> "2026-03-14 03:00:00".equals(r.get("hour")));

    Rows decay = rows(outcomes, "cookbook per_position_decay");
    assertThat(decay.size()).as(e + "decay rows").isEqualTo(4);
    assertNumbers(
        e + "decay",
        decay.row("deployment_id", "kimi-eagle3", "position", "1"),
        "windows",
        4,
        "total_cycles",
        900,
        "acceptance",
        0.8,
        "conditional",
        0.8,
        "relative_to_position_1",
        1.0);
    assertNumbers(
        e + "decay",
        decay.row("deployment_id", "kimi-eagle3", "position", "2"),
        "acceptance",
        0.6333,
        "conditional",
        0.7878,
        "relative_to_position_1",
        0.7917);

    Rows cat = rows(outcomes, "cookbook acceptance_by_category_batch");
    assertThat(cat.size()).as(e + "category rows").isEqualTo(3);
    assertNumbers(
        e + "category",
        cat.row("deployment_id", "kimi-eagle3", "prompt_category", "chat", "batch_bucket", "1"),
        "windows",
        4,
        "total_cycles",
        1000,
        "tau",
        2.4,
        "accepted_per_drafted",
        0.7,
        "speedup",
        1.005,
        "below_break_even_windows",
        2);

    Rows verify = rows(outcomes, "cookbook verify_ms_by_run_context");
    assertNumbers(
        e + "verify",
        verify.row("deployment_id", "kimi-eagle3", "run_context", "rc-nccl-ok"),
        "windows",
        3,
        "total_cycles",
        600,
        "verify_ms_p50",
        18.83,
        "verify_ms_p95",
        20.0,
        "verify_ms_p99",
        29.0);
    assertNumbers(
        e + "verify",
        verify.row("deployment_id", "kimi-eagle3", "run_context", "rc-nccl-lost"),
        "verify_ms_p50",
        28.0,
        "verify_ms_p95",
        29.0,
        "verify_ms_p99",
        31.0);
  }

  /** Trend by draft model, run contexts and alert history. */
  static void checkModelsContextsAndAlerts(String e, List<Outcome> outcomes) {
    Rows byModel = rows(outcomes, "cookbook acceptance_trend_by_model");
    assertNumbers(
        e + "trend by model",
        byModel.row(
            "deployment_id", "kimi-eagle3", "draft_model_version", "v2", "day", "2026-03-14"),
        "requests",
        3,
        "tau",
        0.0 + Math.round(10000.0 * (1.0 * 100 + 2.0 * 50 + 3.0 * 40) / 190) / 10000.0,
        "tau_p50",
        2.0,
        "prev_day_tau",
        null);
    Rows contexts = rows(outcomes, "cookbook verify_ms_by_run_context");
    assertNumbers(
        e + "contexts",
        contexts.row("run_context", "rc-nccl-ok"),
        "cuda_graph",
        "on",
        "nccl_env",
        "NCCL_P2P_LEVEL=NVL",
        "engine_commit",
        "abc123",
        "verify_ms_p50",
        18.83);
    assertNumbers(
        e + "contexts",
        contexts.row("run_context", "rc-nccl-lost"),
        "cuda_graph",
        "off",
        "nccl_env",
        "",
        "engine_commit",
        "def456",
        "verify_ms_p50",
        28.0);
    Rows alerts = rows(outcomes, "cookbook alert_history");
    assertThat(alerts.size()).as(e + "alerts").isEqualTo(3);
    assertNumbers(
        e + "alerts",
        alerts.row("type", "REGRESSION"),
        "state",
        "RAISED",
        "observed_value",
        28.0,
        "reference_value",
        19.0,
        "p_value",
        0.001,
        "attributed_change",
        "env NCCL_P2P_LEVEL removed");
  }
}
