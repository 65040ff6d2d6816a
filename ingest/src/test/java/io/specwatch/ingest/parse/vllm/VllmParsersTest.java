package io.specwatch.ingest.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import java.time.LocalTime;
import java.time.MonthDay;
import java.util.List;
import org.junit.jupiter.api.Test;

class VllmParsersTest {

  static final String V1_PREFIX = "INFO 06-06 14:20:34 [loggers.py:116] ";
  static final String ENGINE =
      V1_PREFIX
          + "Engine 000: Avg prompt throughput: 12.5 tokens/s, Avg generation throughput: 250.0"
          + " tokens/s, Running: 4 reqs, Waiting: 1 reqs, GPU KV cache usage: 23.5%, Prefix cache"
          + " hit rate: 40.0%";
  static final String SPEC_V4 =
      V1_PREFIX
          + "SpecDecoding metrics: Mean acceptance length: 2.50, Accepted throughput: 150.00"
          + " tokens/s, Drafted throughput: 300.00 tokens/s, Accepted: 1500 tokens, Drafted: 3000"
          + " tokens, Per-position acceptance rate: 0.700, 0.500, 0.300, Avg Draft acceptance"
          + " rate: 50.0%";
  static final String SPEC_V3 =
      "INFO 05-20 10:00:00 [loggers.py:111] SpecDecoding metrics: Draft acceptance rate: 40.0%,"
          + " Mean acceptance length: 1.80, Accepted: 400 tokens, Drafted: 1000 tokens,"
          + " Per-position acceptance rate: 0.600, 0.200";
  static final String SPEC_V2 =
      "(APIServer pid=1) INFO 05-07 04:56:17 [metrics.py:101] SpecDecoding metrics: Draft"
          + " acceptance rate: 62.5%, Accepted: 500 tokens, Drafted: 800 tokens";
  static final String SPEC_V1 =
      "INFO 04-01 09:00:00 [metrics.py:90] Speculative metrics: Draft acceptance rate: 0.650,"
          + " Number of accepted tokens: 1300, Number of draft tokens: 2000, ";
  static final String SPEC_IDLE =
      V1_PREFIX
          + "SpecDecoding metrics: Draft acceptance rate: nan%, Accepted: 0 tokens, Drafted: 0"
          + " tokens";
  static final String V0_THROUGHPUT =
      "INFO 08-01 10:00:00 metrics.py:345] Avg prompt throughput: 0.0 tokens/s, Avg generation"
          + " throughput: 95.3 tokens/s, Running: 2 reqs, Swapped: 0 reqs, Pending: 3 reqs, GPU KV"
          + " cache usage: 5.1%, CPU KV cache usage: 0.0%.";
  static final String V0_SPEC =
      "INFO 08-01 10:00:00 metrics.py:367] Speculative metrics: Draft acceptance rate: 0.600,"
          + " System efficiency: 0.400, Number of speculative tokens: 4, Number of accepted tokens:"
          + " 2400, Number of draft tokens: 4000, Number of emitted tokens: 3000.";
  static final String V0_STAGE =
      "INFO 08-01 10:00:05 spec_decode_worker.py:1071] SpecDecodeWorker stage times:"
          + " average_time_per_proposal_tok_ms=2.50 scoring_time_ms=25.00"
          + " verification_time_ms=1.50";

  /** Every sample line above, in declaration order (the property tests' committed samples). */
  static final List<String> SAMPLES =
      List.of(
          ENGINE, SPEC_V1, SPEC_V2, SPEC_V3, SPEC_V4, SPEC_IDLE, V0_THROUGHPUT, V0_SPEC, V0_STAGE);

  private final ParserRegistry registry = ParserRegistry.defaults();

  private <T> T parsed(String line, Class<T> type) {
    ParseResult r = registry.parse(line);
    assertThat(r).isInstanceOf(ParseResult.Parsed.class);
    return type.cast(((ParseResult.Parsed) r).line());
  }

