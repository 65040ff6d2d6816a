package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.ingest.parse.MetricLine;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class DecodeEventNormaliserTest {

  static final String EAGLE_1 =
      "[2025-10-20 09:01:11 TP0] Decode batch. #running-req: 2, #token: 459, token usage: 0.01,"
          + " accept len: 1.89, accept rate: 0.44, cuda graph: False, gen throughput (token/s):"
          + " 119.42, #queue-req: 3, ";
  static final String EAGLE_2 =
      "[2025-10-20 09:01:13 TP0] Decode batch. #running-req: 2, #token: 540, token usage: 0.01,"
          + " accept len: 2.03, accept rate: 0.52, cuda graph: False, gen throughput (token/s):"
          + " 131.00, #queue-req: 0, ";
  static final Instant INGEST = Instant.parse("2026-01-01T00:00:00Z");
  static final SourceContext SOURCE =
      new SourceContext("kimi-eagle3", "gpu-07", "/var/log/sglang.log", "abcd");

  private final ParserRegistry parsers = ParserRegistry.defaults();

  private MetricLine line(String text) {
    return ((ParseResult.Parsed) parsers.parse(text)).line();
  }

  private DecodeEvent normalise(DecodeEventNormaliser n, String text, long lineNo, long offset) {
    return n.normalise(line(text), new LineOrigin(lineNo, offset, text, INGEST));
  }

  @Test
  void speculativeIntervalEvent() {
    DecodeEventNormaliser n = new DecodeEventNormaliser(SOURCE, NormaliseConfig.defaults());
    DecodeEvent first = normalise(n, EAGLE_1, 10, 1000);
    assertThat(first.getEngine()).isEqualTo(Engine.SGLANG);
    assertThat(first.getKind()).isEqualTo(EventKind.INTERVAL);
    assertThat(first.getFormat()).isEqualTo("sglang.decode_batch");
    assertThat(first.getDeploymentId()).isEqualTo("kimi-eagle3");
    assertThat(first.getHost()).isEqualTo("gpu-07");
    assertThat(first.getSource()).isEqualTo("/var/log/sglang.log");
    assertThat(first.getSourceOffset()).isEqualTo(1000L);
    assertThat(first.getLineNumber()).isEqualTo(10L);
    assertThat(first.getEventTime()).isEqualTo(Instant.parse("2025-10-20T09:01:11Z"));
    assertThat(first.getIngestTime()).isEqualTo(INGEST);
    assertThat(first.getRank()).isEqualTo("TP0");
    assertThat(first.getTpRank()).isZero();
    assertThat(first.getDecodePasses()).isEqualTo(40L);
    assertThat(first.getCycles()).isEqualTo(80L);
    assertThat(first.getRunningRequests()).isEqualTo(2);
    assertThat(first.getQueuedRequests()).isEqualTo(3);
    assertThat(first.getTokenUsage()).isEqualTo(0.01);
    assertThat(first.getAcceptLength()).isEqualTo(1.89);
    assertThat(first.getAcceptedTokens()).isEqualTo(71L); // round(0.89 * 80) = 71.2
    assertThat(first.getEmittedTokens()).isEqualTo(151L); // round(1.89 * 80) = 151.2
    assertThat(first.getGenThroughputTokS()).isEqualTo(119.42);
    assertThat(first.getCudaGraph()).isFalse();
    assertThat(first.getSpecEnabled()).isTrue();
    assertThat(first.getRawAcceptRate()).isEqualTo(0.44);
    assertThat(first.getAcceptRate()).isEqualTo(0.44);
    assertThat(first.getRawAcceptRateDefinition()).isEqualTo("accepted_over_drafted");
    assertThat(first.getIntervalMs()).isNull();
    assertThat(first.getCycleMs()).isNull();
    // only what no typed field holds (--raw-fields UNTYPED, the default) ...
    assertThat(first.getRawFields()).containsExactly(entry("#token", "459"));
    // ... or every printed field, in line order, with ALL
    DecodeEvent all =
        normalise(
            new DecodeEventNormaliser(
                SOURCE, NormaliseConfig.defaults().withRawFields(RawFieldsPolicy.ALL)),
            EAGLE_1,
            10,
            1000);
    assertThat(all.getRawFields().keySet())
        .containsExactly(
            "#running-req",
            "#token",
            "token usage",
            "accept len",
            "accept rate",
            "cuda graph",
            "gen throughput (token/s)",
            "#queue-req");
    assertThat(all.getRawFields()).containsEntry("accept rate", "0.44");

    DecodeEvent second = normalise(n, EAGLE_2, 11, 1200);
    assertThat(second.getIntervalMs()).isEqualTo(2000.0);
    assertThat(second.getCycleMs()).isEqualTo(50.0);
  }

  @Test
  void intervalsAreTrackedPerRank() {
    DecodeEventNormaliser n = new DecodeEventNormaliser(SOURCE, NormaliseConfig.defaults());
    String dp0 = EAGLE_1.replace("TP0]", "DP0 TP0]");
    String dp1 = EAGLE_2.replace("09:01:13 TP0]", "09:01:12 DP1 TP1]");
    String dp0Later = EAGLE_2.replace("09:01:13 TP0]", "09:01:14 DP0 TP0]");
    assertThat(normalise(n, dp0, 1, 0).getIntervalMs()).isNull();
    assertThat(normalise(n, dp1, 2, 200).getIntervalMs()).isNull();
    DecodeEvent third = normalise(n, dp0Later, 3, 400);
    assertThat(third.getIntervalMs()).isEqualTo(3000.0);
    assertThat(third.getDpRank()).isZero();
  }

  @Test
  void baselineLineIsNotSpeculative() {
    String text =
        "[2025-10-20 09:01:11 TP0] Decode batch. #running-req: 1, #token: 489, token usage: 0.00,"
            + " cuda graph: True, gen throughput (token/s): 80.43, #queue-req: 0, ";
    DecodeEvent e =
        normalise(new DecodeEventNormaliser(SOURCE, NormaliseConfig.defaults()), text, 1, 0);
    assertThat(e.getSpecEnabled()).isFalse();
    assertThat(e.getAcceptLength()).isNull();
    assertThat(e.getAcceptedTokens()).isNull();
    assertThat(e.getAcceptRate()).isNull();
    assertThat(e.getEmittedTokens()).isEqualTo(40L);
    assertThat(e.getCycles()).isEqualTo(40L);
    assertThat(e.getCudaGraph()).isTrue();
  }

  @Test
  void configuredIntervalZoneAndOlderAcceptRate() {
    NormaliseConfig config =
        new NormaliseConfig(
            10,
            ZoneId.of("Europe/Berlin"),
            AcceptRateDefinition.TOKENS_INCL_BONUS_OVER_CYCLES_X_STEPS_PLUS_1,
            2);
    DecodeEvent e = normalise(new DecodeEventNormaliser(SOURCE, config), EAGLE_1, 1, 0);
    assertThat(e.getEventTime()).isEqualTo(Instant.parse("2025-10-20T07:01:11Z"));
    assertThat(e.getDecodePasses()).isEqualTo(10L);
    assertThat(e.getCycles()).isEqualTo(20L);
    assertThat(e.getRawAcceptRateDefinition())
        .isEqualTo("tokens_incl_bonus_over_cycles_x_steps_plus_1");
    // raw 0.44 = tau / 3 -> tau 1.32 -> 0.32 accepted of 2 drafted
    assertThat(e.getAcceptRate()).isCloseTo(0.16, within(1e-9));
  }

  @Test
  void lineWithoutTimestampUsesIngestTime() {
    String text =
        "Decode batch, #running-req: 2, #token: 10, token usage: 0.00, gen throughput"
            + " (token/s): 160.00, #queue-req: 0";
    DecodeEvent e =
        normalise(new DecodeEventNormaliser(SOURCE, NormaliseConfig.defaults()), text, 1, 0);
    assertThat(e.getEventTime()).isEqualTo(INGEST);
    assertThat(e.getIntervalMs()).isNull();
    assertThat(e.getRank()).isNull();
  }

  @Test
  void eventIdIsDeterministicAndPositional() {
    DecodeEvent a =
        normalise(new DecodeEventNormaliser(SOURCE, NormaliseConfig.defaults()), EAGLE_1, 1, 0);
    DecodeEvent b =
        new DecodeEventNormaliser(SOURCE, NormaliseConfig.defaults())
            .normalise(line(EAGLE_1), new LineOrigin(1, 0, EAGLE_1, INGEST.plusSeconds(3600)));
    assertThat(a.getEventId()).isEqualTo(b.getEventId()).hasSize(32).matches("[0-9a-f]{32}");
    assertThat(
            normalise(new DecodeEventNormaliser(SOURCE, NormaliseConfig.defaults()), EAGLE_1, 1, 7)
                .getEventId())
        .isNotEqualTo(a.getEventId());
    SourceContext otherHost = new SourceContext("kimi-eagle3", "gpu-08", SOURCE.source(), "abcd");
    assertThat(
            normalise(
                    new DecodeEventNormaliser(otherHost, NormaliseConfig.defaults()), EAGLE_1, 1, 0)
                .getEventId())
        .isNotEqualTo(a.getEventId());
  }
}
