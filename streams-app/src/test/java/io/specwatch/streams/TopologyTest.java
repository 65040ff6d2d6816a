package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static io.specwatch.streams.TestEvents.event;
import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real topology on TopologyTestDriver, with hand-computed expected windows. */
class TopologyTest {
  @TempDir Path stateDir;

  private TopologyHarness h;

  @BeforeEach
  void setUp() {
    h = new TopologyHarness(stateDir);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private void send(DecodeEvent e) {
    h.send(e);
  }

  @Test
  void emitsOneHandComputedResultPerClosedWindowAndCountsLateEvents() {
    // window [0s, 60s): a = e1 + e2 + e5 (e5 out of order within grace); b = e3 and a baseline
    // event
    send(full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1)); // e1
    send(
        event("dep-b", 20)
            .setAcceptLength(1.5)
            .setGenThroughputTokS(80.0)
            .setRunningRequests(2)
            .build()); // e3: cycles null -> 1, no tokens, no cycleMs, no interval
    send(
        DecodeEvent.newBuilder(full("dep-b", 25, 999, 1.0, 0, 0, 12.0, 80.0, 1000.0, 9))
            .setSpecEnabled(false)
            .build()); // baseline event: its own non-speculative rows
    send(full("dep-a", 50, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 3)); // e2
    send(full("dep-a", 70, 10, 4.0, 30, 30, 25.0, 100.0, 2000.0, 4)); // e4, window [60s, 120s)
    send(
        event("dep-a", 40)
            .setCycles(40L)
            .setAcceptLength(2.0)
            .setAcceptedTokens(40L)
            .setDraftedTokens(120L)
            .setGenThroughputTokS(90.0)
            .build()); // e5: no interval/cycleMs/running
    assertThat(h.output.isEmpty()).as("no window closed before stream time 90s").isTrue();
    // the test driver commits after every record: the store holds what the heap had
    OpenWindowStore store =
        (OpenWindowStore) h.driver.getStateStore(TopologyNames.OPEN_WINDOW_STORE);
    assertThat(store.fetch("dep-a", T0.toEpochMilli()).rows().get(BreakdownKey.total(true)).events)
        .isEqualTo(3);

    send(full("dep-b", 95, 5, 2.0, 5, 10, 40.0, 50.0, 3000.0, 5)); // e6: closes [0s, 60s)
    Map<String, WindowResult> first = h.rows();
    assertThat(first)
        .containsOnlyKeys(
            "dep-a@0/spec/*/*",
            "dep-a@0/spec/*/1",
            "dep-a@0/spec/*/2-4",
            "dep-b@0/spec/*/*",
            "dep-b@0/spec/*/2-4",
            "dep-b@0/nonspec/*/*",
            "dep-b@0/nonspec/*/9-16");

    WindowResult a = first.get("dep-a@0/spec/*/*");
    assertThat(a.getWindowStart()).isEqualTo(T0);
    assertThat(a.getWindowEnd()).isEqualTo(T0.plusSeconds(60));
    assertThat(a.getEvents()).isEqualTo(3);
    assertThat(a.getCycles()).isEqualTo(200);
    assertThat(a.getMeanAcceptLength()).isCloseTo(520.0 / 200, within(1e-9)); // 2.6
    assertThat(a.getAcceptedTokens()).isEqualTo(320);
    assertThat(a.getDraftedTokens()).isEqualTo(600);
    assertThat(a.getAcceptRate()).isCloseTo(320.0 / 600, within(1e-9));
    assertThat(a.getMeanCycleMs()).isCloseTo(3600.0 / 160, within(1e-9)); // 22.5
    assertThat(a.getEffectiveTokSPerRequest()).isCloseTo(1000 * 2.6 / 22.5, within(1e-9));
    // e5 has no interval: weighs as the mean interval of e1, e2 = 2500 ms
    assertThat(a.getBatchTokS()).isCloseTo(615000.0 / 7500, within(1e-9)); // 82.0
    assertThat(a.getMeanBatchSize()).isCloseTo(400.0 / 160, within(1e-9)); // 2.5
    assertThat(a.getSpecEnabled()).isTrue();
    assertThat(a.getPromptCategory()).isEqualTo("*");
    assertThat(a.getBatchBucket()).isEqualTo("*");
    assertThat(a.getLateEvents()).isZero();
    // tau 2.0 x80 cycles (e1, e5), 3.0 x120 (e2): exact while the sketch keeps every item
    assertThat(a.getAcceptLengthP50()).isCloseTo(3.0, ExactQuantiles.BOUND);
    assertThat(a.getAcceptLengthP95()).isCloseTo(3.0, ExactQuantiles.BOUND);
    // cycle ms 20 x120 (e2), 30 x40 (e1) of 160: p50 20, p95 30, p99 30
    assertThat(a.getCycleMsP50()).isCloseTo(20.0, ExactQuantiles.BOUND);
    assertThat(a.getCycleMsP95()).isCloseTo(30.0, ExactQuantiles.BOUND);
    assertThat(a.getCycleMsP99()).isCloseTo(30.0, ExactQuantiles.BOUND);
    assertThat(a.getDraftMsP50()).isNull();
    assertThat(a.getPerPositionAcceptance()).isEmpty();
    assertThat(a.getSpeedup()).isNull();
    assertThat(a.getBaselineSource()).isEqualTo("none:no-run-context");
    assertThat(a.getRunContextId()).isNull();

    // bucket rows: e1 alone (running 1), e2 alone (running 3); e5 has no running requests
    WindowResult a1 = first.get("dep-a@0/spec/*/1");
    assertThat(a1.getEvents()).isEqualTo(1);
    assertThat(a1.getCycles()).isEqualTo(40);
    assertThat(a1.getMeanAcceptLength()).isEqualTo(2.0);
    assertThat(a1.getMeanCycleMs()).isEqualTo(30.0);
    WindowResult a24 = first.get("dep-a@0/spec/*/2-4");
    assertThat(a24.getCycles()).isEqualTo(120);
    assertThat(a24.getMeanAcceptLength()).isEqualTo(3.0);

    WindowResult b = first.get("dep-b@0/spec/*/*");
    assertThat(b.getEvents()).isEqualTo(1);
    assertThat(b.getCycles()).isEqualTo(1);
    assertThat(b.getMeanAcceptLength()).isEqualTo(1.5);
    assertThat(b.getAcceptedTokens()).isZero();
    assertThat(b.getAcceptRate()).as("nothing drafted").isNull();
    assertThat(b.getMeanCycleMs()).isNull();
    assertThat(b.getEffectiveTokSPerRequest()).isNull();
    assertThat(b.getBatchTokS()).isEqualTo(80.0);
    assertThat(b.getMeanBatchSize()).isEqualTo(2.0);

    // the non-speculative event is windowed on its own rows, never mixed into speculative ones
    WindowResult plain = first.get("dep-b@0/nonspec/*/*");
    assertThat(plain.getSpecEnabled()).isFalse();
    assertThat(plain.getEvents()).isEqualTo(1);
    assertThat(plain.getCycles()).isEqualTo(999);
    assertThat(plain.getMeanCycleMs()).isEqualTo(12.0);
    assertThat(plain.getBaselineSource()).isEqualTo("none:non-speculative");
    assertThat(first.get("dep-b@0/nonspec/*/9-16").getMeanBatchSize()).isEqualTo(9.0);

    // late: window [0s, 60s) closed at stream time 90s, stream time is now 95s. e7 is counted in
    // lateEvents of the window open at its arrival, [60s, 120s), and adds nothing else
    send(full("dep-a", 55, 1000, 9.0, 1000, 1000, 1.0, 1.0, 1.0, 1)); // e7
    assertThat(h.output.isEmpty()).isTrue();
    StreamsMetricsSummary metrics = StreamsMetricsSummary.of(h.driver.metrics());
    assertThat(metrics.lateEvents()).as("late-events-total").isEqualTo(1);
    assertThat(metrics.dropped()).as("nothing dropped by Streams").isZero();

    send(full("dep-a", 200, 1, 2.0, 1, 3, 10.0, 10.0, 1000.0, 1)); // closes [60s, 120s)
    Map<String, WindowResult> second = h.rows();
    assertThat(second)
        .containsOnlyKeys(
            "dep-a@60/spec/*/*",
            "dep-a@60/spec/*/1",
            "dep-a@60/spec/*/2-4",
            "dep-b@60/spec/*/*",
            "dep-b@60/spec/*/5-8");
    WindowResult a2 = second.get("dep-a@60/spec/*/*");
    assertThat(a2.getWindowStart()).isEqualTo(T0.plusSeconds(60));
    assertThat(a2.getEvents()).as("only e4: the late e7 adds no metrics").isEqualTo(1);
    assertThat(a2.getCycles()).isEqualTo(10);
    assertThat(a2.getMeanAcceptLength()).isEqualTo(4.0);
    assertThat(a2.getEffectiveTokSPerRequest()).isCloseTo(160.0, within(1e-9));
    assertThat(a2.getLateEvents()).isEqualTo(1);
    WindowResult lateOnly = second.get("dep-a@60/spec/*/1");
    assertThat(lateOnly.getEvents()).isZero();
    assertThat(lateOnly.getLateEvents()).isEqualTo(1);
    assertThat(lateOnly.getMeanAcceptLength()).isNull();
    assertThat(second.get("dep-a@60/spec/*/2-4").getLateEvents()).isZero();
    assertThat(second.get("dep-b@60/spec/*/*").getMeanCycleMs()).isEqualTo(40.0);
    assertThat(h.output.isEmpty()).isTrue();
  }