  @Test
  void engineLineWithIndexAndPrefix() {
    VllmThroughput t = parsed(ENGINE, VllmThroughput.class);
    assertThat(t.format()).isEqualTo(VllmV1Parser.ENGINE);
    assertThat(t.stamp()).isEqualTo(new VllmStamp(MonthDay.of(6, 6), LocalTime.of(14, 20, 34)));
    assertThat(t.engineIndex()).isZero();
    assertThat(t.prefix().rank()).isEqualTo("engine 000");
    assertThat(t.prefix().dpRank()).isZero();
    assertThat(t.promptThroughput()).isEqualTo(12.5);
    assertThat(t.genThroughput()).isEqualTo(250.0);
    assertThat(t.running()).isEqualTo(4);
    assertThat(t.queued()).isEqualTo(1);
    assertThat(t.gpuKvCachePercent()).isEqualTo(23.5);
    assertThat(t.rawFields()).containsEntry("Prefix cache hit rate", "40.0%");
  }

  @Test
  void engineLineWithoutIndex() {
    VllmThroughput t =
        parsed(
            "INFO 03-01 08:00:00 [loggers.py:80] Avg prompt throughput: 1.0 tokens/s, Avg"
                + " generation throughput: 2.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV"
                + " cache usage: 1.0%, Prefix cache hit rate: 0.0%",
            VllmThroughput.class);
    assertThat(t.format()).isEqualTo(VllmV1Parser.ENGINE);
    assertThat(t.engineIndex()).isNull();
  }

  @Test
  void newestFormatWithThroughputsAndPerPosition() {
    VllmSpecDecoding s = parsed(SPEC_V4, VllmSpecDecoding.class);
    assertThat(s.format()).isEqualTo(VllmV1Parser.SPEC_V4);
    assertThat(s.meanAcceptanceLength()).isEqualTo(2.5);
    assertThat(s.acceptedThroughput()).isEqualTo(150.0);
    assertThat(s.draftedThroughput()).isEqualTo(300.0);
    assertThat(s.acceptedTokens()).isEqualTo(1500);
    assertThat(s.draftedTokens()).isEqualTo(3000);
    assertThat(s.perPositionAcceptance()).containsExactly(0.7, 0.5, 0.3);
    assertThat(s.acceptRate()).isEqualTo(50.0);
    assertThat(s.ratePercent()).isTrue();
    assertThat(s.cumulative()).isFalse();
  }

  @Test
  void thirdFormatWithMeanLengthAndPerPosition() {
    VllmSpecDecoding s = parsed(SPEC_V3, VllmSpecDecoding.class);
    assertThat(s.format()).isEqualTo(VllmV1Parser.SPEC_V3);
    assertThat(s.acceptRate()).isEqualTo(40.0);
    assertThat(s.meanAcceptanceLength()).isEqualTo(1.8);
    assertThat(s.perPositionAcceptance()).containsExactly(0.6, 0.2);
  }

  @Test
  void secondFormatWithApiServerPrefix() {
    VllmSpecDecoding s = parsed(SPEC_V2, VllmSpecDecoding.class);
    assertThat(s.format()).isEqualTo(VllmV1Parser.SPEC_V2);
    assertThat(s.processTag()).isEqualTo("APIServer pid=1");
    assertThat(s.stamp()).isEqualTo(new VllmStamp(MonthDay.of(5, 7), LocalTime.of(4, 56, 17)));
    assertThat(s.acceptRate()).isEqualTo(62.5);
    assertThat(s.acceptedTokens()).isEqualTo(500);
    assertThat(s.draftedTokens()).isEqualTo(800);
    assertThat(s.meanAcceptanceLength()).isNull();
    assertThat(s.perPositionAcceptance()).isEmpty();
  }

  @Test
  void firstV1FormatIsAFraction() {
    VllmSpecDecoding s = parsed(SPEC_V1, VllmSpecDecoding.class);
    assertThat(s.format()).isEqualTo(VllmV1Parser.SPEC_V1);
    assertThat(s.acceptRate()).isEqualTo(0.65);
    assertThat(s.ratePercent()).isFalse();
    assertThat(s.acceptedTokens()).isEqualTo(1300);
    assertThat(s.draftedTokens()).isEqualTo(2000);
  }

  @Test
  void nanWhenIdleIsNotAnError() {
    VllmSpecDecoding s = parsed(SPEC_IDLE, VllmSpecDecoding.class);
    assertThat(s.acceptRate()).isNull();
    assertThat(s.acceptedTokens()).isZero();
    assertThat(s.draftedTokens()).isZero();
  }

