package io.specwatch.ingest.scrape;

import static io.specwatch.ingest.scrape.PromTextParserTest.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class IntervalDeriverTest {

  private static final String URL = "http://gpu-node-07:8000/metrics";
  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");
  private static final Instant T1 = T0.plusMillis(10_000);
  private static final Instant T2 = T1.plusMillis(10_500);

  private static List<PromSample> sample(String name) {
    return PromTextParser.parse(resource(name));
  }

  @Test
  void vllmFirstScrapePrimesThenDeltasBecomeAnInterval() {
    IntervalDeriver d = new IntervalDeriver("kimi-a", "gpu-node-07", ScrapeEngine.AUTO);

    assertThat(d.onScrape(URL, T0, sample("vllm-metrics-1.txt"))).isEmpty();
    List<DecodeEvent> events = d.onScrape(URL, T1, sample("vllm-metrics-2.txt"));

    assertThat(events).hasSize(1);
    DecodeEvent e = events.get(0);
    assertThat(e.getEngine()).isEqualTo(Engine.VLLM);
    assertThat(e.getFormat()).isEqualTo("prometheus.vllm");
    assertThat(e.getKind()).isEqualTo(EventKind.INTERVAL);
    assertThat(e.getDeploymentId()).isEqualTo("kimi-a");
    assertThat(e.getHost()).isEqualTo("gpu-node-07");
    assertThat(e.getSource()).isEqualTo(URL);
    assertThat(e.getEventTime()).isEqualTo(T1);
    assertThat(e.getIntervalMs()).isEqualTo(10_000.0);
    // 1400-1000 drafts, 4200-3000 drafted, 2500-1800 accepted
    assertThat(e.getCycles()).isEqualTo(400L);
    assertThat(e.getDraftedTokens()).isEqualTo(1200L);
    assertThat(e.getAcceptedTokens()).isEqualTo(700L);
    assertThat(e.getEmittedTokens()).isEqualTo(1100L);
    assertThat(e.getAcceptLength()).isEqualTo(2.75); // 1 + 700/400
    assertThat(e.getAcceptRate()).isCloseTo(0.583333, within(1e-6)); // 700/1200
    // 1100-800, 840-600, 560-400 over 400 drafts
    assertThat(e.getPerPositionAccepted()).containsExactly(300L, 240L, 160L);
    assertThat(e.getPerPositionAcceptance()).containsExactly(0.75, 0.6, 0.4);
    assertThat(e.getRunningRequests()).isEqualTo(9);
    assertThat(e.getRawFields())
        .containsEntry("vllm:spec_decode_num_drafts_total", "1400.0")
        .containsEntry("vllm:spec_decode_num_accepted_tokens_per_pos_total{position=1}", "840.0")
        .containsEntry("series", "engine=0,model_name=moonshotai/Kimi-K2.5")
        .doesNotContainKey("counter_reset");
    assertThat(e.getEventId())
        .isEqualTo(
            ScrapeEventIds.of(URL, "engine=0,model_name=moonshotai/Kimi-K2.5", T1.toEpochMilli()))
        .hasSize(32);
  }

  @Test
  void vllmCounterResetTakesTheNewValuesAsTheDelta() {
    IntervalDeriver d = new IntervalDeriver("kimi-a", "h", ScrapeEngine.VLLM);
    d.onScrape(URL, T0, sample("vllm-metrics-1.txt"));
    d.onScrape(URL, T1, sample("vllm-metrics-2.txt"));

    // the engine restarted: counters are back at the values of the first sample
    DecodeEvent e = d.onScrape(URL, T2, sample("vllm-metrics-1.txt")).get(0);

    assertThat(e.getIntervalMs()).isEqualTo(10_500.0);
    assertThat(e.getCycles()).isEqualTo(1000L);
    assertThat(e.getDraftedTokens()).isEqualTo(3000L);
    assertThat(e.getAcceptedTokens()).isEqualTo(1800L);
    assertThat(e.getAcceptLength()).isEqualTo(2.8); // 1 + 1800/1000
    assertThat(e.getAcceptRate()).isEqualTo(0.6); // 1800/3000
    assertThat(e.getPerPositionAccepted()).containsExactly(800L, 600L, 400L);
    assertThat(e.getPerPositionAcceptance()).containsExactly(0.8, 0.6, 0.4);
    assertThat(e.getRunningRequests()).isEqualTo(12);
    assertThat(e.getRawFields()).containsEntry("counter_reset", "true");
  }

  @Test
  void vllmIdleIntervalHasZeroCyclesAndNoRatios() {
    IntervalDeriver d = new IntervalDeriver("kimi-a", "h", ScrapeEngine.AUTO);
    d.onScrape(URL, T0, sample("vllm-metrics-1.txt"));

    DecodeEvent e = d.onScrape(URL, T1, sample("vllm-metrics-1.txt")).get(0);

    assertThat(e.getCycles()).isZero();
    assertThat(e.getAcceptLength()).isNull();
    assertThat(e.getAcceptRate()).isNull();
    assertThat(e.getPerPositionAccepted()).containsExactly(0L, 0L, 0L);
    assertThat(e.getPerPositionAcceptance()).isEmpty();
  }

  @Test
  void urlsAndEngineLabelsKeepSeparateCounters() {
    IntervalDeriver d = new IntervalDeriver("kimi-a", "h", ScrapeEngine.AUTO);
    String other = "http://gpu-node-08:8000/metrics";
    d.onScrape(URL, T0, sample("vllm-metrics-1.txt"));

    assertThat(d.onScrape(other, T1, sample("vllm-metrics-2.txt"))).isEmpty();
    assertThat(d.onScrape(URL, T1, sample("vllm-metrics-2.txt"))).hasSize(1);
    assertThat(
            d.onScrape(
                URL,
                T2,
                PromTextParser.parse(
                    resource("vllm-metrics-2.txt").replace("engine=\"0\"", "engine=\"1\""))))
        .isEmpty(); // a new engine label is primed, engine 0 vanished this scrape
  }

  @Test
  void sglangGaugesAndVerifyCallDeltas() {
    IntervalDeriver d = new IntervalDeriver("kimi-s", "h", ScrapeEngine.AUTO);
    String text = resource("sglang-metrics.txt");
    assertThat(d.onScrape(URL, T0, PromTextParser.parse(text))).isEmpty();

    DecodeEvent e =
        d.onScrape(URL, T1, PromTextParser.parse(text.replace("} 5000.0", "} 5600.0"))).get(0);

    assertThat(e.getEngine()).isEqualTo(Engine.SGLANG);
    assertThat(e.getFormat()).isEqualTo("prometheus.sglang");
    assertThat(e.getKind()).isEqualTo(EventKind.INTERVAL);
    assertThat(e.getIntervalMs()).isEqualTo(10_000.0);
    assertThat(e.getAcceptLength()).isEqualTo(2.85);
    assertThat(e.getAcceptRate()).isEqualTo(0.617);
    assertThat(e.getRawAcceptRate()).isEqualTo(0.617);
    assertThat(e.getDecodePasses()).isEqualTo(600L);
    assertThat(e.getCycles()).isNull();
    assertThat(e.getGenThroughputTokS()).isEqualTo(1234.5);
    assertThat(e.getRunningRequests()).isEqualTo(24);
    assertThat(e.getRawFields())
        .containsEntry("sglang:spec_verify_calls_total", "5600.0")
        .containsEntry("series", "engine_type=unified,model_name=moonshotai/Kimi-K2.5,tp_rank=0");

    DecodeEvent restarted =
        d.onScrape(URL, T2, PromTextParser.parse(text.replace("} 5000.0", "} 250.0"))).get(0);
    assertThat(restarted.getDecodePasses()).isEqualTo(250L);
    assertThat(restarted.getRawFields()).containsEntry("counter_reset", "true");
  }

  @Test
  void forcedEngineIgnoresTheOtherFamily() {
    IntervalDeriver d = new IntervalDeriver("x", "h", ScrapeEngine.SGLANG);
    d.onScrape(URL, T0, sample("vllm-metrics-1.txt"));
    assertThat(d.onScrape(URL, T1, sample("vllm-metrics-2.txt"))).isEmpty();
  }
}
