package io.specwatch.sink.cookbook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CookbookQueryTest {

  private static final String FILE =
      "-- question: What is tau?\n"
          + "-- param: from DateTime 2000-01-01 first window\n"
          + "-- param: deployment String '' one deployment, or '' for all\n"
          + "-- param: limit UInt32 10 rows\n"
          + "-- free text\n"
          + "SELECT 1 FROM window_results\n"
          + "WHERE window_start >= {from:DateTime} AND ({deployment:String} = ''"
          + " OR deployment_id = {deployment:String})\n"
          + "LIMIT {limit:UInt32};\n";

  @Test
  void parsesHeaderAndRendersTypedLiterals() {
    CookbookQuery q = CookbookQuery.parse("tau.sql", FILE);
    assertThat(q.name()).isEqualTo("tau");
    assertThat(q.question()).isEqualTo("What is tau?");
    assertThat(q.params())
        .extracting(QueryParam::name)
        .containsExactly("from", "deployment", "limit");
    assertThat(q.params().get(1).defaultValue()).isEmpty();
    assertThat(q.render(Map.of("deployment", "kimi's", "from", "2026-03-14T02:00:00Z")))
        .isEqualTo(
            "SELECT 1 FROM window_results\n"
                + "WHERE window_start >= toDateTime('2026-03-14 02:00:00', 'UTC') AND ('kimi\\'s' = ''"
                + " OR deployment_id = 'kimi\\'s')\nLIMIT 10");
    assertThat(q.nativeParams(Map.of("from", "2026-03-14")))
        .containsEntry("from", "2026-03-14 00:00:00")
        .containsEntry("deployment", "")
        .containsEntry("limit", "10");
  }

  @Test
  void badValuesAndUnknownParametersFailNamingThem() {
    CookbookQuery q = CookbookQuery.parse("tau.sql", FILE);
    assertThatThrownBy(() -> q.render(Map.of("limit", "1; DROP TABLE x")))
        .hasMessageContaining("--param limit=")
        .hasMessageContaining("UInt32");
    assertThatThrownBy(() -> q.render(Map.of("limit", "-1"))).hasMessageContaining("limit");
    assertThatThrownBy(() -> q.render(Map.of("from", "yesterday"))).hasMessageContaining("from");
    assertThatThrownBy(() -> q.render(Map.of("nope", "1")))
        .hasMessageContaining("no parameter 'nope'");
  }

  @Test
  void undeclaredOrMistypedParametersAreRejectedAtLoad() {
    assertThatThrownBy(() -> CookbookQuery.parse("x.sql", "-- question: q\nSELECT {a:String}"))
        .hasMessageContaining("{a:String}");
    assertThatThrownBy(
            () ->
                CookbookQuery.parse(
                    "x.sql", "-- question: q\n-- param: a UInt32 1 x\nSELECT {a:String}"))
        .hasMessageContaining("as UInt32");
    assertThatThrownBy(() -> CookbookQuery.parse("x.sql", "SELECT 1"))
        .hasMessageContaining("question");
  }

  @Test
  void everyBundledQueryParsesAndRendersWithItsDefaults() {
    Cookbook book = Cookbook.bundled();
    assertThat(book.queries())
        .extracting(CookbookQuery::name)
        .contains(
            "acceptance_trend",
            "speculation_vs_baseline",
            "per_position_decay",
            "verify_ms_by_run_context",
            "acceptance_by_category_batch");
    for (CookbookQuery q : book.queries()) {
      assertThat(q.render(Map.of())).as(q.name()).doesNotContain("{").isNotBlank();
    }
    assertThatThrownBy(() -> book.get("nope")).hasMessageContaining("acceptance_trend");
  }
}
