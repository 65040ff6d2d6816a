package io.specwatch.sink.sqlcheck;

import static io.specwatch.sink.sqlcheck.Outcomes.outcome;
import static io.specwatch.sink.sqlcheck.Outcomes.rows;
import static io.specwatch.sink.sqlcheck.Rows.assertNumbers;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.WindowQueries;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The demo's report SQL (scripts/demo-sql/*.sql) and the {@code sink windows} / WindowQueries reads
 * of {@link SqlCompatibilityIT}: their statements and their exact expected values.
 */
final class DemoReportCheck {

  private DemoReportCheck() {}

  /**
   * The demo's report (scripts/demo-sql/*.sql, filled in as scripts/demo.sh fills them) and the
   * {@code sink windows} / WindowQueries reads, on fixtures/demo_report.sql (loaded last: it adds
   * window rows the figures of the other checks do not count).
   */
  static List<Statement> statements(String db) {
    List<Statement> out = new ArrayList<>();
    Fixtures.statements("demo_report.sql", db)
        .forEach(f -> out.add(Statement.exec("fixture demo_report.sql", f)));
    String report = demoSql("report.sql");
    out.add(Statement.query("demo report", report));
    // demo.sh reads the verdicts it checks against the manifest this way
    out.add(Statement.query("demo verdicts", "SELECT deployment, verdict FROM (" + report + "\n)"));
    out.add(Statement.query("demo alerts", demoSql("alerts.sql")));
    out.add(Statement.query("demo raised", demoSql("raised.sql")));
    out.add(Statement.query("demo no-data", demoSql("no-data.sql")));
    out.add(
        Statement.query(
            "windows b-below", WindowQueries.windowsSql(db, Optional.of("b-below"), 100)));
    out.add(
        Statement.query(
            "windows limit", WindowQueries.windowsSql(db, Optional.of("a-healthy"), 1)));
    out.add(
        Statement.query(
            "windows all columns", WindowQueries.allColumnsSql(db, Optional.of("b-below"))));
    out.add(Statement.query("windows count final", WindowQueries.countFinalSql(db)));
    out.add(Statement.query("windows distinct keys", WindowQueries.distinctKeysSql(db)));
    out.add(Statement.query("windows count raw", WindowQueries.countRawSql(db)));
    return out;
  }

  private static final String DEMO_FROM = "2026-05-01 00:00:00";
  private static final String DEMO_TO = "2026-05-01 00:30:00";

