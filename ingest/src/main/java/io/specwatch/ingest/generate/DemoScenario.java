package io.specwatch.ingest.generate;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --scenario demo}: fixed, named deployments telling the seeds' story (see ingest/README.md,
 * "Generating a synthetic fleet", for the numbers). The change point of the scripted episodes is
 * the first whole minute at or after the middle of the span.
 */
public final class DemoScenario {

  public static final String KIMI_EAGLE3 = "kimi-k25-eagle3";
  public static final String KIMI_BASELINE = "kimi-k25-baseline";
  public static final String KIMI_EAGLE3_NCCL = "kimi-k25-eagle3-nccl";
  public static final String KIMI_EAGLE_COLLAPSE = "kimi-k25-eagle-wrong-algo";
  public static final String LLAMA_EAGLE3 = "llama31-8b-eagle3-h100";
  public static final String LLAMA_BASELINE = "llama31-8b-baseline-h100";
  public static final String QWEN_EAGLE3 = "qwen3-30b-a3b-eagle3-trtllm";
  public static final String QWEN_BASELINE = "qwen3-30b-a3b-baseline-trtllm";
  public static final String DEEPSEEK_MTP = "deepseek-v3-mtp-h200";
  public static final String LLAMA70_NGRAM = "llama33-70b-ngram-a100";

  /** Window-to-window (per minute) system-state noise of the Kimi baseline: 5% (lognormal sd). */
  public static final double BASELINE_WINDOW_NOISE = 0.05;

  /** The phantom: the minute before the engine-commit change runs at 89 tok/s, after at 82. */
  public static final double PHANTOM_FAST_TOKS = 89.0;

  public static final double PHANTOM_SLOW_TOKS = 82.0;

  static final Map<String, String> NCCL_ENV =
      Map.of(
          "NCCL_PROTO", "LL",
          "NCCL_ALGO", "Ring",
          "NCCL_P2P_LEVEL", "SYS",
          "NCCL_MAX_NCHANNELS", "16",
          "NCCL_BUFFSIZE", "16777216",
          "NCCL_NTHREADS", "512");

  private static final Hardware RTX8 =
      new Hardware("RTX PRO 6000 Blackwell", 8, "PCIe", "rtx-pro-6000x8");
  private static final Hardware H100 = new Hardware("H100 SXM", 1, "NVLink", "h100x1");
  private static final Hardware H100X2 = new Hardware("H100 SXM", 2, "NVLink", "h100x2");
  private static final Hardware H200X8 = new Hardware("H200", 8, "NVLink", "h200x8");
  private static final Hardware A100X4 = new Hardware("A100 80GB", 4, "NVLink", "a100x4");

  private DemoScenario() {}

  /** The change point of the scripted episodes. */
  public static Instant changePoint(Instant start, Duration duration) {
    Instant middle = start.plus(duration.dividedBy(2));
    Instant minute = middle.truncatedTo(ChronoUnit.MINUTES);
    return minute.isBefore(middle) ? minute.plus(Duration.ofMinutes(1)) : minute;
  }

