package io.specwatch.sink.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.sink.clickhouse.SqlDialect;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationTest {

  @Test
  void parsesVersionAndDescriptionFromFileName() {
    Migration m = Migration.fromFile("V012__add_alerts.sql", "SELECT 1");
    assertThat(m.version()).isEqualTo(12);
    assertThat(m.description()).isEqualTo("add_alerts");
  }

  @Test
  void rejectsBadFileNames() {
    assertThatThrownBy(() -> Migration.fromFile("V1_missing_underscore.sql", "SELECT 1"))
        .hasMessageContaining("V001__description.sql");
    assertThat(Migration.isMigrationFile("notes.txt")).isFalse();
    assertThat(Migration.isMigrationFile("V003__x.sql")).isTrue();
  }

  @Test
  void splitsStatementsDropsCommentsAndSubstitutesDatabase() {
    Migration m =
        Migration.fromFile(
            "V001__x.sql",
            "-- heading; with a semicolon\n"
                + "CREATE DATABASE IF NOT EXISTS ${database};\n\n"
                + "CREATE TABLE ${database}.t\n(\n  a String\n)\nENGINE = Memory;\n"
                + "SELECT 1");
    assertThat(m.statements("db1", SqlDialect.LEGACY))
        .containsExactly(
            "CREATE DATABASE IF NOT EXISTS db1",
            "CREATE TABLE db1.t\n(\n  a String\n)\nENGINE = Memory",
            "SELECT 1");
  }

  @Test
  void checksumChangesWithTheText() {
    Migration a = Migration.fromFile("V001__x.sql", "SELECT 1");
    Migration b = Migration.fromFile("V001__x.sql", "SELECT 2");
    assertThat(a.checksum()).hasSize(64).isNotEqualTo(b.checksum());
    assertThat(a.checksum()).isEqualTo(Migration.fromFile("V001__x.sql", "SELECT 1").checksum());
  }

  @Test
  void rendersVersionAwarePlaceholdersPerDialect() {
    Migration m =
        Migration.fromFile(
            "V002__x.sql",
            "CREATE TABLE ${database}.t (at ${DateTimeMs}, d ${LowCardinality(String)}"
                + " ${codec(ZSTD(1))}) ENGINE = MergeTree() ORDER BY at\n"
                + "${ttl(at + INTERVAL 1 DAY)};");
    assertThat(m.statements("db", SqlDialect.LEGACY))
        .containsExactly(
            "CREATE TABLE db.t (at DateTime('UTC'), d String )"
                + " ENGINE = MergeTree() ORDER BY at");
    assertThat(m.statements("db", SqlDialect.MODERN))
        .containsExactly(
            "CREATE TABLE db.t (at DateTime64(3, 'UTC'), d LowCardinality(String) CODEC(ZSTD(1)))"
                + " ENGINE = MergeTree() ORDER BY at\nTTL at + INTERVAL 1 DAY");
    assertThat(m.rawStatements().get(0)).contains("${DateTimeMs}");
  }

  @Test
  void anEarlierTextDeclaredReplacedCountsAsApplied() {
    String old = Migration.fromFile("V001__x.sql", "SELECT 1").checksum();
    Migration m =
        Migration.fromFile("V001__x.sql", "-- replaces-checksum: " + old + "\nSELECT 1 AS one");
    assertThat(m.isAppliedAs(old)).isTrue();
    assertThat(m.isAppliedAs(m.checksum())).isTrue();
    assertThat(m.isAppliedAs(Migration.fromFile("V001__x.sql", "SELECT 2").checksum())).isFalse();
  }

  @Test
  void bundledV001DeclaresTheChecksumOfItsEarlier18_16OnlyText() {
    Migration v1 = MigrationLoader.loadDefault().get(0);
    assertThat(v1.replacedChecksums())
        .containsExactly("39291fd49473084e49381fc4657551770c9b1688b1c79326da1cad715af888c2");
  }

  @Test
  void rejectsEmptyAndNonPositive() {
    assertThatThrownBy(() -> new Migration(0, "x", "SELECT 1")).hasMessageContaining("positive");
    assertThatThrownBy(() -> new Migration(1, "x", "  ")).hasMessageContaining("empty");
    assertThat(List.of()).isEmpty();
  }
}
