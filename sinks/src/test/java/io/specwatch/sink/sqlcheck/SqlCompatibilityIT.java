package io.specwatch.sink.sqlcheck;

import static io.specwatch.sink.sqlcheck.Outcomes.assertAllOk;
import static io.specwatch.sink.sqlcheck.Outcomes.outcome;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.sink.cookbook.Cookbook;
import io.specwatch.sink.cookbook.CookbookQuery;
import io.specwatch.sink.migrate.Migration;
import io.specwatch.sink.migrate.MigrationLoader;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.sink.sqlcheck.SqlEngine.Outcome;
import io.specwatch.sink.sqlcheck.SqlEngine.Statement;
import io.specwatch.testkit.SpecwatchContainers;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every migration statement, the rollup rebuild and every cookbook query run against the real
 * ClickHouse 18.16 server (the tests' container, through the Migrator itself) and against chdb
 * (ClickHouse 26.x, the MODERN rendering), on the same known rows (fixtures/window_results.sql),
 * with the same exact expected values.
 *
 * <p>Each engine runs the whole scenario once, in one session (one chdb process; the shared 18.16
 * container of {@link SpecwatchContainers}): the statements build on one another (fixtures, then
 * rebuilds, then more fixtures), so the areas are not separate tests. The statements and expected
 * values of each SQL area live beside each other: {@link RollupCheck}, {@link FinetuneCheck},
 * {@link CookbookCheck}, {@link SpecSidesCheck} and {@link DemoReportCheck}.
 */
class SqlCompatibilityIT {

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
    out.addAll(RollupCheck.statements(db));
    out.addAll(FinetuneCheck.statements(db));
    out.addAll(CookbookCheck.statements(nativeBinding));
    out.addAll(SpecSidesCheck.statements(db));
    out.addAll(DemoReportCheck.statements(db));
    return out;
  }

  /** The expected values, the same on both engines (numbers compared within 1e-6). */
  private static void check(String engine, List<Outcome> outcomes) {
    assertAllOk(engine, outcomes);
    String e = engine + " ";
    DemoReportCheck.check(e, outcomes);
    RollupCheck.checkWindows(e, outcomes);
    CookbookCheck.checkAcceptance(e, outcomes);
    RollupCheck.checkRequests(e, outcomes);
    FinetuneCheck.check(e, outcomes);
    CookbookCheck.checkModelsContextsAndAlerts(e, outcomes);
    SpecSidesCheck.check(e, outcomes);
  }
}
