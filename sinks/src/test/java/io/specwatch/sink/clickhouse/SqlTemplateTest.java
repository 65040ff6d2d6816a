package io.specwatch.sink.clickhouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlTemplateTest {

  private static String legacy(String t) {
    return SqlTemplate.render(t, SqlDialect.LEGACY, Map.of("database", "db"));
  }

  private static String modern(String t) {
    return SqlTemplate.render(t, SqlDialect.MODERN, Map.of("database", "db"));
  }

  @Test
  void eachPlaceholderRendersPerDialect() {
    assertThat(legacy("${DateTimeMs}")).isEqualTo("DateTime('UTC')");
    assertThat(modern("${DateTimeMs}")).isEqualTo("DateTime64(3, 'UTC')");
    assertThat(legacy("${LowCardinality(Nullable(String))}")).isEqualTo("Nullable(String)");
    assertThat(modern("${LowCardinality(Nullable(String))}"))
        .isEqualTo("LowCardinality(Nullable(String))");
    assertThat(legacy("a ${codec(Delta, ZSTD(1))}")).isEqualTo("a ");
    assertThat(modern("a ${codec(Delta, ZSTD(1))}")).isEqualTo("a CODEC(Delta, ZSTD(1))");
    assertThat(legacy("${ttl(t + INTERVAL 1 DAY)}")).isEmpty();
    assertThat(modern("${ttl(t + INTERVAL 1 DAY)}")).isEqualTo("TTL t + INTERVAL 1 DAY");
    assertThat(legacy("${modern(SETTINGS x = 1)}${legacy(old)}")).isEqualTo("old");
    assertThat(modern("${modern(SETTINGS x = 1)}${legacy(old)}")).isEqualTo("SETTINGS x = 1");
    assertThat(modern("${database}.t")).isEqualTo("db.t");
  }

  @Test
  void argumentsMayHoldQuotedParenthesesAndBraces() {
    assertThat(modern("${modern(SELECT ')' AS a, '}' AS b)}"))
        .isEqualTo("SELECT ')' AS a, '}' AS b");
  }

  @Test
  void textWithoutPlaceholdersIsUnchanged() {
    String sql = "SELECT {from:DateTime}, '$x', 1";
    assertThat(legacy(sql)).isEqualTo(sql);
  }

  @Test
  void mistakesNameTheLine() {
    assertThatThrownBy(() -> legacy("SELECT 1\n${nope}"))
        .hasMessageContaining("line 2")
        .hasMessageContaining("${nope}");
    assertThatThrownBy(() -> legacy("${frobnicate(x)}")).hasMessageContaining("frobnicate");
    assertThatThrownBy(() -> legacy("${codec(ZSTD(1)}")).hasMessageContaining("unbalanced");
    assertThatThrownBy(() -> legacy("${codec(ZSTD) x")).hasMessageContaining("'}' expected");
  }

  @Test
  void versionsPickTheDialect() {
    assertThat(SqlDialect.of(ServerVersion.parse("18.16.1"))).isEqualTo(SqlDialect.LEGACY);
    assertThat(SqlDialect.of(ServerVersion.parse("22.2.9.1"))).isEqualTo(SqlDialect.LEGACY);
    assertThat(SqlDialect.of(ServerVersion.parse("22.3.2.2"))).isEqualTo(SqlDialect.MODERN);
    assertThat(SqlDialect.of(ServerVersion.parse("24.8.4.13"))).isEqualTo(SqlDialect.MODERN);
    assertThat(SqlDialect.of(ServerVersion.parse("26.7.2.1"))).isEqualTo(SqlDialect.MODERN);
    assertThatThrownBy(() -> ServerVersion.parse("banana")).hasMessageContaining("banana");
  }
}