  /** scripts/demo-sql/FILE with the placeholders demo.sh fills, for the fixture's run. */
  static String demoSql(String file) {
    String sql;
    try {
      sql = Files.readString(ChdbEngine.repoRoot().resolve("scripts/demo-sql").resolve(file));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // as scripts/demo.sh: W_RUN / A_RUN select the run's topics, RANGE its window starts
    String range =
        "window_start >= toDateTime('"
            + DEMO_FROM
            + "', 'UTC') AND window_start < toDateTime('"
            + DEMO_TO
            + "', 'UTC')";
    return sql.strip()
        .replace("${W_RUN}", "kafka_topic = 'demo.wr'")
        .replace("${A_RUN}", "kafka_topic = 'demo.al'")
        .replace("${RANGE}", range)
        .replace("${FROM}", DEMO_FROM)
        .replace("${TO}", DEMO_TO);
  }

  /** fixtures/demo_report.sql through the demo's report SQL and WindowQueries: exact values. */
  static void check(String e, List<Outcome> outcomes) {
    Rows report = rows(outcomes, "demo report");
    assertThat(report.all().stream().map(r -> r.get("deployment")).toList())
        .as(e + "demo report: one row per deployment with cycles in the run's last 10 minutes")
        .containsExactly("a-healthy", "b-below", "c-collapse", "d-nobase", "e-plain");
    // a-healthy: 00:20 (100 cycles) and the newer 00:21 row (300 cycles); not the replaced
    // 00:21 version, the chat row, nor the other run's 00:26 window
    assertNumbers(
        e + "demo a-healthy",
        report.row("deployment", "a-healthy"),
        "spec",
        1,
        "tau",
        3.3,
        "tok_s",
        330.0,
        "baseline_tok_s",
        150.0,
        "tau_star",
        1.5,
        "speedup",
        2.3,
        "verdict",
        "healthy 2.3x");
    // b-below: only 00:25; 00:05 is more than 600 s before the run's newest window
    assertNumbers(
        e + "demo b-below",
        report.row("deployment", "b-below"),
        "tau",
        2.2,
        "tok_s",
        68.0,
        "baseline_tok_s",
        82.0,
        "tau_star",
        2.5,
        "speedup",
        0.79,
        "verdict",
        "speculation costs throughput (S=0.79)");
    assertNumbers(
        e + "demo c-collapse",
        report.row("deployment", "c-collapse"),
        "tau",
        1.0,
        "speedup",
        0.6,
        "verdict",
        "drafter broken: tau 1");
    assertNumbers(
        e + "demo d-nobase",
        report.row("deployment", "d-nobase"),
        "tau",
        2.5,
        "tok_s",
        100.0,
        "baseline_tok_s",
        null,
        "tau_star",
        null,
        "speedup",
        null,
        "verdict",
        "no baseline yet");
    assertNumbers(
        e + "demo e-plain",
        report.row("deployment", "e-plain"),
        "spec",
        0,
        "tau",
        null,
        "tok_s",
        82.0,
        "baseline_tok_s",
        82.0,
        "speedup",
        null,
        "verdict",
        "plain decoding (the baseline)");
    assertThat(outcome(outcomes, "demo verdicts").text())
        .as(e + "demo verdicts")
        .isEqualTo(
            "deployment\tverdict\n"
                + "a-healthy\thealthy 2.3x\n"
                + "b-below\tspeculation costs throughput (S=0.79)\n"
                + "c-collapse\tdrafter broken: tau 1\n"
                + "d-nobase\tno baseline yet\n"
                + "e-plain\tplain decoding (the baseline)\n");
    assertThat(outcome(outcomes, "demo alerts").text())
        .as(e + "demo alerts: first raise per deployment and type, FINAL, in range, no NO_DATA")
        .isEqualTo(
            "deployment\ttype\tfirst_window\tevidence\tattributed_change\n"
                + "b-below\tSPEC_BELOW_BASELINE\t2026-05-01 00:25:00\tspeedup observed 0.79 vs 1\t\n"
                + "c-collapse\tREGRESSION\t2026-05-01 00:22:00"
                + "\tverifyMsP50 observed 28.4 vs 19.1 p=1.4e-5\tenv NCCL_P2P_LEVEL removed\n");
    assertThat(
            outcome(outcomes, "demo raised")
                .text()
                .lines()
                .skip(1) // header
                .sorted()
                .toList())
        .as(e + "demo raised")
        .containsExactly(
            "b-below SPEC_BELOW_BASELINE", "c-collapse NO_DATA", "c-collapse REGRESSION");
    assertThat(outcome(outcomes, "demo no-data").text().lines().skip(1).toList())
        .as(e + "demo no-data")
        .containsExactly("1");

    assertThat(outcome(outcomes, "windows b-below").text())
        .as(e + "sink windows --deployment b-below")
        .isEqualTo(
            "deployment_id\tprompt_category\tbatch_bucket\twindow_start\twindow_end\tevents"
                + "\tcycles\ttau\taccept_rate\tcycle_ms\ttok_s\tspeedup\n"
                + "b-below\t*\t*\t2026-05-01 00:05:00\t2026-05-01 00:06:00\t10\t1000\t5"
                + "\t\\N\t20\t500\t6\n"
                + "b-below\t*\t*\t2026-05-01 00:25:00\t2026-05-01 00:26:00\t20\t200\t2.2"
                + "\t\\N\t30.4\t68\t0.79\n");
    Rows limited = rows(outcomes, "windows limit");
    assertThat(limited.size()).as(e + "windows --limit 1").isEqualTo(1);
    assertNumbers(
        e + "windows --limit 1",
        limited.all().get(0),
        "window_start",
        "2026-05-01 00:20:00",
        "prompt_category",
        "*",
        "tau",
        3.0);
    Rows all = rows(outcomes, "windows all columns");
    assertThat(all.size()).as(e + "all columns rows").isEqualTo(2);
    assertNumbers(
        e + "all columns",
        all.all().get(1),
        "mean_accept_length",
        2.2,
        "baseline_source",
        null,
        "kafka_topic",
        "demo.wr",
        "kafka_offset",
        2);
    // window_results.sql 7 rows (6 keys), the spec-sides pair, demo_report.sql 11 rows (10 keys)
    assertThat(outcome(outcomes, "windows count final").text())
        .as(e + "countFinal")
        .isEqualTo("c\n18\n");
    assertThat(outcome(outcomes, "windows distinct keys").text())
        .as(e + "distinctKeys")
        .isEqualTo("c\n18\n");
    // raw rows: 18.16 keeps both versions of a key inserted in one block until a merge (20); the
    // modern engine applies ReplacingMergeTree to each inserted block (optimize_on_insert, on by
    // default since 21.x), so the fixtures' in-block replays are gone at once (18)
    assertThat(outcome(outcomes, "windows count raw").text())
        .as(e + "countRaw")
        .isEqualTo(e.startsWith("chdb") ? "c\n18\n" : "c\n20\n");
  }
}
