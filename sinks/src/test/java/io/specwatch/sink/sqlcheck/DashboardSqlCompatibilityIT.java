package io.specwatch.sink.sqlcheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.sink.dashboard.DashboardQueries;
import io.specwatch.sink.dashboard.TimeRange;
import io.specwatch.sink.migrate.Migration;
import io.specwatch.sink.migrate.MigrationLoader;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's SQL on both servers: the web dashboard's API queries and every query of the
 * Grafana dashboard ({@code dashboards/grafana/specwatch.json}, macros substituted) run on the real
 * ClickHouse 18.16 (Testcontainers) and on chdb (ClickHouse 26.x, MODERN schema), on the known rows
 * of {@code fixtures/dashboard.sql}, with the same expected values.
 */
class DashboardSqlCompatibilityIT {

  private static final long FROM = 1773446400L; // 2026-03-14T00:00:00Z
  private static final long TO = 1773532800L; // 2026-03-15T00:00:00Z
  private static final List<String> DEPLOYMENTS = List.of("kimi-eagle3", "llama-eagle3");
  private static final TimeRange RANGE = new TimeRange(FROM, TO);

  @Test
  void grafanaDashboardIsWellFormedForTheClickHousePlugin() {
    GrafanaDashboard g = GrafanaDashboard.load();
    Set<String> titles = new HashSet<>();
    Set<Integer> ids = new HashSet<>();
    for (JsonNode p : g.panels()) {
      titles.add(p.path("title").asText());
      assertThat(ids.add(p.path("id").asInt())).as("unique panel id").isTrue();
      assertThat(p.path("datasource").path("type").asText())
          .isEqualTo("grafana-clickhouse-datasource");
      for (JsonNode t : p.path("targets")) {
        assertThat(t.path("editorType").asText()).isEqualTo("sql");
        assertThat(t.path("rawSql").asText())
            .as(p.path("title").asText())
            .contains("FINAL")
            .contains("$__timeFilter(window_start)")
            .contains("${deployment:singlequote}");
      }
    }
    assertThat(titles)
        .containsExactlyInAnyOrder(
            "Verdict per deployment",
            "Speedup S",
            "Accept length \u03c4 and break-even \u03c4*",
            "Effective vs baseline tok/s",
            "Per-position acceptance",
            "Draft / verify / cycle ms percentiles",
            "Alerts (raise / clear)");
    JsonNode deployment = g.root.path("templating").path("list").get(1);
    assertThat(deployment.path("name").asText()).isEqualTo("deployment");
    assertThat(g.root.path("annotations").path("list")).hasSize(1);
  }

