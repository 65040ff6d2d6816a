package io.specwatch.ingest.parse.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestJsonParserTest {

  private final RequestJsonParser parser = new RequestJsonParser();

  private RequestLine parsed(String line) {
    ParseResult r = ParserRegistry.defaults().parse(line);
    assertThat(r).isInstanceOf(ParseResult.Parsed.class);
    return (RequestLine) ((ParseResult.Parsed) r).line();
  }

  @Test
  void requestV1WithEveryField() {
    RequestLine r =
        parsed(
            "{\"ts\":\"2026-03-01T12:00:00Z\",\"request_id\":\"req-1\",\"prompt_hash\":\"9f2c\","
                + "\"prompt_ref\":\"ds/7\",\"prompt_category\":\"code\",\"model\":\"kimi-k2.5\","
                + "\"draft_model_version\":\"eagle3-v4\",\"prompt_tokens\":512,"
                + "\"output_tokens\":300,\"verify_cycles\":120,\"accepted_tokens\":180,"
                + "\"drafted_tokens\":360,\"accept_histogram\":[20,40,40,20]}");
    assertThat(r.format()).isEqualTo("request.v1");
    assertThat(r.finishedAt()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
    assertThat(r.requestId()).isEqualTo("req-1");
    assertThat(r.promptHash()).isEqualTo("9f2c");
    assertThat(r.promptRef()).isEqualTo("ds/7");
    assertThat(r.promptCategory()).isEqualTo("code");
    assertThat(r.model()).isEqualTo("kimi-k2.5");
    assertThat(r.draftModelVersion()).isEqualTo("eagle3-v4");
    assertThat(r.promptTokens()).isEqualTo(512L);
    assertThat(r.outputTokens()).isEqualTo(300);
    assertThat(r.verifyCycles()).isEqualTo(120);
    assertThat(r.acceptedTokens()).isEqualTo(180L);
    assertThat(r.draftedTokens()).isEqualTo(360L);
    assertThat(r.acceptHistogram()).containsExactly(20L, 40L, 40L, 20L);
    assertThat(r.acceptLength()).isEqualTo(2.5); // 300 / 120
    assertThat(r.rawAcceptRate()).isNull();
    assertThat(r.rawFields())
        .containsEntry("verify_cycles", "120")
        .containsEntry("model", "kimi-k2.5");
  }

  @Test
  void requestV1MinimalAfterALogPrefixWithEpochMillis() {
    RequestLine r =
        parsed(
            "2026-03-01 12:00:01,500 INFO gateway: {\"finished_at\":1772366401500,"
                + "\"request_id\":\"req-2\",\"output_tokens\":7,\"verify_cycles\":4}");
    assertThat(r.finishedAt()).isEqualTo(Instant.parse("2026-03-01T12:00:01.500Z"));
    assertThat(r.acceptLength()).isEqualTo(1.75); // 7 / 4
    assertThat(r.promptTokens()).isNull();
    assertThat(r.acceptedTokens()).isNull();
    assertThat(r.acceptHistogram()).isEmpty();
  }

  @Test
  void isoTimestampWithOffsetIsConvertedToUtc() {
    RequestLine r =
        parsed(
            "{\"ts\":\"2026-03-01T13:00:00+01:00\",\"request_id\":\"r\",\"output_tokens\":1,"
                + "\"verify_cycles\":1}");
    assertThat(r.finishedAt()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
  }

  @Test
  void sglangResponseWithMetaInfo() {
    RequestLine r =
        parsed(
            "{\"text\":\"def f(x): ...\",\"meta_info\":{\"id\":\"a1b2\",\"prompt_tokens\":20,"
                + "\"completion_tokens\":64,\"spec_verify_ct\":20,\"spec_accept_length\":3.2,"
                + "\"spec_accept_rate\":0.55,\"spec_accept_histogram\":[2,4,6,8],"
                + "\"e2e_latency\":1.2}}");
    assertThat(r.format()).isEqualTo("sglang.meta_info");
    assertThat(r.requestId()).isEqualTo("a1b2");
    assertThat(r.finishedAt()).isNull();
    assertThat(r.promptTokens()).isEqualTo(20L);
    assertThat(r.outputTokens()).isEqualTo(64);
    assertThat(r.verifyCycles()).isEqualTo(20);
    assertThat(r.acceptLength()).isEqualTo(3.2); // 64 / 20
    assertThat(r.rawAcceptRate()).isEqualTo(0.55);
    assertThat(r.acceptHistogram()).containsExactly(2L, 4L, 6L, 8L);
    assertThat(r.acceptedTokens()).isEqualTo(40L); // 0*2 + 1*4 + 2*6 + 3*8
    assertThat(r.draftedTokens()).isNull();
    assertThat(r.rawFields()).containsEntry("spec_accept_length", "3.2");
  }

  @Test
  void bareMetaInfoObjectWithRid() {
    RequestLine r =
        parsed(
            "{\"rid\":\"x9\",\"completion_tokens\":10,\"spec_verify_ct\":8,"
                + "\"ts\":\"2026-03-01T12:00:00Z\"}");
    assertThat(r.requestId()).isEqualTo("x9");
    assertThat(r.acceptLength()).isEqualTo(1.25);
    assertThat(r.acceptedTokens()).isNull();
    assertThat(r.finishedAt()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
  }

  @Test
  void brokenLinesThatLookLikeTheFormatFailNamingTheField() {
    assertFailed("{\"request_id\":\"r\",\"output_tokens\":10,\"verify_cycles\":", "invalid JSON");
    assertFailed(
        "{\"request_id\":\"r\",\"output_tokens\":10,\"verify_cycles\":0}",
        "verify_cycles: must be > 0");
    assertFailed("{\"output_tokens\":10,\"verify_cycles\":3}", "request_id: required");
    assertFailed(
        "{\"request_id\":\"r\",\"output_tokens\":\"ten\",\"verify_cycles\":3}",
        "output_tokens: expected an integer");
    assertFailed(
        "{\"request_id\":\"r\",\"ts\":\"yesterday\",\"output_tokens\":1,\"verify_cycles\":3}",
        "ts: not ISO-8601");
    assertFailed(
        "{\"request_id\":\"r\",\"output_tokens\":1,\"verify_cycles\":3,\"accept_histogram\":[1,-1]}",
        "accept_histogram");
    assertFailed("{\"completion_tokens\":5,\"spec_verify_ct\":2}", "request id");
    assertFailed("x {\"verify_cycles\":1,}", "invalid JSON");
  }

  @Test
  void otherLinesAreNotClaimed() {
    for (String line :
        List.of(
            "gateway started on :8080",
            "{\"request_id\":\"r\",\"output_tokens\":10}",
            "[2025-03-14 02:16:14 TP0] Prefill batch. #new-seq: 1, #new-token: 9")) {
      assertThat(parser.parse(line)).isInstanceOf(ParseResult.NotMetric.class);
    }
  }

  private void assertFailed(String line, String reasonPart) {
    ParseResult r = parser.parse(line);
    assertThat(r).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) r).reason()).contains(reasonPart);
  }
}
