package io.specwatch.sink.sqlcheck;

import static io.specwatch.sink.sqlcheck.Rows.assertNumbers;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.WindowQueries;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.sink.cookbook.Cookbook;
import io.specwatch.sink.cookbook.CookbookQuery;
import io.specwatch.sink.finetune.FinetuneCriteria;
import io.specwatch.sink.finetune.FinetuneSelector;
import io.specwatch.sink.migrate.Migration;
import io.specwatch.sink.migrate.MigrationLoader;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.sink.rollup.Rollups;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Instant;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Every migration statement, the rollup rebuild and every cookbook query run against the real
 * ClickHouse 18.16 server (the tests' container, through the Migrator itself) and against chdb
 * (ClickHouse 26.x, the MODERN rendering), on the same known rows (fixtures/window_results.sql),
 * with the same exact expected values.
 */
class SqlCompatibilityIT {

  private static final YearMonth MONTH = YearMonth.of(2026, 3);

  private static final FinetuneCriteria FINETUNE =
      new FinetuneCriteria(
          Instant.parse("2026-03-14T00:00:00Z"),
          Instant.parse("2026-03-15T00:00:00Z"),
          Optional.of("kimi-eagle3"),
          Optional.empty(),
          Optional.empty(),
          32,
          10,
          1.0);

  @Test
  void legacyServerRunsEveryMigrationRollupAndCookbookQuery() {
    String db = SpecwatchContainers.uniqueName("it_sqlcompat");
    ClickHouseConfig config =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      assertThat(sql.dialect())
          .isEqualTo(
              SqlDialect.of(
                  io.specwatch.sink.clickhouse.ServerVersion.parse(
                      SpecwatchContainers.clickhouseVersion())));
      Migrator migrator = Migrator.withBundledMigrations(sql, db);
      assertThat(migrator.migrate()).isEqualTo(allVersions());
      assertThat(migrator.migrate()).isEmpty();
      ClickHouseServerEngine engine = new ClickHouseServerEngine(sql);
      List<Outcome> outcomes = engine.run(db, scenario(db, false));
      check(engine.name(), outcomes);
    }
  }

  @Test
  void modernEngineRunsEveryMigrationRollupAndCookbookQuery() {
    String db = "it_sqlcompat_modern";
    List<Statement> statements = new ArrayList<>();
    statements.add(Statement.exec("schema_migrations", Migrator.createMigrationsTable(db)));
    for (Migration m : MigrationLoader.loadDefault()) {
      List<String> rendered = m.statements(db, SqlDialect.MODERN);
      for (int i = 0; i < rendered.size(); i++) {
        statements.add(
            Statement.exec("V" + m.version() + " statement " + (i + 1), rendered.get(i)));
      }
    }
    statements.add(
        Statement.query("window_results DDL", "SHOW CREATE TABLE " + db + ".window_results"));
    // The fixtures' fixed 2026-03 times pass the modern tables' TTLs as the calendar moves on
    // (decode_events 90 days, window_results and request_acceptance 400, hourly rollups 800,
    // daily 1830), and a modern server drops expired rows as it writes the part: without the TTLs
    // (checked in the DDL above) the figures do not depend on today's date.
    for (String table :
        List.of(
            "decode_events",
            "window_results",
            "request_acceptance",
            "window_rollup_hourly",
            "window_rollup_daily",
            "request_rollup_hourly",
            "request_rollup_daily")) {
      statements.add(
          Statement.exec("no TTL " + table, "ALTER TABLE " + db + "." + table + " REMOVE TTL"));
    }
    statements.addAll(scenario(db, true));
    ChdbEngine engine = new ChdbEngine();
    List<Outcome> outcomes = engine.run(db, statements);
    assertAllOk(engine.name(), outcomes);
    String ddl = outcome(outcomes, "window_results DDL").text();
    assertThat(ddl)
        .as("modern rendering uses the modern types and features")
        .contains("LowCardinality(String)")
        .contains("DateTime64(3, \\'UTC\\')")
        .contains("CODEC(DoubleDelta, ZSTD(1))")
        .contains("TTL window_start + toIntervalDay(400)")
        .contains("non_replicated_deduplication_window = 1000");
    check(
        engine.name(),
        outcomes.subList(statements.size() - scenario(db, true).size(), outcomes.size()));
    // server-side binding ({name:Type} as ClickHouse parameters) gives the same rows as
    // substitution
    for (CookbookQuery q : Cookbook.bundled().queries()) {
      assertThat(outcome(outcomes, "bound " + q.name()).text())
          .as(q.name() + ": bound parameters vs substituted literals")
          .isEqualTo(outcome(outcomes, "cookbook " + q.name()).text());
    }
  }

  private static List<Integer> allVersions() {
    return MigrationLoader.loadDefault().stream().map(Migration::version).toList();
  }

  /** Fixture rows, rollup checks (before and after a rebuild), every cookbook query. */
  private static List<Statement> scenario(String db, boolean nativeBinding) {
    List<Statement> out = new ArrayList<>();
    for (String file : Fixtures.ALL) {
      Fixtures.statements(file, db).forEach(f -> out.add(Statement.exec("fixture " + file, f)));
    }
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
    out.add(Statement.query("finetune funnel", FinetuneSelector.funnelQuery(db, FINETUNE)));
    out.add(Statement.query("finetune medians", FinetuneSelector.mediansQuery(db, FINETUNE)));
    out.add(Statement.query("finetune candidates", FinetuneSelector.candidatesQuery(db, FINETUNE)));
    for (CookbookQuery q : Cookbook.bundled().queries()) {
      out.add(Statement.query("cookbook " + q.name(), q.render(Map.of())));
      if (nativeBinding) {
        out.add(Statement.bound("bound " + q.name(), q.sql(), q.nativeParams(Map.of())));
      }
    }
    out.addAll(specSides(db));
    out.addAll(demoReport(db));
    return out;
  }

  /**
   * The demo's report (scripts/demo-sql/*.sql, filled in as scripts/demo.sh fills them) and the
   * {@code sink windows} / WindowQueries reads, on fixtures/demo_report.sql (loaded last: it adds
   * window rows the cookbook figures above do not count).
   */
  private static List<Statement> demoReport(String db) {
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

  /**
   * V013: a deployment toggled between speculative and plain inside one hour (April, after the
   * cookbook queries above so their figures stay as they are): one rollup row per spec side, from
   * the materialized view and from a rebuild alike, and the trend / speculation queries read only
   * the speculative side.
   */
  private static List<Statement> specSides(String db) {
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

  /** fixtures/demo_report.sql through the demo's report SQL and WindowQueries: exact values. */
  private static void checkDemoReport(String e, List<Outcome> outcomes) {
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

  private static String hourly() {
    return "SELECT * FROM window_hourly ORDER BY deployment_id, prompt_category, period_start";
  }

  private static void assertAllOk(String engine, List<Outcome> outcomes) {
    List<String> failed = new ArrayList<>();
    for (Outcome o : outcomes) {
      if (!o.ok()) {
        failed.add(o.statement().label() + ": " + o.error() + "\n  SQL: " + o.statement().sql());
      }
    }
    assertThat(failed).as(engine + ": failed statements").isEmpty();
  }

  private static Outcome outcome(List<Outcome> outcomes, String label) {
    return outcomes.stream()
        .filter(o -> o.statement().label().equals(label))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no outcome " + label));
  }

  private static Rows rows(List<Outcome> outcomes, String label) {
    return new Rows(label, outcome(outcomes, label).text());
  }

  /** The expected values, the same on both engines (numbers compared within 1e-6). */
  private static void check(String engine, List<Outcome> outcomes) {
    assertAllOk(engine, outcomes);
    String e = engine + " ";
    checkDemoReport(e, outcomes);

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

    assertNumbers(
        e + "finetune funnel",
        rows(outcomes, "finetune funnel").all().get(0),
        "requests",
        14,
        "too_short",
        1,
        "no_prompt",
        1,
        "eligible",
        12,
        "prompts",
        11);
    Rows medians = rows(outcomes, "finetune medians");
    assertNumbers(
        e + "medians", medians.row("category", "chat"), "median_tau", 2.2, "candidates", 5);
    assertNumbers(
        e + "medians", medians.row("category", "code"), "median_tau", 3.5, "candidates", 3);
    Rows candidates = rows(outcomes, "finetune candidates");
    assertThat(candidates.all())
        .extracting(r -> r.get("request_id"))
        .as(e + "finetune candidates, per category worst first")
        .containsExactly("r1", "r6", "r8", "r10");
    assertNumbers(
        e + "candidate",
        candidates.row("request_id", "r1"),
        "duplicates",
        2,
        "tau",
        1.2,
        "prompt_hash",
        "h1",
        "event_id",
        "e01",
        "finished_at",
        "2026-03-14 02:00:00",
        "accepted_tokens",
        20);

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
    checkSpecSides(e, outcomes);
  }

  /** See {@link #specSides}: the old rollup key merged both rows into one (400 cycles). */
  private static void checkSpecSides(String e, List<Outcome> outcomes) {
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
