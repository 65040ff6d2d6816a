package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pairing and derivations of vLLM and TensorRT-LLM events, hand-computed. */
class VllmNormaliserTest {

  private static final Instant INGEST = Instant.parse("2026-01-02T00:00:00Z");
  private final ParserRegistry registry = ParserRegistry.defaults();

  private List<DecodeEvent> normalise(NormaliseConfig config, String... lines) {
    return normalise(
        new DecodeEventNormaliser(new SourceContext("d", "h", "/log", "fp"), config), lines);
  }

  private List<DecodeEvent> normalise(DecodeEventNormaliser n, String... lines) {
    List<DecodeEvent> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      ParseResult r = registry.parse(lines[i]);
      assertThat(r).as(lines[i]).isInstanceOf(ParseResult.Parsed.class);
      out.add(
          n.normalise(
              ((ParseResult.Parsed) r).line(), new LineOrigin(i + 1, i * 100L, lines[i], INGEST)));
    }
    return out;
  }

  private List<DecodeEvent> normalise(String... lines) {
    return normalise(NormaliseConfig.defaults().withLogYear(2025), lines);
  }

  @Test
  void engineLinePairsWithTheSpecLineOfTheSameInterval() {
    String p = "INFO 06-06 14:20:34 [loggers.py:116] ";
    List<DecodeEvent> e =
        normalise(
            p
                + "Engine 000: Avg prompt throughput: 12.5 tokens/s, Avg generation throughput: 250.0"
                + " tokens/s, Running: 4 reqs, Waiting: 1 reqs, GPU KV cache usage: 23.5%, Prefix"
                + " cache hit rate: 40.0%",
            "INFO 06-06 14:20:35 [loggers.py:116] SpecDecoding metrics: Mean acceptance length:"
                + " 2.50, Accepted throughput: 150.00 tokens/s, Drafted throughput: 300.00 tokens/s,"
                + " Accepted: 1500 tokens, Drafted: 3000 tokens, Per-position acceptance rate: 0.700,"
                + " 0.500, 0.300, Avg Draft acceptance rate: 50.0%",
            p
                + "Engine 001: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0"
                + " tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%, Prefix"
                + " cache hit rate: 0.0%",
            p
                + "SpecDecoding metrics: Draft acceptance rate: nan%, Accepted: 0 tokens, Drafted: 0"
                + " tokens",
            "INFO 06-06 14:20:44 [loggers.py:116] SpecDecoding metrics: Mean acceptance length:"
                + " 1.00, Accepted throughput: 0.00 tokens/s, Drafted throughput: 120.00 tokens/s,"
                + " Accepted: 0 tokens, Drafted: 1200 tokens, Per-position acceptance rate: 0.000,"
                + " 0.000, 0.000, Avg Draft acceptance rate: 0.0%");

    DecodeEvent engine = e.get(0);
    assertThat(engine.getEngine()).isEqualTo(Engine.VLLM);
    assertThat(engine.getFormat()).isEqualTo("vllm.v1.engine");
    assertThat(engine.getSpecEnabled()).isFalse();
    assertThat(engine.getRank()).isEqualTo("engine 000");
    assertThat(engine.getEventTime()).isEqualTo(Instant.parse("2025-06-06T14:20:34Z"));

    DecodeEvent spec = e.get(1);
    assertThat(spec.getKind()).isEqualTo(EventKind.INTERVAL);
    assertThat(spec.getSpecEnabled()).isTrue();
    assertThat(spec.getRank()).isEqualTo("engine 000");
    assertThat(spec.getDpRank()).isZero();
    assertThat(spec.getRunningRequests()).isEqualTo(4);
    assertThat(spec.getQueuedRequests()).isEqualTo(1);
    assertThat(spec.getTokenUsage()).isCloseTo(0.235, within(1e-9));
    assertThat(spec.getGenThroughputTokS()).isEqualTo(250.0);
    // drafts = Drafted / k = 3000 / 3 positions
    assertThat(spec.getCycles()).isEqualTo(1000L);
    assertThat(spec.getAcceptLength()).isEqualTo(2.5);
    assertThat(spec.getAcceptedTokens()).isEqualTo(1500L);
    assertThat(spec.getDraftedTokens()).isEqualTo(3000L);
    assertThat(spec.getEmittedTokens()).isEqualTo(2500L);
    assertThat(spec.getAcceptRate()).isEqualTo(0.5);
    assertThat(spec.getRawAcceptRate()).isEqualTo(50.0);
    assertThat(spec.getRawAcceptRateDefinition()).isEqualTo("percent_accepted_over_drafted");
    assertThat(spec.getPerPositionAcceptance()).containsExactly(0.7, 0.5, 0.3);
    // interval = 1500 tokens / 150 tokens/s; T_cyc = 10000 ms * 4 running / 1000 drafts
    assertThat(spec.getIntervalMs()).isEqualTo(10_000.0);
    assertThat(spec.getCycleMs()).isEqualTo(40.0);

    DecodeEvent idle = e.get(3);
    assertThat(idle.getRank()).isEqualTo("engine 001");
    assertThat(idle.getCycles()).isZero();
    assertThat(idle.getAcceptLength()).isNull();
    assertThat(idle.getRawAcceptRate()).isNull();
    assertThat(idle.getAcceptRate()).isNull();

    DecodeEvent broken = e.get(4);
    assertThat(broken.getRank()).isNull();
    assertThat(broken.getRunningRequests()).isNull();
    assertThat(broken.getCycles()).isEqualTo(400L);
    assertThat(broken.getAcceptLength()).isEqualTo(1.0);
    assertThat(broken.getAcceptRate()).isZero();
    assertThat(broken.getIntervalMs()).isEqualTo(10_000.0);
    assertThat(broken.getGenThroughputTokS()).isNull();
  }

  private static String engineLine(String time, double genThroughput, int running) {
    return "INFO 06-06 "
        + time
        + " [loggers.py:116] Engine 000: Avg prompt throughput: 10.0 tokens/s, Avg generation"
        + " throughput: "
        + genThroughput
        + " tokens/s, Running: "
        + running
        + " reqs, Waiting: 0 reqs, GPU KV cache usage: 5.0%, Prefix cache hit rate: 0.0%";
  }

  private List<DecodeEvent> plain(boolean knownNonSpeculative, String... lines) {
    return normalise(
        new DecodeEventNormaliser(
            new SourceContext("d", "h", "/log", "fp"),
            NormaliseConfig.defaults().withLogYear(2025),
            deployment -> knownNonSpeculative && deployment.equals("d")),
        lines);
  }

  @Test
  void knownPlainDeploymentsThroughputLinesGiveTheStepTime() {
    List<DecodeEvent> e =
        plain(
            true,
            engineLine("14:20:30", 632.0, 4),
            engineLine("14:20:40", 640.0, 4),
            engineLine("14:20:50", 0.0, 0));
    // t_AR = 1000 * 4 requests / 632 tok/s = 6.329 ms; the first line has no interval: no cycles
    assertThat(e.get(0).getCycleMs()).isCloseTo(6.329, within(1e-3));
    assertThat(e.get(0).getCycles()).isNull();
    assertThat(e.get(0).getSpecEnabled()).isFalse();
    // 10 s at 640 tok/s = 6400 generated tokens = steps x requests; 1000 * 4 / 640 = 6.25 ms
    assertThat(e.get(1).getCycleMs()).isCloseTo(6.25, within(1e-9));
    assertThat(e.get(1).getCycles()).isEqualTo(6400L);
    assertThat(e.get(1).getEmittedTokens()).isEqualTo(6400L);
    assertThat(e.get(1).getIntervalMs()).isEqualTo(10_000.0);
    // idle: nothing to derive
    assertThat(e.get(2).getCycleMs()).isNull();
    assertThat(e.get(2).getCycles()).isNull();
  }

  @Test
  void theSameLineOfAnUnknownOrSpeculativeDeploymentGivesNoStepTime() {
    List<DecodeEvent> e = plain(false, engineLine("14:20:30", 632.0, 4));
    assertThat(e.get(0).getCycleMs()).isNull();
    assertThat(e.get(0).getCycles()).isNull();
    assertThat(e.get(0).getGenThroughputTokS()).isEqualTo(632.0);
  }

  @Test
  void aSpecDecodingLineOverridesAContextThatSaysPlain() {
    List<DecodeEvent> e =
        plain(
            true,
            engineLine("14:20:30", 632.0, 4),
            "INFO 06-06 14:20:30 [loggers.py:116] SpecDecoding metrics: Draft acceptance rate:"
                + " 50.0%, Accepted: 150 tokens, Drafted: 300 tokens",
            engineLine("14:20:40", 900.0, 4));
    assertThat(e.get(0).getCycleMs()).isNotNull();
    assertThat(e.get(1).getSpecEnabled()).isTrue();
    // from here on the source is known to speculate: 1000 * 4 / 900 would be T_cyc / tau
    assertThat(e.get(2).getCycleMs()).isNull();
    assertThat(e.get(2).getCycles()).isNull();
  }

  @Test
  void unpairedNewestFormatDerivesEffectiveThroughput() {
    DecodeEvent s =
        normalise(
                "SpecDecoding metrics: Mean acceptance length: 2.50, Accepted throughput: 150.00"
                    + " tokens/s, Drafted throughput: 300.00 tokens/s, Accepted: 1500 tokens,"
                    + " Drafted: 3000 tokens, Per-position acceptance rate: 0.700, 0.500, 0.300, Avg"
                    + " Draft acceptance rate: 50.0%")
            .get(0);
    // 150 * 2.5 / 1.5
    assertThat(s.getGenThroughputTokS()).isCloseTo(250.0, within(1e-9));
    assertThat(s.getEventTime()).isEqualTo(INGEST);
  }

  @Test
  void withoutTimestampsOnlyTheAdjacentLinePairs() {
    String engine =
        "Engine 002: Avg prompt throughput: 1.0 tokens/s, Avg generation throughput: 2.0 tokens/s,"
            + " Running: 8 reqs, Waiting: 0 reqs, GPU KV cache usage: 1.0%, Prefix cache hit rate:"
            + " 0.0%";
    String spec =
        "SpecDecoding metrics: Draft acceptance rate: 62.5%, Accepted: 500 tokens, Drafted: 800 tokens";
    List<DecodeEvent> e = normalise(engine, spec, spec);
    assertThat(e.get(1).getRunningRequests()).isEqualTo(8);
    assertThat(e.get(1).getDpRank()).isEqualTo(2);
    assertThat(e.get(2).getRunningRequests()).isNull();
  }

  @Test
  void secondFormatNeedsTheConfiguredDraftLength() {
    String line =
        "(APIServer pid=1) INFO 05-07 04:56:17 [metrics.py:101] SpecDecoding metrics: Draft"
            + " acceptance rate: 62.5%, Accepted: 500 tokens, Drafted: 800 tokens";
    DecodeEvent unknownK = normalise(line).get(0);
    assertThat(unknownK.getCycles()).isNull();
    assertThat(unknownK.getAcceptLength()).isNull();
    assertThat(unknownK.getAcceptRate()).isEqualTo(0.625);

    NormaliseConfig k4 =
        new NormaliseConfig(
            40, java.time.ZoneId.of("UTC"), AcceptRateDefinition.ACCEPTED_OVER_DRAFTED, 4);
    DecodeEvent known = normalise(k4, line).get(0);
    // drafts = 800 / 4; tau = 1 + 500 / 200
    assertThat(known.getCycles()).isEqualTo(200L);
    assertThat(known.getAcceptLength()).isEqualTo(3.5);
    // no configured year: the ingest time's year, minus one since May 2026 is after Jan 2026
    assertThat(known.getEventTime()).isEqualTo(Instant.parse("2025-05-07T04:56:17Z"));
  }

  @Test
  void v0CumulativeCountsBecomeIntervalDeltas() {
    List<DecodeEvent> e =
        normalise(
            "INFO 08-01 10:00:00 metrics.py:345] Avg prompt throughput: 0.0 tokens/s, Avg"
                + " generation throughput: 95.3 tokens/s, Running: 2 reqs, Swapped: 0 reqs,"
                + " Pending: 0 reqs, GPU KV cache usage: 5.1%, CPU KV cache usage: 0.0%.",
            "INFO 08-01 10:00:00 metrics.py:367] Speculative metrics: Draft acceptance rate: 0.600,"
                + " System efficiency: 0.400, Number of speculative tokens: 4, Number of accepted"
                + " tokens: 2400, Number of draft tokens: 4000, Number of emitted tokens: 3000.",
            "INFO 08-01 10:00:05 metrics.py:345] Avg prompt throughput: 0.0 tokens/s, Avg"
                + " generation throughput: 150.0 tokens/s, Running: 2 reqs, Swapped: 0 reqs,"
                + " Pending: 0 reqs, GPU KV cache usage: 5.3%, CPU KV cache usage: 0.0%.",
            "INFO 08-01 10:00:05 metrics.py:367] Speculative metrics: Draft acceptance rate: 0.600,"
                + " System efficiency: 0.417, Number of speculative tokens: 4, Number of accepted"
                + " tokens: 3000, Number of draft tokens: 5000, Number of emitted tokens: 3750.",
            "INFO 08-01 10:00:05 spec_decode_worker.py:1071] SpecDecodeWorker stage times:"
                + " average_time_per_proposal_tok_ms=2.50 scoring_time_ms=25.00"
                + " verification_time_ms=1.50");
    DecodeEvent first = e.get(1);
    assertThat(first.getAcceptedTokens()).isNull();
    assertThat(first.getCycles()).isNull();
    assertThat(first.getRawAcceptRateDefinition()).isEqualTo("cumulative_accepted_over_drafted");

    DecodeEvent second = e.get(3);
    assertThat(second.getAcceptedTokens()).isEqualTo(600L);
    assertThat(second.getDraftedTokens()).isEqualTo(1000L);
    assertThat(second.getEmittedTokens()).isEqualTo(750L);
    // drafts = 1000 / 4; tau = 750 emitted / 250 drafts
    assertThat(second.getCycles()).isEqualTo(250L);
    assertThat(second.getAcceptLength()).isEqualTo(3.0);
    assertThat(second.getAcceptRate()).isEqualTo(0.6);
    assertThat(second.getIntervalMs()).isEqualTo(5000.0);
    assertThat(second.getRunningRequests()).isEqualTo(2);
    assertThat(second.getGenThroughputTokS()).isEqualTo(150.0);
    // 5000 ms * 2 running / 250 drafts
    assertThat(second.getCycleMs()).isEqualTo(40.0);

    DecodeEvent stage = e.get(4);
    assertThat(stage.getDraftMs()).isEqualTo(10.0);
    assertThat(stage.getVerifyMs()).isEqualTo(25.0);
    assertThat(stage.getOverheadMs()).isEqualTo(1.5);
    assertThat(stage.getCycleMs()).isEqualTo(36.5);
  }

  @Test
  void trtllmIterationIsOneCyclePerRequestWithDrafts() {
    DecodeEvent e =
        normalise(
                "{\"iter\": 120, \"iterLatencyMS\": 30.0, \"numActiveRequests\": 4,"
                    + " \"numQueuedRequests\": 0, \"timestamp\": \"06-06-2025 14:20:34.123456\","
                    + " \"specDecodingStats\": {\"numDraftTokens\": 12, \"numAcceptedTokens\": 6,"
                    + " \"numRequestsWithDraftTokens\": 4, \"acceptanceLength\": 2.5,"
                    + " \"iterLatencyMS\": 6.0, \"draftOverhead\": 0.2}}")
            .get(0);
    assertThat(e.getEngine()).isEqualTo(Engine.TRTLLM);
    assertThat(e.getFormat()).isEqualTo("trtllm.iteration_stats");
    assertThat(e.getDecodePasses()).isEqualTo(1L);
    assertThat(e.getCycles()).isEqualTo(4L);
    assertThat(e.getAcceptLength()).isEqualTo(2.5);
    assertThat(e.getAcceptRate()).isEqualTo(0.5);
    assertThat(e.getEmittedTokens()).isEqualTo(10L);
    assertThat(e.getCycleMs()).isEqualTo(30.0);
    assertThat(e.getDraftMs()).isEqualTo(6.0);
    assertThat(e.getEventTime()).isEqualTo(Instant.parse("2025-06-06T14:20:34.123Z"));
  }
}
