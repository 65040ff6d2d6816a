package io.specwatch.sink.migrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    assertThat(m.statements("db1"))
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
  void rejectsEmptyAndNonPositive() {
    assertThatThrownBy(() -> new Migration(0, "x", "SELECT 1")).hasMessageContaining("positive");
    assertThatThrownBy(() -> new Migration(1, "x", "  ")).hasMessageContaining("empty");
    assertThat(List.of()).isEmpty();
  }
}