  @Test
  void breakdownRowsByPromptCategoryAndBatchBucket() {
    send(
        event("dep-c", 1)
            .setPromptCategory("chat")
            .setRunningRequests(1)
            .setCycles(100L)
            .setAcceptLength(2.0)
            .build());
    send(
        event("dep-c", 2)
            .setPromptCategory("code")
            .setRunningRequests(3)
            .setCycles(100L)
            .setAcceptLength(4.0)
            .build());
    send(
        event("dep-c", 3)
            .setPromptCategory(" chat ")
            .setRunningRequests(3)
            .setCycles(200L)
            .setAcceptLength(2.5)
            .build());
    send(event("dep-c", 4).setCycles(100L).setAcceptLength(3.0).build()); // no category, no batch
    send(
        event("dep-c", 5)
            .setSpecEnabled(false)
            .setPromptCategory("chat")
            .setRunningRequests(200)
            .setCycles(10L)
            .setCycleMs(12.0)
            .build());
    send(event("dep-z", 91).setCycles(1L).build()); // closes [0s, 60s)
    Map<String, WindowResult> rows = h.rows();
    assertThat(rows)
        .containsOnlyKeys(
            "dep-c@0/spec/*/*",
            "dep-c@0/spec/chat/*",
            "dep-c@0/spec/code/*",
            "dep-c@0/spec/*/1",
            "dep-c@0/spec/*/2-4",
            "dep-c@0/nonspec/*/*",
            "dep-c@0/nonspec/chat/*",
            "dep-c@0/nonspec/*/129+");
    WindowResult total = rows.get("dep-c@0/spec/*/*");
    assertThat(total.getEvents()).isEqualTo(4);
    assertThat(total.getCycles()).isEqualTo(500);
    assertThat(total.getMeanAcceptLength()).isCloseTo(1400.0 / 500, within(1e-9)); // 2.8
    assertThat(total.getMeanBatchSize()).isCloseTo(1000.0 / 400, within(1e-9)); // 2.5
    WindowResult chat = rows.get("dep-c@0/spec/chat/*");
    assertThat(chat.getEvents()).isEqualTo(2);
    assertThat(chat.getCycles()).isEqualTo(300);
    assertThat(chat.getMeanAcceptLength()).isCloseTo(700.0 / 300, within(1e-9));
    assertThat(chat.getBatchBucket()).isEqualTo("*");
    assertThat(rows.get("dep-c@0/spec/code/*").getMeanAcceptLength()).isEqualTo(4.0);
    WindowResult small = rows.get("dep-c@0/spec/*/1");
    assertThat(small.getCycles()).isEqualTo(100);
    assertThat(small.getMeanAcceptLength()).isEqualTo(2.0);
    WindowResult mid = rows.get("dep-c@0/spec/*/2-4");
    assertThat(mid.getEvents()).isEqualTo(2);
    assertThat(mid.getMeanAcceptLength()).isCloseTo(900.0 / 300, within(1e-9));
    assertThat(mid.getPromptCategory()).isEqualTo("*");
    WindowResult plain = rows.get("dep-c@0/nonspec/*/129+");
    assertThat(plain.getSpecEnabled()).isFalse();
    assertThat(plain.getMeanCycleMs()).isEqualTo(12.0);
    assertThat(rows.get("dep-c@0/nonspec/chat/*").getCycles()).isEqualTo(10);
  }