  @Test
  void v0Lines() {
    VllmThroughput t = parsed(V0_THROUGHPUT, VllmThroughput.class);
    assertThat(t.format()).isEqualTo(VllmV0Parser.THROUGHPUT);
    assertThat(t.running()).isEqualTo(2);
    assertThat(t.queued()).isEqualTo(3);
    assertThat(t.swapped()).isZero();
    assertThat(t.genThroughput()).isEqualTo(95.3);

    VllmSpecDecoding s = parsed(V0_SPEC, VllmSpecDecoding.class);
    assertThat(s.format()).isEqualTo(VllmV0Parser.SPEC_METRICS);
    assertThat(s.cumulative()).isTrue();
    assertThat(s.acceptRate()).isEqualTo(0.6);
    assertThat(s.systemEfficiency()).isEqualTo(0.4);
    assertThat(s.numSpeculativeTokens()).isEqualTo(4);
    assertThat(s.acceptedTokens()).isEqualTo(2400);
    assertThat(s.draftedTokens()).isEqualTo(4000);
    assertThat(s.emittedTokens()).isEqualTo(3000);

    VllmStageTimes st = parsed(V0_STAGE, VllmStageTimes.class);
    assertThat(st.proposalMsPerToken()).isEqualTo(2.5);
    assertThat(st.scoringMs()).isEqualTo(25.0);
    assertThat(st.verificationMs()).isEqualTo(1.5);
  }

  @Test
  void truncatedLinesFailWithTheFieldNamed() {
    ParseResult cut =
        registry.parse(
            V1_PREFIX + "SpecDecoding metrics: Mean acceptance length: 2.10, Accepted throu");
    assertThat(cut).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) cut).format()).isEqualTo(VllmV1Parser.SPEC_V3);
    assertThat(((ParseResult.Failed) cut).reason()).contains("Accepted");

    ParseResult v0cut =
        registry.parse("INFO 08-01 10:00:00 metrics.py:345] Avg prompt throughput: 0.0");
    assertThat(v0cut).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) v0cut).format()).isEqualTo(VllmV0Parser.THROUGHPUT);

    ParseResult badTime =
        registry.parse(
            "INFO 13-45 10:00:00 [loggers.py:1] " + SPEC_V2.substring(SPEC_V2.indexOf("Spec")));
    assertThat(badTime).isInstanceOf(ParseResult.Failed.class);
  }

  @Test
  void linesCutInTheirLastNumberAreDeadLetteredNotParsedShort() {
    // terminal width cut "Accepted: 1234 tokens" to "Accepted: 12": never a parsed 12
    String v2 = SPEC_V2.substring(0, SPEC_V2.indexOf("Accepted: 500") + "Accepted: 5".length());
    ParseResult cut = registry.parse(v2);
    assertThat(cut).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) cut).format()).isEqualTo(VllmV1Parser.SPEC_V2);
    assertThat(((ParseResult.Failed) cut).reason()).contains("truncated").contains("'Accepted'");

    String v4 = SPEC_V4.substring(0, SPEC_V4.indexOf("Drafted: 3000") + "Drafted: 30".length());
    ParseResult cut4 = registry.parse(v4);
    assertThat(cut4).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) cut4).format()).isEqualTo(VllmV1Parser.SPEC_V4);
    assertThat(((ParseResult.Failed) cut4).reason()).contains("'Drafted'");

    ParseResult engineCut = registry.parse(ENGINE.substring(0, ENGINE.indexOf("23.5%") + 3));
    assertThat(engineCut).isInstanceOf(ParseResult.Failed.class);
    assertThat(((ParseResult.Failed) engineCut).format()).isEqualTo(VllmV1Parser.ENGINE);
    assertThat(((ParseResult.Failed) engineCut).reason()).contains("'GPU KV cache usage'");

    // the whole lines still parse
    for (String whole : new String[] {SPEC_V2, SPEC_V3, SPEC_V4, SPEC_IDLE, ENGINE}) {
      assertThat(registry.parse(whole)).as(whole).isInstanceOf(ParseResult.Parsed.class);
    }
  }

  @Test
  void linesMissingTheirStartAreNotMetrics() {
    assertThat(registry.parse("coding metrics: Draft acceptance rate: 62.5%, Accepted: 5 tokens"))
        .isInstanceOf(ParseResult.NotMetric.class);
    assertThat(registry.parse("INFO:     127.0.0.1:51234 - \"POST /v1/completions HTTP/1.1\" 200"))
        .isInstanceOf(ParseResult.NotMetric.class);
  }
}
