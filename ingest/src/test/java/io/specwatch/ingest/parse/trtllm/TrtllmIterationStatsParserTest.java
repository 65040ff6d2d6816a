package io.specwatch.ingest.parse.trtllm;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import java.time.LocalDateTime;
import org.junit.jupiter.api.Test;

public class TrtllmIterationStatsParserTest {

  public static final String SPEC =
      "{\"cpuMemUsage\": 0, \"gpuMemUsage\": 1000, \"iter\": 120, \"iterLatencyMS\": 30.0,"
          + " \"numActiveRequests\": 4, \"numQueuedRequests\": 0, \"timestamp\": \"06-06-2025"
          + " 14:20:34.123456\", \"specDecodingStats\": {\"numDraftTokens\": 12,"
          + " \"numAcceptedTokens\": 6, \"numRequestsWithDraftTokens\": 4, \"acceptanceLength\":"
          + " 2.5, \"iterLatencyMS\": 6.0, \"draftOverhead\": 0.2}}";

  private final TrtllmIterationStatsParser parser = new TrtllmIterationStatsParser();

  @Test
  void readsSpecDecodingStats() {
    ParseResult r = parser.parse(SPEC);
    assertThat(r).isInstanceOf(ParseResult.Parsed.class);
    TrtllmIterationStats s = (TrtllmIterationStats) ((ParseResult.Parsed) r).line();
    assertThat(s.iter()).isEqualTo(120L);
    assertThat(s.iterLatencyMs()).isEqualTo(30.0);
    assertThat(s.activeRequests()).isEqualTo(4);
    assertThat(s.numDraftTokens()).isEqualTo(12L);
    assertThat(s.numAcceptedTokens()).isEqualTo(6L);
    assertThat(s.numRequestsWithDraftTokens()).isEqualTo(4L);
    assertThat(s.acceptanceLength()).isEqualTo(2.5);
    assertThat(s.draftLatencyMs()).isEqualTo(6.0);
    assertThat(s.draftOverhead()).isEqualTo(0.2);
    assertThat(s.timestamp()).isEqualTo(LocalDateTime.of(2025, 6, 6, 14, 20, 34, 123_456_000));
    assertThat(s.rawFields()).containsEntry("specDecodingStats.numDraftTokens", "12");
  }

  @Test
  void logPrefixAndNoSpecStats() {
    ParseResult r =
        parser.parse(
            "[2025-06-06 14:20:35] {\"iter\": 121, \"iterLatencyMS\": 12.0, \"numActiveRequests\": 4}");
    TrtllmIterationStats s = (TrtllmIterationStats) ((ParseResult.Parsed) r).line();
    assertThat(s.speculative()).isFalse();
    assertThat(s.timestamp()).isEqualTo(LocalDateTime.of(2025, 6, 6, 14, 20, 35));
  }

  @Test
  void brokenJsonAndBadValuesFail() {
    assertThat(parser.parse("{\"iter\": 121, \"iterLatencyMS\": 12.0, \"numActive"))
        .isInstanceOf(ParseResult.Failed.class);
    assertThat(parser.parse("{\"iterLatencyMS\": -1}")).isInstanceOf(ParseResult.Failed.class);
    assertThat(
            parser.parse("{\"iterLatencyMS\": 1, \"specDecodingStats\": {\"numDraftTokens\": 1}}"))
        .isInstanceOf(ParseResult.Failed.class);
    assertThat(parser.parse("{\"iterLatencyMS\": 1} trailing"))
        .isInstanceOf(ParseResult.Failed.class);
    assertThat(parser.parse("{\"other\": 1}")).isInstanceOf(ParseResult.NotMetric.class);
  }
}