  @Test
  void perPositionAcceptanceAndLatencyPercentiles() {
    // dep-p, window [0s, 60s): per-position from shares x cycles, counts, and a cycle event
    send(
        event("dep-p", 5)
            .setCycles(40L)
            .setPerPositionAcceptance(List.of(0.5, 0.25, 0.1))
            .setDraftMs(3.0)
            .setVerifyMs(19.0)
            .setCycleMs(24.0)
            .build()); // 20, 10, 4
    send(
        event("dep-p", 6)
            .setCycles(10L)
            .setPerPositionAccepted(List.of(8L, 6L))
            .setDraftMs(4.0)
            .setVerifyMs(29.0)
            .setCycleMs(35.0)
            .build()); // 8, 6
    send(
        event("dep-p", 7)
            .setKind(io.specwatch.schemas.EventKind.CYCLE)
            .setCycles(1L)
            .setPerPositionAccepted(List.of(1L, 1L, 1L, 1L))
            .setDraftMs(9.0)
            .setVerifyMs(60.0)
            .setCycleMs(80.0)
            .build()); // 1, 1, 1, 1
    // dep-q, window [0s, 60s): 1,000 events with known verify ms
    ExactQuantiles verify = new ExactQuantiles();
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 1000; i++) {
      double v = 15 + 10 * random.nextDouble() + (i % 50 == 0 ? 40 : 0);
      long cycles = 1 + i % 3;
      verify.add(v, cycles);
      send(event("dep-q", i % 60).setCycles(cycles).setVerifyMs(v).build());
    }
    send(event("dep-p", 100).setCycles(1L).build()); // closes [0s, 60s)
    Map<String, WindowResult> out = h.rows();

