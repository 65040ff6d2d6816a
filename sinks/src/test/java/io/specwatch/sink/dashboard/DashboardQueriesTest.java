package io.specwatch.sink.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DashboardQueriesTest {

  @Test
  void literalEscapesQuotesBackslashesAndControlCharacters() {
    assertThat(DashboardQueries.literal("kimi-eagle3")).isEqualTo("'kimi-eagle3'");
    assertThat(DashboardQueries.literal("x' OR '1'='1")).isEqualTo("'x\\' OR \\'1\\'=\\'1'");
    assertThat(DashboardQueries.literal("a\\' b")).isEqualTo("'a\\\\\\' b'");
    assertThat(DashboardQueries.literal("a\nb\tc\0")).isEqualTo("'a\\nb\\tc\\0'");
  }

  @Test
  void slicesQueryReadsFinalWithNumericTimeBounds() {
    String sql =
        DashboardQueries.slicesSql("specwatch", "d'x", new TimeRange(1773454560L, 1773454680L));
    assertThat(sql)
        .contains("FROM specwatch.window_results FINAL WHERE deployment_id = 'd\\'x'")
        .contains(
            "window_start >= toDateTime(1773454560) AND window_start < toDateTime(1773454680)")
        .endsWith("LIMIT " + (DashboardQueries.MAX_SLICES + 1));
    assertThat(DashboardQueries.alertsSql("db", "d", new TimeRange(0, 10)))
        .contains("FROM db.alerts FINAL WHERE deployment_id = 'd'");
  }

  @Test
  void timeRangeParsesIsoAndEpochAndRejectsNonsenseNamingTheParameter() {
    assertThat(TimeRange.parse("2026-03-14T02:16:00Z", "1773454680"))
        .isEqualTo(new TimeRange(1773454560L, 1773454680L));
    assertThat(TimeRange.parse(null, "")).isEqualTo(new TimeRange(0, 4_294_967_295L));
    assertThatThrownBy(() -> TimeRange.parse("tomorrow", null))
        .isInstanceOf(BadRequest.class)
        .hasMessageStartingWith("from must be an ISO-8601 instant");
    assertThatThrownBy(() -> TimeRange.parse("20", "10"))
        .isInstanceOf(BadRequest.class)
        .hasMessageContaining("from must be before to");
  }

  @Test
  void sliceCellsParseNullsNanAndArrays() {
    assertThat(SliceRow.number(null)).isNull();
    assertThat(SliceRow.number("nan")).isNull();
    assertThat(SliceRow.number("inf")).isNull();
    assertThat(SliceRow.number("2.5")).isEqualTo(2.5);
    assertThat(SliceRow.array("[]")).isEmpty();
    assertThat(SliceRow.array("[0.8,0.6]")).containsExactly(0.8, 0.6);
  }

  @Test
  void jsonNumbersAreRoundedToFourDecimalsWithoutTrailingZeros() {
    assertThat(DashboardJson.round(0.7 * 300 / 300).toPlainString()).isEqualTo("0.7");
    assertThat(DashboardJson.round(100.0).toPlainString()).isEqualTo("100");
    assertThat(DashboardJson.round(2.0 / 3).toPlainString()).isEqualTo("0.6667");
    assertThat(new String(DashboardJson.error("a \"b\""), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo("{\"error\":\"a \\\"b\\\"\"}");
    assertThat(DashboardServer.query("deployment=a%27b&from=1&x"))
        .containsEntry("deployment", "a'b")
        .containsEntry("from", "1")
        .containsEntry("x", "");
    assertThat(
            List.of(DashboardServer.contentType("/a.js"), DashboardServer.contentType("/a.html")))
        .containsExactly("text/javascript; charset=utf-8", "text/html; charset=utf-8");
  }
}
