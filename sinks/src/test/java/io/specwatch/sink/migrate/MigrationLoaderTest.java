package io.specwatch.sink.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.sink.clickhouse.SqlDialect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MigrationLoaderTest {

  @Test
  void bundledMigrationsStartAtV001WithTheWindowTable() {
    List<Migration> all = MigrationLoader.loadDefault();
    assertThat(all).isNotEmpty();
    assertThat(all.get(0).version()).isEqualTo(1);
    assertThat(all.get(0).description()).isEqualTo("window_results");
    List<String> statements = all.get(0).statements("specwatch", SqlDialect.LEGACY);
    assertThat(statements.get(0)).isEqualTo("CREATE DATABASE IF NOT EXISTS specwatch");
    assertThat(statements.get(1))
        .startsWith("CREATE TABLE IF NOT EXISTS specwatch.window_results")
        .contains("ENGINE = ReplacingMergeTree(inserted_at)")
        .contains("ORDER BY (deployment_id, prompt_category, batch_bucket, window_start)")
        .contains("PARTITION BY toYYYYMM(window_start)")
        // SQL that ClickHouse 18.16 lacks must not appear in the legacy rendering
        .doesNotContain("DateTime64")
        .doesNotContain("LowCardinality")
        .doesNotContain("TTL")
        .doesNotContain("CODEC")
        .doesNotContain("SETTINGS")
        .doesNotContain("${");
    assertThat(all.get(0).statements("specwatch", SqlDialect.MODERN).get(1))
        .contains("deployment_id LowCardinality(String)")
        .contains("inserted_at DateTime64(3, 'UTC')")
        .contains("TTL window_start + INTERVAL 400 DAY")
        .contains("SETTINGS non_replicated_deduplication_window = 1000");
  }

  @Test
  void everyBundledMigrationRendersInBothDialects() {
    for (Migration m : MigrationLoader.loadDefault()) {
      for (SqlDialect d : SqlDialect.values()) {
        assertThat(m.statements("db", d))
            .as("V" + m.version() + " " + d)
            .isNotEmpty()
            .allSatisfy(s -> assertThat(s).doesNotContain("${"));
      }
    }
  }

  @Test
  void baseTablesAreIdempotentAndTheirLegacyRenderingStaysWithinClickHouse1816() {
    List<Migration> all = MigrationLoader.loadDefault();
    assertThat(all)
        .extracting(Migration::description)
        .startsWith(
            "window_results", "decode_events", "request_acceptance", "alerts", "run_contexts");
    for (Migration m : all.subList(1, 5)) {
      List<String> statements = m.statements("specwatch", SqlDialect.LEGACY);
      assertThat(statements).hasSize(1);
      assertThat(statements.get(0))
          .startsWith("CREATE TABLE IF NOT EXISTS specwatch." + m.description())
          .contains("ENGINE = ReplacingMergeTree(inserted_at)")
          .contains("kafka_offset Int64")
          .doesNotContain("DateTime64")
          .doesNotContain("LowCardinality")
          .doesNotContain("TTL")
          .doesNotContain("CODEC");
    }
    assertThat(all.get(1).sql()).contains("ORDER BY (deployment_id, event_time, event_id)");
    assertThat(all.get(2).sql()).contains("ORDER BY (deployment_id, finished_at, event_id)");
    assertThat(all.get(3).sql()).contains("ORDER BY (deployment_id, window_start, alert_id)");
    assertThat(all.get(4).sql()).contains("ORDER BY (deployment_id, context_id)");
  }

  @Test
  void ordersByNumericVersionNotByName(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("V10__ten.sql"), "SELECT 10");
    Files.writeString(dir.resolve("V002__two.sql"), "SELECT 2");
    Files.writeString(dir.resolve("V1__one.sql"), "SELECT 1");
    Files.writeString(dir.resolve("README.md"), "not a migration");
    assertThat(MigrationLoader.fromDirectory(dir))
        .extracting(Migration::version)
        .containsExactly(1, 2, 10);
  }

  @Test
  void rejectsDuplicateVersions(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("V001__a.sql"), "SELECT 1");
    Files.writeString(dir.resolve("V1__b.sql"), "SELECT 1");
    assertThatThrownBy(() -> MigrationLoader.fromDirectory(dir))
        .hasMessageContaining("two migrations with version 1");
  }

  @Test
  void rejectsBadlyNamedSqlFiles(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("create_tables.sql"), "SELECT 1");
    assertThatThrownBy(() -> MigrationLoader.fromDirectory(dir))
        .hasMessageContaining("create_tables.sql");
  }
}
