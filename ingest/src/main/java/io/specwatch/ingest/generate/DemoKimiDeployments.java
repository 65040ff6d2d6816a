package io.specwatch.ingest.generate;

import static io.specwatch.ingest.generate.DemoScenario.BASELINE_WINDOW_NOISE;
import static io.specwatch.ingest.generate.DemoScenario.KIMI_BASELINE;
import static io.specwatch.ingest.generate.DemoScenario.KIMI_EAGLE3;
import static io.specwatch.ingest.generate.DemoScenario.KIMI_EAGLE3_NCCL;
import static io.specwatch.ingest.generate.DemoScenario.KIMI_EAGLE_COLLAPSE;
import static io.specwatch.ingest.generate.DemoScenario.NCCL_ENV;
import static io.specwatch.ingest.generate.DemoScenario.PHANTOM_FAST_TOKS;
import static io.specwatch.ingest.generate.DemoScenario.PHANTOM_SLOW_TOKS;
import static io.specwatch.ingest.generate.DemoScenario.acceptance;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's Kimi-K2.5 deployments on 8x RTX PRO 6000 (PCIe), SGLang: the seeds. EAGLE-3 below its
 * baseline, the plain baseline with the phantom 89 -> 82 tok/s shift, the NCCL regression and the
 * wrong-algorithm collapse, with their episodes.
 */
final class DemoKimiDeployments {

  private static final Hardware RTX8 =
      new Hardware("RTX PRO 6000 Blackwell", 8, "PCIe", "rtx-pro-6000x8");

  private DemoKimiDeployments() {}

  /**
   * Adds the Kimi deployments to {@code ds} and their episodes to {@code eps}, in the demo's order;
   * {@code change} is {@link DemoScenario#changePoint}.
   */
  static void add(
      long seed,
      Instant start,
      Instant end,
      Instant change,
      List<DeploymentSpec> ds,
      List<Episode> eps) {
    // --- Kimi-K2.5 on 8x RTX PRO 6000 (PCIe), SGLang: the seeds ---
    RunContextSpec sglang = new RunContextSpec("0.5.6", "bba2fc4", true, NCCL_ENV);
    Acceptance kimiAcc =
        acceptance(
            new String[] {"chat", "code", "math"},
            new double[] {0.6, 0.3, 0.1},
            new double[][] {{0.62, 0.42}, {0.72, 0.50}, {0.60, 0.38}});
    PerfModel kimiSpec = new PerfModel(12.2, 0.31, 28.95, 2.2, 0.10, 0.03, 0.02);
    PerfModel kimiSpecTuned = kimiSpec.withVerifyMs(19.0);
    PerfModel kimiPlain = new PerfModel(12.2, 0, 0, 0, 0.10, 0.02, BASELINE_WINDOW_NOISE);

    DeploymentSpec kimiEagle3 =
        kimi(
            KIMI_EAGLE3,
            "gpu-rtx-01",
            LogFormat.SGLANG_2025_OCT,
            RequestFormat.SGLANG_META_INFO,
            true,
            SpecMethod.EAGLE3,
            List.of(new Segment(start, kimiSpec, kimiAcc, sglang)),
            Map.of());
    ds.add(kimiEagle3);
    Segment s0 = kimiEagle3.segments().get(0);
    eps.add(
        new Episode(
            "kimi-eagle3-below-baseline",
            KIMI_EAGLE3,
            Episode.Type.SPEC_BELOW_BASELINE,
            start,
            end,
            List.of(Episode.SPEC_BELOW_BASELINE),
            "EAGLE-3 with 2 steps: tau ~1.93 but a ~32 ms cycle (29 ms verify) gives ~60 tok/s"
                + " against the plain 82 tok/s (t_AR 12.2 ms): break-even tau ~2.6.",
            Truth.figures(kimiEagle3, s0)));

    Map<Long, Double> phantom = phantomFactors(seed, start, end, change);
    DeploymentSpec kimiBase =
        kimi(
            KIMI_BASELINE,
            "gpu-rtx-02",
            LogFormat.SGLANG_2025_OCT,
            RequestFormat.NONE,
            false,
            SpecMethod.NONE,
            List.of(
                new Segment(start, kimiPlain, kimiAcc, sglang),
                new Segment(change, kimiPlain, kimiAcc, sglang.withCommit("0be30d4"))),
            phantom);
    ds.add(kimiBase);
    Map<String, Object> phantomFigures = new LinkedHashMap<>();
    phantomFigures.put("tokSWindowBefore", PHANTOM_FAST_TOKS);
    phantomFigures.put("tokSWindowAfter", PHANTOM_SLOW_TOKS);
    phantomFigures.put("trueTokSBatch1", Truth.round(1000 / 12.2));
    phantomFigures.put("windowNoise", BASELINE_WINDOW_NOISE);
    phantomFigures.put(
        "note",
        "after-change minutes reuse the before-change minutes' system-state factors in another"
            + " order (same distribution by construction); only the two minutes around the"
            + " change are forced to 89 and 82 tok/s");
    eps.add(
        new Episode(
            "kimi-baseline-phantom",
            KIMI_BASELINE,
            Episode.Type.NOISE_SHIFT,
            change.minus(Duration.ofMinutes(1)),
            change.plus(Duration.ofMinutes(1)),
            List.of(),
            "An engine-commit change (bba2fc4 -> 0be30d4) with the minute before at 89 tok/s"
                + " and the minute after at 82 tok/s: same distribution, window-to-window noise"
                + " 5%; not a regression.",
            phantomFigures));
    eps.add(
        new Episode(
            "kimi-baseline",
            KIMI_BASELINE,
            Episode.Type.BASELINE,
            start,
            end,
            List.of(),
            "Plain decoding of Kimi-K2.5 on the same hardware: 82 tok/s at batch 1.",
            Truth.figures(kimiBase, kimiBase.segments().get(0))));

    DeploymentSpec nccl =
        kimi(
            KIMI_EAGLE3_NCCL,
            "gpu-rtx-03",
            LogFormat.SPECWATCH_CYCLE,
            RequestFormat.REQUEST_V1,
            true,
            SpecMethod.EAGLE3,
            List.of(
                new Segment(start, kimiSpecTuned, kimiAcc, sglang),
                new Segment(change, kimiSpec, kimiAcc, sglang.withEnv(Map.of()))),
            Map.of());
    ds.add(nccl);
    Map<String, Object> reg = new LinkedHashMap<>();
    reg.put("before", Truth.figures(nccl, nccl.segments().get(0)));
    reg.put("after", Truth.figures(nccl, nccl.segments().get(1)));
    reg.put("attributedChange", "env: NCCL_* removed (restart without the NCCL tuning)");
    eps.add(
        new Episode(
            "kimi-nccl-regression",
            KIMI_EAGLE3_NCCL,
            Episode.Type.REGRESSION,
            change,
            change.plus(Duration.ofMinutes(5)).isAfter(end)
                ? end
                : change.plus(Duration.ofMinutes(5)),
            List.of(Episode.REGRESSION),
            "Restart without the NCCL env: verify 19 -> 29 ms, cycle ~21 -> ~32 ms,"
                + " ~91 -> ~60 tok/s.",
            reg));
    eps.add(
        new Episode(
            "kimi-nccl-below-baseline",
            KIMI_EAGLE3_NCCL,
            Episode.Type.SPEC_BELOW_BASELINE,
            change,
            end,
            List.of(Episode.SPEC_BELOW_BASELINE),
            "After the regression the EAGLE-3 deployment runs below the 82 tok/s baseline.",
            Truth.figures(nccl, nccl.segments().get(1))));
    eps.add(
        new Episode(
            "kimi-nccl-healthy",
            KIMI_EAGLE3_NCCL,
            Episode.Type.HEALTHY,
            start,
            change,
            List.of(),
            "With the NCCL tuning: verify 19 ms, ~91 tok/s, above the baseline.",
            Truth.figures(nccl, nccl.segments().get(0))));

    Acceptance zero = kimiAcc.scaled(0);
    DeploymentSpec collapse =
        kimi(
            KIMI_EAGLE_COLLAPSE,
            "gpu-rtx-04",
            LogFormat.SGLANG_2026,
            RequestFormat.SGLANG_META_INFO,
            false,
            SpecMethod.EAGLE,
            List.of(new Segment(start, kimiSpec, zero, sglang)),
            Map.of());
    ds.add(collapse);
    eps.add(
        new Episode(
            "kimi-wrong-algorithm-collapse",
            KIMI_EAGLE_COLLAPSE,
            Episode.Type.ACCEPT_COLLAPSE,
            start,
            end,
            List.of(Episode.ACCEPT_COLLAPSE, Episode.SPEC_BELOW_BASELINE),
            "Launched with --speculative-algorithm EAGLE and an EAGLE-3 draft head: nothing is"
                + " accepted, tau 1.00, ~31 tok/s.",
            Truth.figures(collapse, collapse.segments().get(0))));
  }

