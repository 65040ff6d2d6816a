package io.specwatch.ingest.generate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo scenario tells the seeds' story: checked on the simulated truth, minute by minute. */
class DemoScenarioTest {

  private static final Instant START = FleetGenerator.DEFAULT_START;
  private static final Duration SPAN = Duration.ofMinutes(12);
  private static Scenario scenario;
  private static MinuteStats stats;
  private static Instant change;

  @BeforeAll
  static void generate() {
    scenario = DemoScenario.build(42, START, SPAN);
    stats = new MinuteStats();
    FleetGenerator.replay(scenario, stats);
    change = DemoScenario.changePoint(START, SPAN);
  }

  private static double tokS(String id) {
    return stats.total(id).tokS();
  }

  @Test
  void kimiEagle3RunsBelowItsBaselineAsInTheSeeds() {
    MinuteStats.Minute eagle = stats.total(DemoScenario.KIMI_EAGLE3);
    assertThat(eagle.tau()).isBetween(1.85, 2.0);
    assertThat(eagle.cycleMs()).isBetween(31.0, 33.0);
    assertThat(eagle.tokS()).isBetween(57.0, 64.0);
    assertThat(tokS(DemoScenario.KIMI_BASELINE)).isBetween(79.0, 86.0);
  }

  @Test
  void wrongAlgorithmCollapsesToTauOne() {
    MinuteStats.Minute collapse = stats.total(DemoScenario.KIMI_EAGLE_COLLAPSE);
    assertThat(collapse.accepted).isZero();
    assertThat(collapse.tau()).isEqualTo(1.0);
    assertThat(collapse.tokS()).isLessThan(tokS(DemoScenario.KIMI_BASELINE) / 2);
  }

  @Test
  void ncclRegressionIsLargeAndRightAfterTheRunContextChange() {
    List<MinuteStats.Minute> before = stats.between(DemoScenario.KIMI_EAGLE3_NCCL, START, change);
    List<MinuteStats.Minute> after =
        stats.between(DemoScenario.KIMI_EAGLE3_NCCL, change, scenario.end());
    List<Double> vb = before.stream().map(MinuteStats.Minute::verifyMs).toList();
    List<Double> va = after.stream().map(MinuteStats.Minute::verifyMs).toList();
    assertThat(MinuteStats.mean(vb)).isBetween(18.0, 20.0);
    assertThat(MinuteStats.mean(va)).isBetween(28.0, 30.0);
    assertThat(Math.abs(MinuteStats.welchT(vb, va))).isGreaterThan(20);
    double base = tokS(DemoScenario.KIMI_BASELINE);
    assertThat(MinuteStats.mean(before.stream().map(MinuteStats.Minute::tokS).toList()))
        .isGreaterThan(base);
    assertThat(MinuteStats.mean(after.stream().map(MinuteStats.Minute::tokS).toList()))
        .isLessThan(base);
    DeploymentSpec d = scenario.deployment(DemoScenario.KIMI_EAGLE3_NCCL);
    assertThat(d.segments().get(0).context().env()).containsKey("NCCL_PROTO");
    assertThat(d.segments().get(1).context().env()).isEmpty();
    assertThat(d.segments().get(1).from()).isEqualTo(change);
  }

  @Test
  void phantomShiftIs89Versus82ButNotSignificantAt99Percent() {
    String id = DemoScenario.KIMI_BASELINE;
    MinuteStats.Minute last = stats.between(id, change.minusSeconds(60), change).get(0);
    MinuteStats.Minute first = stats.between(id, change, change.plusSeconds(60)).get(0);
    assertThat(last.tokS()).isBetween(88.0, 90.0);
    assertThat(first.tokS()).isBetween(81.0, 83.0);
    List<Double> before =
        stats.between(id, START, change).stream().map(MinuteStats.Minute::tokS).toList();
    List<Double> after =
        stats.between(id, change, scenario.end()).stream().map(MinuteStats.Minute::tokS).toList();
    // two-sided 99% critical t is >= 2.88 for any df <= 18 (6 + 6 minutes here: df <= 10)
    assertThat(Math.abs(MinuteStats.welchT(before, after))).isLessThan(2.88);
    // yet the windows do move: the minute-to-minute spread is several tok/s
    double spread =
        before.stream().mapToDouble(Double::doubleValue).max().orElseThrow()
            - before.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    assertThat(spread).isGreaterThan(4.0);
  }

  @Test
  void healthyDeploymentsBeatTheirBaselines() {
    double llama = tokS(DemoScenario.LLAMA_EAGLE3) / tokS(DemoScenario.LLAMA_BASELINE);
    assertThat(llama).isBetween(1.8, 2.8);
    assertThat(stats.total(DemoScenario.LLAMA_EAGLE3).tau()).isBetween(2.8, 3.4);
    assertThat(tokS(DemoScenario.QWEN_EAGLE3)).isLessThan(tokS(DemoScenario.QWEN_BASELINE));
    for (String id : List.of(DemoScenario.DEEPSEEK_MTP, DemoScenario.LLAMA70_NGRAM)) {
      DeploymentSpec d = scenario.deployment(id);
      double plain = 1000 / d.segments().get(0).perf().tAr(1);
      assertThat(stats.total(id).tokS()).as(id).isGreaterThan(1.2 * plain);
    }
  }

  @Test
  void episodesNameTheAlertsACorrectPipelineRaises() {
    Map<String, List<String>> alerts =
        scenario.episodes().stream()
            .collect(Collectors.toMap(Episode::id, Episode::expectedAlerts));
    assertThat(alerts)
        .containsEntry("kimi-eagle3-below-baseline", List.of(Episode.SPEC_BELOW_BASELINE))
        .containsEntry("kimi-baseline-phantom", List.of())
        .containsEntry("kimi-nccl-regression", List.of(Episode.REGRESSION))
        .containsEntry(
            "kimi-wrong-algorithm-collapse",
            List.of(Episode.ACCEPT_COLLAPSE, Episode.SPEC_BELOW_BASELINE))
        .containsEntry("qwen-below-baseline", List.of(Episode.SPEC_BELOW_BASELINE));
    for (Episode e : scenario.episodes()) {
      assertThat(e.from()).isBeforeOrEqualTo(e.to());
      assertThat(scenario.deployment(e.deploymentId())).isNotNull();
      boolean below = e.expectedAlerts().contains(Episode.SPEC_BELOW_BASELINE);
      DeploymentSpec d = scenario.deployment(e.deploymentId());
      if (d.baselineId() != null && e.type() != Episode.Type.REGRESSION) {
        Segment s = d.segmentAt(e.from());
        // the expected alert agrees with the true speedup at batch 1
        assertThat(Truth.tokS(d, s) < 1000 / s.perf().tAr(1)).as(e.id()).isEqualTo(below);
      }
    }
  }
}