  public static Scenario build(long seed, Instant start, Duration duration) {
    Instant end = start.plus(duration);
    Instant change = changePoint(start, duration);
    List<DeploymentSpec> ds = new ArrayList<>();
    List<Episode> eps = new ArrayList<>();

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

    // --- Llama-3.1-8B on 1x H100, vLLM V1: healthy EAGLE-3 ---
    RunContextSpec vllm = new RunContextSpec("0.10.1", "a1b2c3d", true, Map.of());
    Acceptance llamaAcc =
        acceptance(
            new String[] {"chat", "code", "completion"},
            new double[] {0.5, 0.3, 0.2},
            new double[][] {{0.85, 0.75, 0.65}, {0.90, 0.82, 0.75}, {0.93, 0.88, 0.82}});
    PerfModel llamaSpec = new PerfModel(6.33, 0.35, 6.9, 0.6, 0.03, 0.03, 0.02);
    PerfModel llamaPlain = new PerfModel(6.33, 0, 0, 0, 0.03, 0.02, 0.02);
    DeploymentSpec llama =
        new DeploymentSpec(
            LLAMA_EAGLE3,
            "gpu-h100-01",
            LogFormat.VLLM_V1_SPEC_V4,
            RequestFormat.REQUEST_V1,
            false,
            "meta-llama/Llama-3.1-8B-Instruct",
            "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
            "v1",
            SpecMethod.EAGLE3,
            3,
            1,
            3,
            H100,
            1,
            4,
            8,
            600,
            400_000,
            LLAMA_BASELINE,
            List.of(new Segment(start, llamaSpec, llamaAcc, vllm)),
            Map.of());
    DeploymentSpec llamaBase =
        new DeploymentSpec(
            LLAMA_BASELINE,
            "gpu-h100-02",
            LogFormat.VLLM_V1_SPEC_V4,
            RequestFormat.NONE,
            false,
            "meta-llama/Llama-3.1-8B-Instruct",
            null,
            null,
            SpecMethod.NONE,
            0,
            1,
            0,
            H100,
            1,
            4,
            8,
            600,
            400_000,
            null,
            List.of(new Segment(start, llamaPlain, llamaAcc, vllm)),
            Map.of());
    ds.add(llama);
    ds.add(llamaBase);
    eps.add(
        healthy(
            llama, start, end, "EAGLE-3 on Llama-3.1-8B: tau ~3.1, ~2.3x the plain 158 tok/s."));
    eps.add(baseline(llamaBase, start, end));

    // --- Qwen3-30B-A3B on 2x H100, TensorRT-LLM: below baseline (reference numbers) ---
    RunContextSpec trt = new RunContextSpec("1.0.0", "f00dbab", true, Map.of());
    Acceptance qwenAcc =
        acceptance(
            new String[] {"chat", "code"},
            new double[] {0.7, 0.3},
            new double[][] {{0.55, 0.45, 0.35}, {0.62, 0.50, 0.40}});
    PerfModel qwenSpec = new PerfModel(4.5, 0.45, 8.4, 0.5, 0.04, 0.03, 0.02);
    PerfModel qwenPlain = new PerfModel(4.5, 0, 0, 0, 0.04, 0.02, 0.02);
    DeploymentSpec qwen =
        new DeploymentSpec(
            QWEN_EAGLE3,
            "gpu-h100x2-01",
            LogFormat.TRTLLM_ITERATION_STATS,
            RequestFormat.REQUEST_V1,
            false,
            "Qwen/Qwen3-30B-A3B",
            "Tengyunw/qwen3_30b_moe_eagle3",
            "v1",
            SpecMethod.EAGLE3,
            3,
            1,
            3,
            H100X2,
            2,
            1.2,
            2,
            400,
            300_000,
            QWEN_BASELINE,
            List.of(new Segment(start, qwenSpec, qwenAcc, trt)),
            Map.of());
    DeploymentSpec qwenBase =
        new DeploymentSpec(
            QWEN_BASELINE,
            "gpu-h100x2-02",
            LogFormat.TRTLLM_ITERATION_STATS,
            RequestFormat.NONE,
            false,
            "Qwen/Qwen3-30B-A3B",
            null,
            null,
            SpecMethod.NONE,
            0,
            1,
            0,
            H100X2,
            2,
            1.2,
            2,
            400,
            300_000,
            null,
            List.of(new Segment(start, qwenPlain, qwenAcc, trt)),
            Map.of());
    ds.add(qwen);
    ds.add(qwenBase);
    eps.add(
        new Episode(
            "qwen-below-baseline",
            QWEN_EAGLE3,
            Episode.Type.SPEC_BELOW_BASELINE,
            start,
            end,
            List.of(Episode.SPEC_BELOW_BASELINE),
            "EAGLE-3 on Qwen3-30B-A3B, 2x H100, batch ~1: tau ~1.93, ~188 tok/s against the"
                + " plain 222 tok/s.",
            Truth.figures(qwen, qwen.segments().get(0))));
    eps.add(baseline(qwenBase, start, end));

    // --- healthy, for format coverage: DeepSeek-V3 MTP (SGLang mid 2025), Llama-70B n-gram (v0)
    Acceptance dsAcc =
        acceptance(
            new String[] {"chat", "code", "math"},
            new double[] {0.5, 0.3, 0.2},
            new double[][] {{0.85, 0.70, 0.55}, {0.88, 0.76, 0.62}, {0.86, 0.72, 0.58}});
    DeploymentSpec mtp =
        new DeploymentSpec(
            DEEPSEEK_MTP,
            "gpu-h200-01",
            LogFormat.SGLANG_2025_MID,
            RequestFormat.SGLANG_META_INFO,
            false,
            "deepseek-ai/DeepSeek-V3",
            null,
            null,
            SpecMethod.MTP,
            3,
            1,
            3,
            H200X8,
            8,
            2,
            4,
            500,
            900_000,
            null,
            List.of(
                new Segment(
                    start,
                    new PerfModel(20.0, 1.0, 24.0, 1.0, 0.05, 0.03, 0.02),
                    dsAcc,
                    new RunContextSpec("0.4.9", "7d1e0aa", true, Map.of()))),
            Map.of());
    ds.add(mtp);
    eps.add(healthy(mtp, start, end, "DeepSeek-V3 with MTP: tau ~2.8, ~2x plain decoding."));
    Acceptance ngramAcc =
        acceptance(
            new String[] {"chat", "code"},
            new double[] {0.6, 0.4},
            new double[][] {{0.40, 0.35, 0.30}, {0.62, 0.55, 0.50}});
    DeploymentSpec ngram =
        new DeploymentSpec(
            LLAMA70_NGRAM,
            "gpu-a100-01",
            LogFormat.VLLM_V0,
            RequestFormat.NONE,
            false,
            "meta-llama/Llama-3.3-70B-Instruct",
            null,
            null,
            SpecMethod.NGRAM,
            3,
            1,
            3,
            A100X4,
            4,
            3,
            6,
            500,
            500_000,
            null,
            List.of(
                new Segment(
                    start,
                    new PerfModel(22.0, 0.05, 24.5, 1.0, 0.04, 0.03, 0.02),
                    ngramAcc,
                    new RunContextSpec("0.6.6", "5e4f3a2", true, Map.of()))),
            Map.of());
    ds.add(ngram);
    eps.add(healthy(ngram, start, end, "n-gram lookup on Llama-3.3-70B: tau ~1.8, ~1.5x."));
    return new Scenario("demo", seed, start, end, ds, eps);
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

  static Acceptance acceptance(String[] categories, double[] weights, double[][] alphas) {
    Map<String, List<Double>> a = new LinkedHashMap<>();
    Map<String, Double> w = new LinkedHashMap<>();
    for (int i = 0; i < categories.length; i++) {
      List<Double> list = new ArrayList<>();
      for (double x : alphas[i]) {
        list.add(x);
      }
      a.put(categories[i], list);
      w.put(categories[i], weights[i]);
    }
    return new Acceptance(a, w);
  }

  static Episode healthy(DeploymentSpec d, Instant start, Instant end, String description) {
    return new Episode(
        d.id() + "-healthy",
        d.id(),
        Episode.Type.HEALTHY,
        start,
        end,
        List.of(),
        description,
        Truth.figures(d, d.segments().get(0)));
  }

  static Episode baseline(DeploymentSpec d, Instant start, Instant end) {
    return new Episode(
        d.id() + "-baseline",
        d.id(),
        Episode.Type.BASELINE,
        start,
        end,
        List.of(),
        "Plain decoding: the baseline of "
            + d.model()
            + " on "
            + d.hardware().hardwareClass()
            + ".",
        Truth.figures(d, d.segments().get(0)));
  }
}