    WindowResult p = out.get("dep-p@0/spec/*/*");
    // sums [29, 17, 5, 1] over 51 cycles
    assertThat(p.getPerPositionAcceptance())
        .containsExactly(29.0 / 51, 17.0 / 51, 5.0 / 51, 1.0 / 51);
    assertThat(p.getPerPositionConditional())
        .containsExactly(29.0 / 51, 17.0 / 29, 5.0 / 17, 1.0 / 5);
    // verify ms 19 x40, 29 x10, 60 x1 of 51 cycles: p50 19, p95 (48.45) 29, p99 (50.49) 60
    assertThat(p.getVerifyMsP50()).isCloseTo(19.0, ExactQuantiles.BOUND);
    assertThat(p.getVerifyMsP95()).isCloseTo(29.0, ExactQuantiles.BOUND);
    assertThat(p.getVerifyMsP99()).isCloseTo(60.0, ExactQuantiles.BOUND);
    assertThat(p.getDraftMsP50()).isCloseTo(3.0, ExactQuantiles.BOUND);
    assertThat(p.getDraftMsP95()).isCloseTo(4.0, ExactQuantiles.BOUND);
    assertThat(p.getCycleMsP99()).isCloseTo(80.0, ExactQuantiles.BOUND);
    assertThat(p.getAcceptLengthP50()).isNull();

