package io.specwatch.ingest.parse.instrumented;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import java.time.Instant;
import org.junit.jupiter.api.Test;

public class CycleJsonParserTest {

  public static final String CONTRACT =
      "{\"schema\":\"specwatch.cycle.v1\",\"ts\":\"2026-11-30T17:00:00.123Z\","
          + "\"deployment\":\"kimi-eagle3\",\"rank\":0,\"step\":1234,\"batch_size\":4,"
          + "\"num_draft_tokens\":3,\"accepted\":[2,0,3,1],\"draft_ms\":0.61,\"verify_ms\":28.96,"
          + "\"overhead_ms\":0.3,\"cycle_ms\":29.87,"
          + "\"phases\":{\"draft\":0.61,\"target_verify\":28.96,\"sample\":0.30},"
          + "\"prompt_category\":\"code\",\"request_ids\":[\"r1\",\"r2\",\"r3\",\"r4\"],"
          + "\"gpu_temp_c\":71}";

  private final CycleJsonParser parser = new CycleJsonParser();

  private CycleLine parsed(String line) {
    ParseResult r = parser.parse(line);
    assertThat(r).isInstanceOf(ParseResult.Parsed.class);
    return (CycleLine) ((ParseResult.Parsed) r).line();
  }

  private String failed(String line) {
    ParseResult r = parser.parse(line);
    assertThat(r).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) r).format()).isEqualTo("specwatch.cycle");
    return ((ParseResult.Failed) r).reason();
  }

  @Test
  void readsTheContractExample() {
    CycleLine c = parsed(CONTRACT);
    assertThat(c.ts()).isEqualTo(Instant.parse("2026-11-30T17:00:00.123Z"));
    assertThat(c.deployment()).isEqualTo("kimi-eagle3");
    assertThat(c.rank()).isZero();
    assertThat(c.step()).isEqualTo(1234);
    assertThat(c.batchSize()).isEqualTo(4);
    assertThat(c.numDraftTokens()).isEqualTo(3);
    assertThat(c.accepted()).containsExactly(2, 0, 3, 1);
    assertThat(c.acceptedTokens()).isEqualTo(6);
    assertThat(c.draftedTokens()).isEqualTo(12);
    assertThat(c.acceptLength()).isEqualTo(2.5); // 1 + 6/4
    // position 0: 3 requests (2,3,1), position 1: 2 (2,3), position 2: 1 (3)
    assertThat(c.perPositionAccepted()).containsExactly(3L, 2L, 1L);
    assertThat(c.cycleMs()).isEqualTo(29.87);
    assertThat(c.verifyMs()).isEqualTo(28.96);
    assertThat(c.phases())
        .containsExactly(
            org.assertj.core.api.Assertions.entry("draft", 0.61),
            org.assertj.core.api.Assertions.entry("target_verify", 28.96),
            org.assertj.core.api.Assertions.entry("sample", 0.30));
    assertThat(c.promptCategory()).isEqualTo("code");
    assertThat(c.requestIds()).containsExactly("r1", "r2", "r3", "r4");
    assertThat(c.rawFields())
        .containsEntry("gpu_temp_c", "71")
        .containsEntry("phases.target_verify", "28.96");
  }

  @Test
  void readsTotalsEpochMillisAndAPrefix() {
    CycleLine c =
        parsed(
            "2026-11-30 17:00:00,500 INFO hook: {\"schema\":\"specwatch.cycle.v1\","
                + "\"ts\":1795971600500,\"step\":7,\"batch_size\":8,\"num_draft_tokens\":3,"
                + "\"accepted_tokens\":10,\"drafted_tokens\":24,\"cycle_ms\":30,"
                + "\"per_position_accepted\":[6,3,1]}");
    assertThat(c.ts()).isEqualTo(Instant.ofEpochMilli(1795971600500L));
    assertThat(c.accepted()).isNull();
    assertThat(c.acceptLength()).isEqualTo(1.0 + 10.0 / 8);
    assertThat(c.draftedTokens()).isEqualTo(24);
    assertThat(c.perPositionAccepted()).containsExactly(6L, 3L, 1L);
    assertThat(c.deployment()).isNull();
    assertThat(c.draftMs()).isNull();
  }

  @Test
  void contractViolationsNameTheField() {
    assertThat(failed(CONTRACT.replace("[2,0,3,1]", "[2,0,3]")))
        .isEqualTo("accepted: length 3 != batch_size 4");
    assertThat(failed(CONTRACT.replace("[2,0,3,1]", "[2,0,4,1]"))).startsWith("accepted: each");
    assertThat(failed(CONTRACT.replace("\"cycle_ms\":29.87,", ""))).isEqualTo("cycle_ms: required");
    assertThat(failed(CONTRACT.replace("\"cycle_ms\":29.87", "\"cycle_ms\":0")))
        .startsWith("cycle_ms: must be > 0");
    assertThat(failed(CONTRACT.replace("\"ts\":\"2026-11-30T17:00:00.123Z\"", "\"ts\":\"17:00\"")))
        .startsWith("ts: not ISO-8601");
    assertThat(failed(CONTRACT.replace("\"accepted\":[2,0,3,1],", "")))
        .startsWith("accepted: required");
    assertThat(failed(CONTRACT.replace("cycle.v1", "cycle.v9"))).startsWith("schema: unsupported");
    assertThat(failed(CONTRACT.substring(0, 80))).startsWith("invalid JSON");
    assertThat(failed(CONTRACT.replace("\"step\":1234", "\"step\":-1"))).startsWith("step:");
  }

  @Test
  void otherLinesAreNotClaimed() {
    assertThat(parser.parse("{\"request_id\":\"r\",\"verify_cycles\":3}"))
        .isSameAs(ParseResult.NOT_METRIC);
    assertThat(parser.parse("loaded specwatch.cycle hook {\"x\":1}"))
        .isSameAs(ParseResult.NOT_METRIC);
    assertThat(parser.parse("Decode batch. #running-req: 1")).isSameAs(ParseResult.NOT_METRIC);
    assertThat(
            parser.parse("{\"schema\":\"specwatch.run_context.v1\",\"note\":\"specwatch.cycle\"}"))
        .isSameAs(ParseResult.NOT_METRIC);
  }
}