  private static DeploymentSpec kimi(
      String id,
      String host,
      LogFormat format,
      RequestFormat requests,
      boolean profile,
      SpecMethod method,
      List<Segment> segments,
      Map<Long, Double> forced) {
    boolean spec = method.speculative();
    return new DeploymentSpec(
        id,
        host,
        format,
        requests,
        profile,
        "moonshotai/Kimi-K2.5",
        spec ? "lmsys/Kimi-K2.5-EAGLE3" : null,
        spec ? "v2" : null,
        method,
        spec ? 2 : 0,
        1,
        spec ? 2 : 0,
        RTX8,
        8,
        1,
        1,
        700,
        612_000,
        spec ? KIMI_BASELINE : null,
        segments,
        forced);
  }

  /**
   * The baseline's per-minute factors: random (lognormal, 5%) before the change, the same factors
   * in another order after it, and the two minutes around the change forced to 89 and 82 tok/s.
   */
  static Map<Long, Double> phantomFactors(long seed, Instant start, Instant end, Instant change) {
    Rng r = new Rng(Rng.derive(seed, "phantom"));
    long first = Math.floorDiv(start.getEpochSecond(), 60);
    long cut = change.getEpochSecond() / 60;
    long last = Math.floorDiv(end.getEpochSecond() - 1, 60);
    List<Double> before = new ArrayList<>();
    Map<Long, Double> m = new HashMap<>();
    for (long minute = first; minute < cut; minute++) {
      double f = Math.exp(BASELINE_WINDOW_NOISE * r.gaussian());
      before.add(f);
      m.put(minute, f);
    }
    List<Double> shuffled = new ArrayList<>(before);
    for (int i = shuffled.size() - 1; i > 0; i--) {
      int j = r.nextInt(i + 1);
      Double t = shuffled.get(i);
      shuffled.set(i, shuffled.get(j));
      shuffled.set(j, t);
    }
    for (long minute = cut; minute <= last; minute++) {
      int i = (int) (minute - cut);
      m.put(minute, shuffled.isEmpty() ? 1.0 : shuffled.get(i % shuffled.size()));
    }
    // t_AR 12.2 ms is 82 tok/s at factor 1; 89 tok/s needs 82/89
    m.put(cut - 1, (1000 / 12.2) / PHANTOM_FAST_TOKS);
    m.put(cut, (1000 / 12.2) / PHANTOM_SLOW_TOKS);
    return m;
  }
}