    WindowResult q = out.get("dep-q@0/spec/*/*");
    assertThat(q.getCycles()).isEqualTo(1999); // 334 x1 + 333 x2 + 333 x3
    verify.assertWithinBound(q.getVerifyMsP50(), 0.50);
    verify.assertWithinBound(q.getVerifyMsP95(), 0.95);
    verify.assertWithinBound(q.getVerifyMsP99(), 0.99);
  }

  @Test
  void windowsOfOneDeploymentCloseOnStreamTimeOfTheTask() {
    send(full("dep-a", 0, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1));
    send(full("dep-a", 89, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1));
    assertThat(h.output.isEmpty()).as("window end 60s + grace 30s not yet reached").isTrue();
    send(full("dep-b", 90, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1));
    List<KeyValue<String, WindowResult>> out = h.output.readKeyValuesToList();
    assertThat(TopologyHarness.byRow(out)).containsOnlyKeys("dep-a@0/spec/*/*", "dep-a@0/spec/*/1");
    assertThat(out).allSatisfy(kv -> assertThat(kv.value.getEvents()).isEqualTo(1));
  }

  @Test
  void anEventTimeJumpBeyondTheGraceStillEmitsTheWindowsItCloses() {
    // no record cache: every window read comes from the RocksDB store, as after a restore or with a
    // cache too small for the open windows. Kafka Streams stores the closing event's window before
    // it fetches the closed ones, and a window store hides windows older than its newest window
    // start minus its retention: with retention = window + grace (90 s here) the jump from 95 s to
    // 400 s hid [60s, 120s) and it was never emitted
    h.close();
    h =
        new TopologyHarness(
            stateDir.resolve("no-cache"),
            StaticBaselines.none(),
            java.time.Duration.ofHours(1),
            Map.of("statestore.cache.max.bytes", "0"));
    send(full("dep-a", 70, 10, 2.0, 10, 30, 20.0, 1.0, 1.0, 1));
    send(full("dep-a", 95, 30, 3.0, 60, 90, 20.0, 1.0, 1.0, 1));
    assertThat(h.output.isEmpty()).isTrue();
    send(full("dep-a", 400, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1)); // 5 minutes later
    Map<String, WindowResult> out = TopologyHarness.byRow(h.output.readKeyValuesToList());
    assertThat(out).containsKey("dep-a@60/spec/*/*");
    assertThat(out.get("dep-a@60/spec/*/*").getEvents()).isEqualTo(2);
    assertThat(out.get("dep-a@60/spec/*/*").getCycles()).isEqualTo(40);
  }

  @Test
  void aReSentEventIdIsDroppedAndCountedAsDuplicate() {
    DecodeEvent e = full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1);
    send(e);
    send(e); // the shipper re-sent the line after a crash: same id, same event time
    DecodeEvent other = DecodeEvent.newBuilder(e).setEventId("another-line").build();
    send(other); // same time and numbers, another line: counts
    send(full("dep-a", 100, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1)); // closes [0s, 60s)
    Map<String, WindowResult> out = TopologyHarness.byRow(h.output.readKeyValuesToList());
    assertThat(out.get("dep-a@0/spec/*/*").getEvents()).isEqualTo(2);
    assertThat(out.get("dep-a@0/spec/*/*").getCycles()).isEqualTo(80);
    StreamsMetricsSummary m = StreamsMetricsSummary.of(h.driver.metrics());
    assertThat(m.duplicates()).isEqualTo(1);
    assertThat(m.lateEvents()).isZero();

    // after [0s, 60s) closed: a re-send of e is still a duplicate (its window's ids are kept for
    // the dedup retention), a line never seen is late and counts in the open window [60s, 120s)
    send(e);
    send(DecodeEvent.newBuilder(e).setEventId("a-late-line").build());
    send(full("dep-a", 200, 1, 2.0, 1, 2, 10.0, 1.0, 1.0, 1)); // closes [60s, 120s)
    Map<String, WindowResult> later = TopologyHarness.byRow(h.output.readKeyValuesToList());
    assertThat(later.get("dep-a@60/spec/*/*").getEvents()).isEqualTo(1);
    assertThat(later.get("dep-a@60/spec/*/*").getLateEvents()).isEqualTo(1);
    m = StreamsMetricsSummary.of(h.driver.metrics());
    assertThat(m.duplicates()).isEqualTo(2);
    assertThat(m.lateEvents()).isEqualTo(1);
  }
}
