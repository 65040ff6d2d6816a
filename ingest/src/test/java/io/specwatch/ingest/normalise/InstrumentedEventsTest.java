package io.specwatch.ingest.normalise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.instrumented.CycleJsonParserTest;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LineIngestor;
import io.specwatch.ingest.ship.SourceLine;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstrumentedEventsTest {

  static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");

  private final LineIngestor ingestor =
      new LineIngestor(
          new SourceContext("shipper-deployment", "gpu-1", "/var/log/hook.jsonl", "fp"),
          NormaliseConfig.defaults(),
          ParserRegistry.defaults(),
          Clock.fixed(NOW, ZoneOffset.UTC));

  private IngestOutcome ingest(String text) {
    return ingestor.ingest(new SourceLine(1, 0, text.getBytes(StandardCharsets.UTF_8), text));
  }

  @Test
  void cycleLineIsOneCycleEvent() {
    DecodeEvent e = ((IngestOutcome.Event) ingest(CycleJsonParserTest.CONTRACT)).event();
    assertThat(e.getEngine()).isEqualTo(Engine.INSTRUMENTED);
    assertThat(e.getKind()).isEqualTo(EventKind.CYCLE);
    assertThat(e.getFormat()).isEqualTo("specwatch.cycle");
    assertThat(e.getDeploymentId()).isEqualTo("kimi-eagle3"); // the line overrides the shipper's
    assertThat(e.getEventTime()).isEqualTo(Instant.parse("2026-11-30T17:00:00.123Z"));
    assertThat(e.getTpRank()).isZero();
    assertThat(e.getCycles()).isEqualTo(1L);
    assertThat(e.getDecodePasses()).isEqualTo(1L);
    assertThat(e.getRunningRequests()).isEqualTo(4);
    assertThat(e.getAcceptLength()).isEqualTo(2.5);
    assertThat(e.getAcceptedTokens()).isEqualTo(6L);
    assertThat(e.getDraftedTokens()).isEqualTo(12L);
    assertThat(e.getEmittedTokens()).isEqualTo(10L);
    assertThat(e.getAcceptRate()).isEqualTo(0.5);
    assertThat(e.getPerPositionAccepted()).containsExactly(3L, 2L, 1L);
    assertThat(e.getPerPositionAcceptance()).containsExactly(0.75, 0.5, 0.25);
    assertThat(e.getDraftMs()).isEqualTo(0.61);
    assertThat(e.getVerifyMs()).isEqualTo(28.96);
    assertThat(e.getOverheadMs()).isEqualTo(0.3);
    assertThat(e.getCycleMs()).isEqualTo(29.87);
    assertThat(e.getPromptCategory()).isEqualTo("code");
    assertThat(e.getSpecEnabled()).isTrue();
    assertThat(e.getRunContextId()).isNull();
    assertThat(e.getRawFields()).containsEntry("gpu_temp_c", "71");
  }

  @Test
  void phasesFillDraftVerifyAndOverheadWhenTheTotalsAreAbsent() {
    DecodeEvent e =
        ((IngestOutcome.Event)
                ingest(
                    CycleJsonParserTest.CONTRACT.replace(
                        "\"draft_ms\":0.61,\"verify_ms\":28.96,\"overhead_ms\":0.3,", "")))
            .event();
    assertThat(e.getDraftMs()).isEqualTo(0.61);
    assertThat(e.getVerifyMs()).isEqualTo(28.96);
    assertThat(e.getOverheadMs()).isEqualTo(0.30);
  }

  @Test
  void phaseProfileReportsAreIntervalEventsWithDistinctIds() {
    IngestOutcome o =
        ingest(
            "[2026-11-30 17:00:00 TP0] Target verify: 28.96 ms/cyc (97.0%) Target verify:"
                + " 28.94 ms/cyc (96.9%) Target verify: 28.96 ms/cyc (96.8%)");
    List<DecodeEvent> events =
        o.parts().stream().map(p -> ((IngestOutcome.Event) p).event()).toList();
    assertThat(events).hasSize(3);
    assertThat(events).extracting(DecodeEvent::getEventId).doesNotHaveDuplicates();
    assertThat(events).allMatch(e -> e.getKind() == EventKind.INTERVAL && e.getCycles() == null);
    assertThat(events).extracting(DecodeEvent::getVerifyMs).containsExactly(28.96, 28.94, 28.96);
    assertThat(events.get(0).getCycleMs()).isCloseTo(29.856, within(0.001));
    assertThat(events.get(0).getEventTime()).isEqualTo(Instant.parse("2026-11-30T17:00:00Z"));
    assertThat(events.get(0).getDraftMs()).isNull();
    assertThat(events.get(0).getAcceptLength()).isNull();
  }

  @Test
  void nonSpeculativeMetaInfoIsACountedSkipNotADeadLetter() {
    IngestOutcome o =
        ingest(
            "{\"meta_info\":{\"id\":\"q\",\"prompt_tokens\":5,\"completion_tokens\":64,"
                + "\"spec_verify_ct\":0}}");
    assertThat(o).isInstanceOf(IngestOutcome.Skipped.class);
    assertThat(((IngestOutcome.Skipped) o).format()).isEqualTo("sglang.meta_info");
    assertThat(((IngestOutcome.Skipped) o).reason()).contains("spec_verify_ct = 0");
  }

  @Test
  void aContextLineBeforeAnEventStampsItAndARequestToo() {
    IngestOutcome ctx =
        ingest(
            "{\"schema\":\"specwatch.run_context.v1\",\"ts\":\"2026-11-30T16:59:00Z\","
                + "\"model\":\"m\",\"spec_method\":\"EAGLE3\",\"tp\":8}");
    var rc = ((IngestOutcome.Context) ctx).runContext();
    assertThat(rc.getDeploymentId()).isEqualTo("shipper-deployment");
    assertThat(rc.getObservedAt()).isEqualTo(Instant.parse("2026-11-30T16:59:00Z"));
    IngestOutcome request =
        ingest("{\"request_id\":\"r\",\"output_tokens\":10,\"verify_cycles\":4}");
    assertThat(((IngestOutcome.Request) request).request().getRunContextId())
        .isEqualTo(rc.getContextId());
    // the cycle line names another deployment: that one has no context (no CLI/file layer)
    DecodeEvent e = ((IngestOutcome.Event) ingest(CycleJsonParserTest.CONTRACT)).event();
    assertThat(e.getRunContextId()).isNull();
  }
}
