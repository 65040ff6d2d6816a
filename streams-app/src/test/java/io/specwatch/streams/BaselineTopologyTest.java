package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static io.specwatch.streams.TestEvents.event;
import static io.specwatch.streams.TopologyHarness.context;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Baseline, speedup and break-even on the real topology, with hand-computed numbers. Seeds: t_AR
 * ~12 ms on the plain deployment, T_cyc 30 ms and tau 2.0 with EAGLE-3: below break-even.
 */
class BaselineTopologyTest {
  private static final String KIMI = "kimi-k2.5";
  private static final String HW = "8xH100-PCIe";

  @TempDir Path stateDir;

  private TopologyHarness h;

  @BeforeEach
  void setUp() {
    h =
        new TopologyHarness(
            stateDir,
            StaticBaselines.parse(List.of(KIMI + "|" + HW + "|8|1=99", "qwen3|2xH100|2|*=5.0")),
            Duration.ofHours(1));
    h.context(context("kimi-plain", KIMI, 8).setSpecMethod("NONE").setHardwareClass(HW).build());
    h.context(context("kimi-eagle3", KIMI, 8).setHardwareClass(HW).build());
    h.context(context("kimi-nobatch", KIMI, 8).setHardwareClass(HW).build());
    h.context(context("qwen-eagle3", "qwen3", 2).setGpuCount(2).setGpuModel("H100").build());
    h.context(context("llama-x", "llama", 1).build());
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private static DecodeEvent spec(
      String dep, long s, long cycles, double tau, double ms, Integer n) {
    return event(dep, s)
        .setCycles(cycles)
        .setAcceptLength(tau)
        .setCycleMs(ms)
        .setRunningRequests(n)
        .build();
  }

  private static DecodeEvent plain(String dep, long s, long cycles, double ms, int running) {
    return event(dep, s)
        .setSpecEnabled(false)
        .setCycles(cycles)
        .setCycleMs(ms)
        .setRunningRequests(running)
        .build();
  }

  @Test
  void learnedStaticAndMissingBaselinesWithSpeedupAndBreakEven() {
    // window [0s, 60s): the plain deployment teaches t_AR per bucket
    h.send(plain("kimi-plain", 10, 300, 12.0, 1));
    h.send(plain("kimi-plain", 20, 100, 13.0, 1)); // bucket 1: (3600 + 1300) / 400 = 12.25 ms
    h.send(plain("kimi-plain", 25, 100, 20.0, 20)); // bucket 17-32: 20 ms
    h.send(spec("kimi-eagle3", 15, 200, 2.0, 30.0, 1));
    h.send(spec("qwen-eagle3", 15, 50, 3.0, 10.0, 3));
    h.send(spec("llama-x", 15, 10, 2.0, 20.0, 1));
    h.send(spec("nocontext", 15, 10, 2.0, 20.0, 1));
    h.send(spec("kimi-nobatch", 15, 10, 2.0, 20.0, null));
    // later windows of the speculative deployment
    h.send(spec("kimi-eagle3", 70, 200, 2.0, 30.0, 1)); // [60s, 120s)
    h.send(spec("kimi-eagle3", 130, 100, 2.5, 40.0, 20)); // [120s, 180s)
    h.send(spec("kimi-eagle3", 7210, 100, 2.5, 40.0, 20)); // [7200s, 7260s): 2 h after
    h.send(event("closer", 7300).setCycles(1L).build());
    Map<String, WindowResult> rows = h.rows();

    // same window as the learned one: not used (only earlier windows are), static 99 ms applies
    WindowResult first = rows.get("kimi-eagle3@0/spec/*/1");
    assertThat(first.getBaselineSource()).isEqualTo("static");
    assertThat(first.getBaselineStepMs()).isEqualTo(99.0);
    assertThat(first.getBaselineTokS()).isCloseTo(1000.0 / 99, within(1e-9));
    assertThat(first.getSpeedup()).isCloseTo(2.0 * 99 / 30, within(1e-9)); // 6.6
    assertThat(first.getBreakEvenAcceptLength()).isCloseTo(30.0 / 99, within(1e-9));
    assertThat(first.getAcceptMargin()).isCloseTo(2.0 - 30.0 / 99, within(1e-9));
    assertThat(first.getRunContextId()).isEqualTo("ctx-kimi-eagle3");
    // the total row meets the baseline of its mean batch size's bucket (1)
    assertThat(rows.get("kimi-eagle3@0/spec/*/*").getBaselineSource()).isEqualTo("static");

    // next window: the learned t_AR of [0s, 60s) wins over the static one
    for (String row : List.of("kimi-eagle3@60/spec/*/*", "kimi-eagle3@60/spec/*/1")) {
      WindowResult r = rows.get(row);
      assertThat(r.getBaselineSource())
          .as(row)
          .isEqualTo("learned:kimi-plain@2026-01-01T00:00:00Z");
      assertThat(r.getBaselineStepMs()).isCloseTo(12.25, within(1e-9));
      assertThat(r.getBaselineTokS()).isCloseTo(1000 / 12.25, within(1e-9)); // 81.6
      assertThat(r.getSpeedup()).isCloseTo(2.0 * 12.25 / 30, within(1e-9)); // 0.817: slower
      assertThat(r.getBreakEvenAcceptLength()).isCloseTo(30 / 12.25, within(1e-9)); // 2.449
      assertThat(r.getAcceptMargin()).isCloseTo(2.0 - 30 / 12.25, within(1e-9)); // -0.449
      assertThat(r.getEffectiveTokSPerRequest()).isCloseTo(1000 * 2.0 / 30, within(1e-9));
    }

    // bucket 17-32, two windows later: learned 20 ms (age 120 s < 1 h)
    WindowResult big = rows.get("kimi-eagle3@120/spec/*/17-32");
    assertThat(big.getBaselineSource()).isEqualTo("learned:kimi-plain@2026-01-01T00:00:00Z");
    assertThat(big.getBaselineStepMs()).isEqualTo(20.0);
    assertThat(big.getBaselineTokS()).isCloseTo(50.0, within(1e-9));
    assertThat(big.getSpeedup()).isCloseTo(2.5 * 20 / 40, within(1e-9)); // 1.25
    assertThat(big.getBreakEvenAcceptLength()).isCloseTo(2.0, within(1e-9));
    assertThat(big.getAcceptMargin()).isCloseTo(0.5, within(1e-9));

    // 2 h later the learned entry is older than baseline-max-age and bucket 17-32 has no static
    WindowResult stale = rows.get("kimi-eagle3@7200/spec/*/17-32");
    assertThat(stale.getBaselineSource()).isEqualTo("none:no-baseline");
    assertThat(stale.getBaselineStepMs()).isNull();
    assertThat(stale.getSpeedup()).isNull();
    assertThat(stale.getBreakEvenAcceptLength()).isNull();

    // static key with bucket *: qwen, hardware class from gpuCount x gpuModel
    WindowResult qwen = rows.get("qwen-eagle3@0/spec/*/*");
    assertThat(qwen.getBaselineSource()).isEqualTo("static");
    assertThat(qwen.getBaselineTokS()).isCloseTo(200.0, within(1e-9));
    assertThat(qwen.getSpeedup()).isCloseTo(3.0 * 5 / 10, within(1e-9)); // 1.5
    assertThat(qwen.getBreakEvenAcceptLength()).isCloseTo(2.0, within(1e-9));
    assertThat(qwen.getAcceptMargin()).isCloseTo(1.0, within(1e-9));
    assertThat(rows.get("qwen-eagle3@0/spec/*/2-4").getBaselineSource()).isEqualTo("static");

    // reasons
    assertThat(rows.get("llama-x@0/spec/*/*").getBaselineSource())
        .isEqualTo("none:no-hardware-class");
    assertThat(rows.get("llama-x@0/spec/*/*").getRunContextId()).isEqualTo("ctx-llama-x");
    assertThat(rows.get("nocontext@0/spec/*/*").getBaselineSource())
        .isEqualTo("none:no-run-context");
    assertThat(rows.get("kimi-nobatch@0/spec/*/*").getBaselineSource())
        .isEqualTo("none:no-batch-size");

    // the plain deployment's rows: windowed as non-speculative, no comparison of their own
    WindowResult plainTotal = rows.get("kimi-plain@0/nonspec/*/*");
    assertThat(plainTotal.getSpecEnabled()).isFalse();
    assertThat(plainTotal.getMeanCycleMs()).isCloseTo(6900.0 / 500, within(1e-9)); // 13.8
    assertThat(plainTotal.getBaselineSource()).isEqualTo("none:non-speculative");
    assertThat(rows.get("kimi-plain@0/nonspec/*/1").getMeanCycleMs())
        .isCloseTo(12.25, within(1e-9));

    KeyValueStore<String, LearnedBaselines> store =
        h.driver.getKeyValueStore(TopologyNames.BASELINE_STORE);
    assertThat(store.get(KIMI + "|" + HW + "|8|1").entries())
        .containsExactly(new LearnedBaselines.Entry(T0.toEpochMilli(), 12.25, 400, "kimi-plain"));
    assertThat(store.get(KIMI + "|" + HW + "|8|17-32").entries()).hasSize(1);
  }

  @Test
  void modelNamesWithBarsBackslashesOrBlanksMeetTheirTwinsAndTpZeroSaysWhy() {
    // a '|' or '\\' in a model name made the key text unparseable (the row was dead-lettered), and
    // blanks around it split twins: each pair below must meet, and tp 0 gives a reason
    String[][] pairs = {
      {"org|model-a", "org|model-a"}, {"C:\\models\\b", "C:\\models\\b"}, {" model-c", "model-c "}
    };
    for (int i = 0; i < pairs.length; i++) {
      h.context(
          context("plain-" + i, pairs[i][0], 8).setSpecMethod("NONE").setHardwareClass(HW).build());
      h.context(context("spec-" + i, pairs[i][1], 8).setHardwareClass(HW).build());
      h.send(plain("plain-" + i, 10, 100, 12.5, 1)); // teaches [0s, 60s), bucket 1
      h.send(spec("spec-" + i, 70, 100, 2.0, 25.0, 1)); // [60s, 120s) meets it
    }
    h.context(context("tp-zero", KIMI, 0).setHardwareClass(HW).build());
    h.send(spec("tp-zero", 70, 100, 2.0, 25.0, 1));
    h.send(event("closer", 300).setCycles(1L).build());

    assertThat(h.deadLetters.readKeyValuesToList()).as("no row dead-lettered").isEmpty();
    Map<String, WindowResult> rows = h.rows();
    for (int i = 0; i < pairs.length; i++) {
      WindowResult r = rows.get("spec-" + i + "@60/spec/*/1");
      assertThat(r.getBaselineSource())
          .as("model '%s' against its twin's '%s'", pairs[i][1], pairs[i][0])
          .isEqualTo("learned:plain-" + i + "@2026-01-01T00:00:00Z");
      assertThat(r.getSpeedup()).isCloseTo(2.0 * 12.5 / 25, within(1e-9));
    }
    assertThat(rows.get("tp-zero@60/spec/*/1").getBaselineSource()).isEqualTo("none:no-tp");
  }

  @Test
  void runContextChangesApplyToLaterWindows() {
    h.send(spec("kimi-eagle3", 10, 10, 2.0, 30.0, 1));
    h.send(spec("kimi-eagle3", 91, 10, 2.0, 30.0, 1)); // closes [0s, 60s)
    assertThat(h.rows().get("kimi-eagle3@0/spec/*/*").getRunContextId())
        .isEqualTo("ctx-kimi-eagle3");
    // a new context observed at 100 s: tp 4 has no static baseline
    h.context(
        context("kimi-eagle3", KIMI, 4)
            .setContextId("ctx-kimi-eagle3-tp4")
            .setHardwareClass(HW)
            .setObservedAt(T0.plusSeconds(100))
            .build());
    h.send(spec("kimi-eagle3", 200, 10, 2.0, 30.0, 1)); // closes [60s, 120s)
    WindowResult second = h.rows().get("kimi-eagle3@60/spec/*/*");
    assertThat(second.getRunContextId()).isEqualTo("ctx-kimi-eagle3-tp4");
    assertThat(second.getBaselineSource()).isEqualTo("none:no-baseline");
  }

  /**
   * A window closes only when stream time passes its end + grace: after a silent spell that is when
   * the deployment's next event comes, here after a restart with another context. The window
   * carries the context in force at its end (the store is versioned), not the newer one.
   */
  @Test
  void aWindowClosedAfterAContextChangeKeepsTheContextAtItsEnd() {
    h.send(spec("kimi-eagle3", 10, 10, 2.0, 30.0, 1)); // [0s, 60s), nothing closes it for 2 h
    h.context(
        context("kimi-eagle3", KIMI, 4)
            .setContextId("ctx-kimi-eagle3-tp4")
            .setHardwareClass(HW)
            .setObservedAt(T0.plusSeconds(7000))
            .build());
    h.send(spec("kimi-eagle3", 7210, 10, 2.0, 30.0, 1)); // closes [0s, 60s)
    h.send(event("closer", 7300).setCycles(1L).build()); // closes [7200s, 7260s)
    Map<String, WindowResult> rows = h.rows();
    WindowResult before = rows.get("kimi-eagle3@0/spec/*/*");
    assertThat(before.getRunContextId()).isEqualTo("ctx-kimi-eagle3");
    assertThat(before.getBaselineSource()).as("tp 8: the static baseline").isEqualTo("static");
    WindowResult after = rows.get("kimi-eagle3@7200/spec/*/*");
    assertThat(after.getRunContextId()).isEqualTo("ctx-kimi-eagle3-tp4");
    assertThat(after.getBaselineSource()).isEqualTo("none:no-baseline");
  }
}
