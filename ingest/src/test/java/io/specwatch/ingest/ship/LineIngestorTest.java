package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.normalise.EventIds;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RequestAcceptance;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class LineIngestorTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private final LineIngestor ingestor =
      new LineIngestor(
          new SourceContext("dep", "gpu-1", "/logs/a.log", "fp"),
          NormaliseConfig.defaults(),
          ParserRegistry.defaults(),
          Clock.fixed(NOW, ZoneOffset.UTC));

  private static SourceLine line(long no, long offset, String text) {
    return new SourceLine(no, offset, text.getBytes(StandardCharsets.UTF_8), text);
  }

  @Test
  void failedLineBecomesAReplayableDeadLetter() {
    String text =
        "[2025-10-20 09:05:03 TP0] Decode batch. #running-req: 1, #token: 1797, token usage:"
            + " 0.00, accept len: nan, cuda graph: False, gen throughput (token/s): 56.70,"
            + " #queue-req: 0, ";
    IngestOutcome outcome = ingestor.ingest(line(7, 512, text));
    assertThat(outcome).isInstanceOf(IngestOutcome.Dead.class);
    DeadLetter d = ((IngestOutcome.Dead) outcome).deadLetter();
    assertThat(d.getStage()).isEqualTo("ingest.parse");
    assertThat(d.getSource()).isEqualTo("/logs/a.log");
    assertThat(d.getHost()).isEqualTo("gpu-1");
    assertThat(d.getOffset()).isEqualTo(512L);
    assertThat(d.getLineNumber()).isEqualTo(7L);
    assertThat(d.getFormat()).isEqualTo("sglang.decode_batch");
    assertThat(d.getErrorClass()).isEqualTo("ParseFailure");
    assertThat(d.getErrorMessage()).isEqualTo("accept len is not a finite number: 'nan'");
    assertThat(d.getFailedAt()).isEqualTo(NOW);
    assertThat(StandardCharsets.UTF_8.decode(d.getRaw()).toString()).isEqualTo(text);
    assertThat(d.getContext()).containsEntry("deploymentId", "dep");
  }

  @Test
  void absurdValuesAreDeadLetteredWithTheFieldNamed() {
    String absurdLength =
        "[2025-10-20 09:05:03 TP0] Decode batch. #running-req: 1, #token: 1797, token usage:"
            + " 0.10, accept len: 100000.00, cuda graph: False, gen throughput (token/s): 56.70,"
            + " #queue-req: 0, ";
    IngestOutcome outcome = ingestor.ingest(line(9, 900, absurdLength));
    assertThat(outcome).isInstanceOf(IngestOutcome.Dead.class);
    DeadLetter d = ((IngestOutcome.Dead) outcome).deadLetter();
    assertThat(d.getErrorClass()).isEqualTo(LineIngestor.IMPLAUSIBLE);
    assertThat(d.getErrorMessage()).contains("acceptLength").contains("100000.0");
    assertThat(d.getFormat()).isEqualTo("sglang.decode_batch");

    String absurdThroughput =
        absurdLength.replace("100000.00", "2.5").replace("56.70", "5000000000000.00");
    IngestOutcome t = ingestor.ingest(line(10, 1000, absurdThroughput));
    assertThat(t).isInstanceOf(IngestOutcome.Dead.class);
    assertThat(((IngestOutcome.Dead) t).deadLetter().getErrorMessage())
        .contains("genThroughputTokS");

    // the same line with plausible numbers is an event
    assertThat(ingestor.ingest(line(11, 1100, absurdLength.replace("100000.00", "2.5"))))
        .isInstanceOf(IngestOutcome.Event.class);
  }

  @Test
  void aMetricLineHoldingALineTerminatorIsDeadLetteredWhateverItsFormat() {
    // UTF-8 of U+2028 (E2 80 A8) inside a vLLM field name: the field would be unknown, the line an
    // event without its mean acceptance length; NEL (C2 85) inside an SGLang value likewise
    String vllm =
        "INFO 06-06 14:20:34 [loggers.py:116] SpecDecoding metrics: Mean\u2028acceptance length:"
            + " 2.50, Accepted throughput: 150.00 tokens/s, Drafted throughput: 300.00 tokens/s,"
            + " Accepted: 1500 tokens, Drafted: 3000 tokens, Avg Draft acceptance rate: 50.0%";
    String sglang =
        "[2025-10-20 09:05:03 TP0] Decode batch. #running-req: 1, #token: 1797, token usage:"
            + " 0.00, accept len: 2.\u00855, gen throughput (token/s): 56.70, #queue-req: 0, ";
    for (String text : java.util.List.of(vllm, sglang)) {
      byte[] raw = text.getBytes(StandardCharsets.UTF_8);
      IngestOutcome outcome = ingestor.ingest(SourceLine.of(4, 300, raw, raw.length));
      assertThat(outcome).as(text).isInstanceOf(IngestOutcome.Dead.class);
      DeadLetter d = ((IngestOutcome.Dead) outcome).deadLetter();
      assertThat(d.getErrorClass()).isEqualTo("ParseFailure");
      assertThat(d.getErrorMessage()).startsWith("line terminator U+");
      assertThat(d.getFormat()).startsWith(text == vllm ? "vllm." : "sglang.");
      assertThat(d.getOffset()).isEqualTo(300L);
      assertThat(d.getRaw()).isEqualTo(java.nio.ByteBuffer.wrap(raw));
      // without the terminator the same line is an event
      String clean = text.replace("\u2028", " ").replace("\u0085", "");
      assertThat(ingestor.ingest(line(5, 400, clean)))
          .as(clean)
          .isNotInstanceOf(IngestOutcome.Dead.class);
    }
  }

  @Test
  void metricAndOtherLines() {
    assertThat(
            ingestor.ingest(
                line(
                    1,
                    0,
                    "[2025-10-20 09:01:11 TP0] Decode batch. #running-req: 1, #token: 489, token"
                        + " usage: 0.00, cuda graph: True, gen throughput (token/s): 80.43,"
                        + " #queue-req: 0, ")))
        .isInstanceOf(IngestOutcome.Event.class);
    assertThat(ingestor.ingest(line(2, 10, ""))).isInstanceOf(IngestOutcome.Unrecognised.class);
    assertThat(ingestor.ingest(line(3, 11, "INFO: started")))
        .isInstanceOf(IngestOutcome.Unrecognised.class);
  }

  private static String vllmConfig(String speculativeConfig) {
    return "INFO 06-06 14:20:00 [core.py:75] Initializing a V1 LLM engine (v0.10.1) with config:"
        + " model='meta-llama/Llama-3.1-8B-Instruct', speculative_config="
        + speculativeConfig
        + ", tensor_parallel_size=1, enforce_eager=False, seed=0";
  }

  private static final String ENGINE_LINE =
      "INFO 06-06 14:20:30 [loggers.py:116] Engine 000: Avg prompt throughput: 10.0 tokens/s, Avg"
          + " generation throughput: 800.0 tokens/s, Running: 4 reqs, Waiting: 0 reqs, GPU KV"
          + " cache usage: 5.0%, Prefix cache hit rate: 0.0%";

  private static io.specwatch.schemas.DecodeEvent engineEvent(IngestOutcome outcome) {
    if (outcome instanceof IngestOutcome.Many many) {
      return many.parts().stream()
          .filter(IngestOutcome.Event.class::isInstance)
          .map(p -> ((IngestOutcome.Event) p).event())
          .findFirst()
          .orElseThrow();
    }
    return ((IngestOutcome.Event) outcome).event();
  }

  @Test
  void vllmThroughputLinesGiveTheStepTimeOnlyWhenTheRunContextSaysPlain() {
    LineIngestor plain =
        new LineIngestor(
            new SourceContext("llama-plain", "gpu-2", "/logs/p.log", "fp"),
            NormaliseConfig.defaults().withLogYear(2025),
            ParserRegistry.defaults(),
            Clock.fixed(NOW, ZoneOffset.UTC));
    assertThat(engineEvent(plain.ingest(line(1, 0, ENGINE_LINE))).getCycleMs())
        .as("no run context yet: unknown, so no t_AR")
        .isNull();
    plain.ingest(line(2, 300, vllmConfig("None")));
    assertThat(engineEvent(plain.ingest(line(3, 600, ENGINE_LINE))).getCycleMs())
        .as("speculative_config=None: 1000 * 4 / 800")
        .isEqualTo(5.0);

    LineIngestor spec =
        new LineIngestor(
            new SourceContext("llama-eagle3", "gpu-1", "/logs/s.log", "fp"),
            NormaliseConfig.defaults().withLogYear(2025),
            ParserRegistry.defaults(),
            Clock.fixed(NOW, ZoneOffset.UTC));
    spec.ingest(
        line(
            1,
            0,
            vllmConfig(
                "SpeculativeConfig(method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B',"
                    + " num_spec_tokens=3)")));
    assertThat(engineEvent(spec.ingest(line(2, 300, ENGINE_LINE))).getCycleMs())
        .as("the same line of an EAGLE-3 deployment")
        .isNull();
  }

  @Test
  void perRequestLineBecomesARequestAcceptance() {
    String text =
        "{\"text\":\"x\",\"meta_info\":{\"id\":\"a1b2\",\"prompt_tokens\":20,"
            + "\"completion_tokens\":64,\"spec_verify_ct\":20,\"spec_accept_rate\":0.55,"
            + "\"spec_accept_histogram\":[2,4,6,8]}}";
    IngestOutcome outcome = ingestor.ingest(line(3, 200, text));
    assertThat(outcome).isInstanceOf(IngestOutcome.Request.class);
    RequestAcceptance r = ((IngestOutcome.Request) outcome).request();
    assertThat(r.getEventId()).isEqualTo(EventIds.of("gpu-1", "/logs/a.log", "fp", 200, text));
    assertThat(r.getRequestId()).isEqualTo("a1b2");
    assertThat(r.getDeploymentId()).isEqualTo("dep");
    assertThat(r.getHost()).isEqualTo("gpu-1");
    assertThat(r.getSource()).isEqualTo("/logs/a.log");
    assertThat(r.getEngine()).isEqualTo(Engine.SGLANG);
    assertThat(r.getFinishedAt()).isEqualTo(NOW); // no ts: ingest time
    assertThat(r.getPromptTokens()).isEqualTo(20L);
    assertThat(r.getOutputTokens()).isEqualTo(64L);
    assertThat(r.getVerifyCycles()).isEqualTo(20L);
    assertThat(r.getAcceptedTokens()).isEqualTo(40L);
    assertThat(r.getAcceptLength()).isEqualTo(3.2);
    assertThat(r.getRawAcceptRate()).isEqualTo(0.55);
    assertThat(r.getAcceptHistogram()).containsExactly(2L, 4L, 6L, 8L);

    IngestOutcome v1 =
        ingestor.ingest(
            line(
                4,
                400,
                "{\"ts\":1772366400000,\"request_id\":\"q\",\"output_tokens\":9,"
                    + "\"verify_cycles\":6}"));
    RequestAcceptance q = ((IngestOutcome.Request) v1).request();
    assertThat(q.getEngine()).isEqualTo(Engine.INSTRUMENTED);
    assertThat(q.getFinishedAt()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
    assertThat(q.getAcceptLength()).isEqualTo(1.5);

    IngestOutcome broken =
        ingestor.ingest(line(5, 500, "{\"request_id\":\"q\",\"verify_cycles\":"));
    DeadLetter d = ((IngestOutcome.Dead) broken).deadLetter();
    assertThat(d.getFormat()).isEqualTo("request.v1");
    assertThat(d.getErrorClass()).isEqualTo("ParseFailure");
    assertThat(d.getErrorMessage()).startsWith("invalid JSON");
  }
}
