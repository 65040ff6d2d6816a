package io.specwatch.sink.finetune;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.sink.cli.SinkCli;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.sink.sqlcheck.Fixtures;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** select-finetune on known rows in the real ClickHouse (fixtures/request_acceptance.sql). */
class FinetuneSelectorIT {

  private static final Instant FROM = Instant.parse("2026-03-14T00:00:00Z");
  private static final Instant TO = Instant.parse("2026-03-15T00:00:00Z");

  private static String db;
  private static ClickHouseConfig config;

  @BeforeAll
  static void loadFixture() {
    db = SpecwatchContainers.uniqueName("it_finetune");
    config = ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      Migrator.withBundledMigrations(sql, db).migrate();
      Fixtures.statements("request_acceptance.sql", db).forEach(sql::execute);
    }
  }

  private static Selection select(int limit, Optional<String> draftVersion) {
    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      return new FinetuneSelector(sql, db)
          .select(
              new FinetuneCriteria(
                  FROM,
                  TO,
                  Optional.of("kimi-eagle3"),
                  Optional.of("kimi-k2.5"),
                  draftVersion,
                  32,
                  limit,
                  1.0));
    }
  }

  private static List<String> requestIds(Selection s) {
    return s.selected().stream().map(x -> x.candidate().requestId()).toList();
  }

  @Test
  void picksTheWorstPromptPerCategoryInTurnsBelowTheCategoryMedian() {
    Selection three = select(3, Optional.empty());
    // chat median 2.2 (h1 1.2 after dedup, h5 2.0 below); code median 3.5 (c2 2.0); math 2.0 (m1
    // 1.0)
    assertThat(requestIds(three)).containsExactly("r1", "r8", "r10");
    assertThat(requestIds(select(10, Optional.empty()))).containsExactly("r1", "r8", "r10", "r6");

    Selection.Selected r1 = three.selected().get(0);
    assertThat(r1.candidate().duplicates()).isEqualTo(2);
    assertThat(r1.candidate().tau()).isEqualTo(1.2);
    assertThat(r1.candidate().categoryMedianTau()).isEqualTo(2.2);
    assertThat(r1.candidate().promptHash()).isEqualTo("h1");
    assertThat(r1.why())
        .isEqualTo(
            "tau 1.20 is 0.55x the 'chat' median 2.20 (worst 1 of 5 prompts there);"
                + " 2 requests with this prompt, the lowest tau kept");

    assertThat(three.funnel()).isEqualTo(new Selection.Funnel(14, 1, 1, 1, 11));
    assertThat(three.categories().keySet()).containsExactly("chat", "code", "math");
    assertThat(three.categories().get("chat"))
        .isEqualTo(new Selection.CategoryStats("chat", 5, 2.2, 2, 1));
    assertThat(three.categories().get("code"))
        .isEqualTo(new Selection.CategoryStats("code", 3, 3.5, 1, 1));
  }

  @Test
  void draftVersionFilterAndPromptReferenceWithoutHash() {
    Selection v2 = select(10, Optional.of("v2"));
    assertThat(requestIds(v2)).containsExactly("r10");
    assertThat(v2.funnel().requests()).isEqualTo(3);

    try (ClickHouseSql sql = new ClickHouseSql(config)) {
      Selection loose =
          new FinetuneSelector(sql, db)
              .select(
                  new FinetuneCriteria(
                      FROM,
                      TO,
                      Optional.of("kimi-eagle3"),
                      Optional.empty(),
                      Optional.empty(),
                      32,
                      10,
                      1.05));
      // with the cut at 1.05 x median, the median prompts qualify too: c1, m2 and h6 (prompt_ref
      // only, tau 2.2 = the chat median), taken in turns after the worse ones
      assertThat(requestIds(loose)).containsExactly("r1", "r8", "r10", "r6", "r7", "r11", "r16");
      assertThat(loose.selected().get(6).rankInCategory()).isEqualTo(3);
      assertThat(loose.selected().get(6).candidate().promptRef()).isEqualTo("prompts/h6.json");
      assertThat(loose.selected().get(6).candidate().promptHash()).isNull();
    }
  }

  @Test
  void cliWritesJsonLinesAndASummary(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("select.jsonl");
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    java.io.PrintStream original = System.out;
    int code;
    try {
      System.setOut(new java.io.PrintStream(stdout, true, StandardCharsets.UTF_8));
      code =
          SinkCli.execute(
              "select-finetune",
              "--clickhouse-url",
              SpecwatchContainers.clickhouseHttpUrl(),
              "--database",
              db,
              "--from",
              "2026-03-14",
              "--to",
              "2026-03-15T00:00:00Z",
              "--deployment",
              "kimi-eagle3",
              "--limit",
              "3",
              "-o",
              out.toString());
    } finally {
      System.setOut(original);
    }
    assertThat(code).isZero();
    List<String> lines = Files.readAllLines(out);
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0))
        .startsWith("{\"request_id\":\"r1\",\"event_id\":\"e01\",\"deployment_id\":\"kimi-eagle3\"")
        .contains("\"prompt_hash\":\"h1\",\"prompt_ref\":null,\"prompt_category\":\"chat\"")
        .contains("\"tau\":1.2,\"category_median_tau\":2.2,\"relative_tau\":0.5455")
        .contains("\"output_tokens\":200,\"verify_cycles\":100,\"accepted_tokens\":20")
        .contains("\"requests_with_prompt\":2,\"rank_in_category\":1,\"why\":\"tau 1.20");
    String summary = stdout.toString(StandardCharsets.UTF_8);
    assertThat(summary)
        .contains("wrote 3 lines to " + out)
        .contains(
            "14 requests in range; 1 too short, 1 without prompt hash or reference,"
                + " 1 duplicates of a prompt merged -> 11 candidate prompts; 3 selected")
        .containsPattern("chat\\s+5\\s+2\\.200\\s+2\\s+1\\s+1\\.200");
    assertThat(
            SinkCli.execute(
                "select-finetune",
                "--clickhouse-url",
                SpecwatchContainers.clickhouseHttpUrl(),
                "--database",
                db,
                "--from",
                "2026-03-15",
                "--to",
                "2026-03-14"))
        .isEqualTo(1);
  }
}