  @Test
  void legacyServerRunsTheDashboardAndGrafanaQueries() {
    String db = SpecwatchContainers.uniqueName("it_dash_sql");
    ClickHouseConfig config =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      Migrator.withBundledMigrations(sql, db).migrate();
      ClickHouseServerEngine engine = new ClickHouseServerEngine(sql);
      List<Outcome> outcomes = engine.run(db, scenario(db));
      check(engine.name(), db, outcomes);
    }
  }

  @Test
  void modernEngineRunsTheDashboardAndGrafanaQueries() {
    String db = "it_dash_sql_modern";
    List<Statement> statements = new ArrayList<>();
    statements.add(Statement.exec("schema_migrations", Migrator.createMigrationsTable(db)));
    for (Migration m : MigrationLoader.loadDefault()) {
      for (String s : m.statements(db, SqlDialect.MODERN)) {
        statements.add(Statement.exec("V" + m.version(), s));
      }
    }
    statements.addAll(scenario(db));
    ChdbEngine engine = new ChdbEngine();
    check(engine.name(), db, engine.run(db, statements));
  }

  private static List<Statement> scenario(String db) {
    List<Statement> out = new ArrayList<>();
    Fixtures.statements("dashboard.sql", db).forEach(s -> out.add(Statement.exec("fixture", s)));
    out.add(Statement.query("api deployments", DashboardQueries.deploymentsSql(db)));
    for (String d : DEPLOYMENTS) {
      out.add(Statement.query("api windows " + d, DashboardQueries.slicesSql(db, d, RANGE)));
      out.add(Statement.query("api alerts " + d, DashboardQueries.alertsSql(db, d, RANGE)));
    }
    GrafanaDashboard.load()
        .queries()
        .forEach(
            (label, raw) ->
                out.add(
                    Statement.query(
                        "grafana " + label,
                        GrafanaDashboard.substitute(raw, FROM, TO, DEPLOYMENTS))));
    return out;
  }

  private static void check(String engine, String db, List<Outcome> outcomes) {
    List<String> failed = new ArrayList<>();
    for (Outcome o : outcomes) {
      if (!o.ok()) {
        failed.add(o.statement().label() + ": " + o.error() + "\n  SQL: " + o.statement().sql());
      }
    }
    assertThat(failed).as(engine + ": failed statements").isEmpty();

    // the web dashboard's API bodies come out identical on both servers
    String kimi =
        new String(
            DashboardQueries.windowsJson(
                "kimi-eagle3", RANGE, table(outcomes, "api windows kimi-eagle3")),
            StandardCharsets.UTF_8);
    assertThat(kimi)
        .as(engine)
        .contains(
            "\"summary\":{\"windows\":2,\"cycles\":500,\"tau\":2.2,\"tau_star\":2.5,"
                + "\"effective_tok_s\":68,\"baseline_tok_s\":82,\"speedup\":0.79,"
                + "\"verdict\":\"below_baseline\"")
        .contains("\"verify_ms_p50\":26.5");
    assertThat(DashboardQueries.parseDeployments(table(outcomes, "api deployments")))
        .as(engine)
        .containsExactly(
            new DashboardQueries.Deployment("kimi-eagle3", 2, 1773454560L, 1773454680L),
            new DashboardQueries.Deployment("llama-eagle3", 1, 1773455400L, 1773455460L));
    assertThat(DashboardQueries.parseAlerts(table(outcomes, "api alerts kimi-eagle3")))
        .as(engine)
        .extracting(DashboardQueries.Alert::alertId, DashboardQueries.Alert::emittedAt)
        .containsExactly(tuple("a1", "2026-03-14 02:17:00"), tuple("a2", "2026-03-14 02:18:00"));

    // Grafana: every query returns the known rows
    Result verdict = rows(outcomes, "grafana Verdict per deployment");
    assertThat(verdict.column("deployment_id")).containsExactly("kimi-eagle3", "llama-eagle3");
    assertThat(verdict.column("speedup_s")).containsExactly("0.79", "1.68");
    assertThat(verdict.column("tau")).containsExactly("2.2", "4");
    assertThat(verdict.column("verdict"))
        .containsExactly("speculation costs throughput", "speculation pays");
    Result tau = rows(outcomes, "grafana Accept length \u03c4 and break-even \u03c4*");
    assertThat(tau.size()).isEqualTo(3); // kimi 02:16, 02:17; llama 02:30
    assertThat(tau.number(1, "tau")).isCloseTo(2.25, offset(1e-9));
    Result toks = rows(outcomes, "grafana Effective vs baseline tok/s");
    assertThat(toks.number(1, "effective_toks")).isCloseTo(70.0, offset(1e-9));
    Result positions = rows(outcomes, "grafana Per-position acceptance");
    assertThat(positions.column("draft_position")).containsExactly("1", "2");
    // (60 + 180 + 90 + 45) / 550 and (40 + 120 + 80 + 45) / 550
    assertThat(positions.number(0, "acceptance_rate")).isCloseTo(375.0 / 550, offset(1e-9));
    assertThat(positions.number(1, "acceptance_rate")).isCloseTo(285.0 / 550, offset(1e-9));
    Result ms = rows(outcomes, "grafana Draft / verify / cycle ms percentiles");
    assertThat(ms.number(1, "verify_p50")).isCloseTo(26.5, offset(1e-9));
    assertThat(ms.number(1, "cycle_p99")).isCloseTo(37.5, offset(1e-9));
    assertThat(rows(outcomes, "grafana Speedup S").size()).isEqualTo(2);
    assertThat(rows(outcomes, "grafana Alerts (raise / clear)").column("state"))
        .containsExactly("CLEARED", "RAISED", "RAISED");
    Result annotations = rows(outcomes, "grafana annotation specwatch alerts");
    assertThat(annotations.column("text"))
        .containsExactly(
            "kimi-eagle3 SPEC_BELOW_BASELINE RAISED: EAGLE3 below baseline: S 0.75",
            "kimi-eagle3 REGRESSION RAISED: verify p50 19 -> 29 ms",
            "llama-eagle3 SPEC_BELOW_BASELINE CLEARED: EAGLE3 back above baseline");
    assertThat(rows(outcomes, "grafana variable deployment").column("deployment_id"))
        .containsExactly("kimi-eagle3", "llama-eagle3");
  }

  private static Outcome outcome(List<Outcome> outcomes, String label) {
    return outcomes.stream()
        .filter(o -> o.statement().label().equals(label))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no outcome " + label));
  }

  private static Result rows(List<Outcome> outcomes, String label) {
    return new Result(table(outcomes, label));
  }

  /** A query's rows by column name. */
  private record Result(List<List<String>> cells) {
    int size() {
      return cells.size() - 1;
    }

    List<String> column(String name) {
      int i = cells.get(0).indexOf(name);
      assertThat(i).as("column " + name + " in " + cells.get(0)).isNotNegative();
      return cells.stream().skip(1).map(r -> r.get(i)).toList();
    }

    double number(int row, String name) {
      return Double.parseDouble(column(name).get(row));
    }
  }

  private static List<List<String>> table(List<Outcome> outcomes, String label) {
    return ClickHouseSql.parseTsv(outcome(outcomes, label).text());
  }
}
