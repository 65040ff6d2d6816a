package io.specwatch.sink.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.clickhouse.SqlDialect;
import io.specwatch.testkit.SpecwatchContainers;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigratorIT {

  @Test
  void appliesOnceAndTheSecondRunChangesNothing() {
    String db = SpecwatchContainers.uniqueName("it_migrate");
    ClickHouseConfig config =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      Migrator migrator = Migrator.withBundledMigrations(sql, db);

      assertThat(migrator.migrate())
          .containsExactlyElementsOf(
              MigrationLoader.loadDefault().stream().map(Migration::version).toList());
      List<List<String>> columnsAfterFirst = columns(sql, db);
      assertThat(columnsAfterFirst)
          .contains(
              List.of("window_start", "DateTime('UTC')"),
              List.of("mean_accept_length", "Nullable(Float64)"),
              List.of("per_position_acceptance", "Array(Float64)"),
              List.of("kafka_offset", "Int64"));

      assertThat(migrator.migrate()).isEmpty();
      assertThat(columns(sql, db)).isEqualTo(columnsAfterFirst);
      assertThat(
              sql.queryTsvWithNames("SELECT count() AS c FROM " + db + ".schema_migrations").get(1))
          .containsExactly(String.valueOf(MigrationLoader.loadDefault().size()));
      assertThat(
              sql.queryTsvWithNames(
                      "SELECT engine FROM system.tables WHERE database = '"
                          + db
                          + "' AND name = 'window_results'")
                  .get(1))
          .containsExactly("ReplacingMergeTree");
      // Base tables: idempotent engines, sort keys ending in the natural key (the rollups of V010+
      // are AggregatingMergeTree, checked in SqlCompatibilityIT).
      assertThat(
              sql.queryTsvWithNames(
                  "SELECT name, engine, sorting_key FROM system.tables WHERE database = '"
                      + db
                      + "' AND engine = 'ReplacingMergeTree' ORDER BY name"))
          .containsExactly(
              List.of("name", "engine", "sorting_key"),
              List.of("alerts", "ReplacingMergeTree", "deployment_id, window_start, alert_id"),
              List.of("decode_events", "ReplacingMergeTree", "deployment_id, event_time, event_id"),
              List.of(
                  "request_acceptance",
                  "ReplacingMergeTree",
                  "deployment_id, finished_at, event_id"),
              List.of("run_contexts", "ReplacingMergeTree", "deployment_id, context_id"),
              List.of(
                  "window_results",
                  "ReplacingMergeTree",
                  "deployment_id, prompt_category, batch_bucket, spec_enabled, window_start"));
      assertThat(columns(sql, db, "decode_events"))
          .contains(
              List.of("event_time", "DateTime('UTC')"),
              List.of("raw_fields_keys", "Array(String)"),
              List.of("raw_fields_values", "Array(String)"),
              List.of("per_position_accepted", "Array(Int64)"),
              List.of("cuda_graph", "Nullable(UInt8)"));
      assertThat(columns(sql, db, "request_acceptance"))
          .contains(
              List.of("prompt_hash", "Nullable(String)"),
              List.of("accept_length", "Float64"),
              List.of("accept_histogram", "Array(Int64)"));
      assertThat(columns(sql, db, "run_contexts"))
          .contains(List.of("env_keys", "Array(String)"), List.of("env_values", "Array(String)"));
      assertThat(sql.serverVersion()).isEqualTo(SpecwatchContainers.clickhouseVersion());
    }
  }

  @Test
  void aDatabaseMigratedWithTheEarlier18_16OnlyV001IsUpToDate() {
    String db = SpecwatchContainers.uniqueName("it_migrate_old");
    ClickHouseConfig config =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      Migration v1 = MigrationLoader.loadDefault().get(0);
      String oldChecksum = v1.replacedChecksums().iterator().next();
      sql.execute("CREATE DATABASE " + db);
      sql.execute(Migrator.createMigrationsTable(db));
      for (String s : v1.statements(db, SqlDialect.LEGACY)) {
        sql.execute(s);
      }
      sql.execute(
          "INSERT INTO "
              + db
              + ".schema_migrations VALUES (1, 'window_results', '"
              + oldChecksum
              + "', now())");

      assertThat(Migrator.withBundledMigrations(sql, db).migrate()).doesNotContain(1).contains(10);
    }
  }

  @Test
  void v12KeepsBothSpecSidesOfAWindowAndMigratesAnOldDatabaseWithItsRows() {
    String db = SpecwatchContainers.uniqueName("it_migrate_v12");
    ClickHouseConfig config =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      // An existing database: V001..V011 applied (old key), with rows.
      List<Migration> old =
          MigrationLoader.loadDefault().stream().filter(m -> m.version() < 12).toList();
      new Migrator(sql, db, old).migrate();
      insertWindow(sql, db, 1, "2026-03-14 02:16:00", 2.0);
      insertWindow(sql, db, 0, "2026-03-14 02:16:00", 1.0);
      insertWindow(sql, db, 1, "2026-03-14 02:17:00", 2.4);
      assertThat(count(sql, "SELECT count() FROM " + db + ".window_results")).isEqualTo(3);
      assertThat(
              count(sql, "SELECT countMerge(windows_state) FROM " + db + ".window_rollup_hourly"))
          .isEqualTo(3);

      assertThat(Migrator.withBundledMigrations(sql, db).migrate()).containsExactly(12, 13);

      assertThat(
              sql.queryTsvWithNames(
                      "SELECT sorting_key FROM system.tables WHERE database = '"
                          + db
                          + "' AND name = 'window_results'")
                  .get(1))
          .containsExactly(
              "deployment_id, prompt_category, batch_bucket, spec_enabled, window_start");
      assertThat(
              count(
                  sql,
                  "SELECT count() FROM system.tables WHERE database = '"
                      + db
                      + "' AND name LIKE 'window_results_v1%'"))
          .isZero();
      // every row copied; both spec sides of 02:16 survive FINAL and a forced merge
      assertThat(count(sql, "SELECT count() FROM " + db + ".window_results FINAL")).isEqualTo(3);
      // a spec / plain pair inserted after the migration also survives
      insertWindow(sql, db, 1, "2026-03-14 02:18:00", 2.2);
      insertWindow(sql, db, 0, "2026-03-14 02:18:00", 1.0);
      sql.execute("OPTIMIZE TABLE " + db + ".window_results FINAL");
      assertThat(
              sql.queryTsvWithNames(
                  "SELECT toString(window_start) AS w, spec_enabled, mean_accept_length FROM "
                      + db
                      + ".window_results FINAL ORDER BY w, spec_enabled"))
          .containsExactly(
              List.of("w", "spec_enabled", "mean_accept_length"),
              List.of("2026-03-14 02:16:00", "0", "1"),
              List.of("2026-03-14 02:16:00", "1", "2"),
              List.of("2026-03-14 02:17:00", "1", "2.4"),
              List.of("2026-03-14 02:18:00", "0", "1"),
              List.of("2026-03-14 02:18:00", "1", "2.2"));
      // the recreated views feed the rollups from the new table: 3 before + 2 new windows
      assertThat(
              count(sql, "SELECT countMerge(windows_state) FROM " + db + ".window_rollup_hourly"))
          .isEqualTo(5);
      assertThat(count(sql, "SELECT sum(windows) FROM " + db + ".window_daily")).isEqualTo(5);
      assertThat(Migrator.withBundledMigrations(sql, db).migrate()).isEmpty();
    }
  }

  @Test
  void v12InterruptedAfterTheSwapCompletesOnTheNextRunWithEveryRow() {
    String db = SpecwatchContainers.uniqueName("it_migrate_v12_rerun");
    ClickHouseConfig config =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      List<Migration> all = MigrationLoader.loadDefault();
      new Migrator(sql, db, all.stream().filter(m -> m.version() < 12).toList()).migrate();
      insertWindow(sql, db, 1, "2026-03-14 02:16:00", 2.0);
      insertWindow(sql, db, 0, "2026-03-14 02:16:00", 1.0);
      // a first run that stopped right after RENAME (old table still there, views not recreated)
      Migration v12 = all.stream().filter(m -> m.version() == 12).findFirst().orElseThrow();
      boolean swapped = false;
      for (String s : v12.statements(db, sql.dialect())) {
        sql.execute(s);
        if (s.strip().startsWith("RENAME TABLE")) {
          swapped = true;
          break;
        }
      }
      assertThat(swapped).isTrue();
      assertThat(
              count(
                  sql,
                  "SELECT count() FROM system.tables WHERE database = '"
                      + db
                      + "' AND name = 'window_results_v11'"))
          .isEqualTo(1);
      assertThat(Migrator.withBundledMigrations(sql, db).migrate()).containsExactly(12, 13);
      assertThat(count(sql, "SELECT count() FROM " + db + ".window_results FINAL")).isEqualTo(2);
      insertWindow(sql, db, 1, "2026-03-14 02:17:00", 2.4);
      assertThat(
              count(sql, "SELECT countMerge(windows_state) FROM " + db + ".window_rollup_hourly"))
          .isEqualTo(3);
    }
  }

  private static void insertWindow(
      ClickHouseSql sql, String db, int spec, String windowStart, double tau) {
    sql.execute(
        "INSERT INTO "
            + db
            + ".window_results (deployment_id, prompt_category, batch_bucket, window_start,"
            + " window_end, events, cycles, requests, spec_enabled, mean_accept_length,"
            + " accepted_tokens, drafted_tokens, per_position_acceptance, per_position_conditional,"
            + " late_events, kafka_topic, kafka_partition, kafka_offset, inserted_at) VALUES"
            + " ('kimi-eagle3', 'chat', '1', '"
            + windowStart
            + "', toDateTime('"
            + windowStart
            + "', 'UTC') + 60, 10, 100, 4, "
            + spec
            + ", "
            + tau
            + ", 100, 200, [], [], 0, 'wr', 0, 1, '2026-03-14 03:00:00')");
  }

  private static long count(ClickHouseSql sql, String query) {
    return Long.parseLong(sql.queryTsvWithNames(query).get(1).get(0));
  }

  private static List<List<String>> columns(ClickHouseSql sql, String db) {
    return columns(sql, db, "window_results");
  }

  private static List<List<String>> columns(ClickHouseSql sql, String db, String table) {
    List<List<String>> rows =
        sql.queryTsvWithNames(
            "SELECT name, type FROM system.columns WHERE database = '"
                + db
                + "' AND table = '"
                + table
                + "'");
    return rows.subList(1, rows.size());
  }
}
