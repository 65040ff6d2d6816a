package io.specwatch.ingest.generate;

import static io.specwatch.ingest.generate.DemoScenario.DEEPSEEK_MTP;
import static io.specwatch.ingest.generate.DemoScenario.LLAMA70_NGRAM;
import static io.specwatch.ingest.generate.DemoScenario.LLAMA_BASELINE;
import static io.specwatch.ingest.generate.DemoScenario.LLAMA_EAGLE3;
import static io.specwatch.ingest.generate.DemoScenario.QWEN_BASELINE;
import static io.specwatch.ingest.generate.DemoScenario.QWEN_EAGLE3;
import static io.specwatch.ingest.generate.DemoScenario.acceptance;
import static io.specwatch.ingest.generate.DemoScenario.baseline;
import static io.specwatch.ingest.generate.DemoScenario.healthy;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The demo's deployments of models other than Kimi-K2.5: a healthy EAGLE-3 on Llama-3.1-8B (vLLM
 * V1), an EAGLE-3 below its baseline on Qwen3-30B-A3B (TensorRT-LLM), each with its plain baseline,
 * and for format coverage a healthy DeepSeek-V3 MTP (SGLang mid 2025) and Llama-3.3-70B n-gram
 * (vLLM v0), with their episodes.
 */
final class DemoOtherModelDeployments {

  private static final Hardware H100 = new Hardware("H100 SXM", 1, "NVLink", "h100x1");
  private static final Hardware H100X2 = new Hardware("H100 SXM", 2, "NVLink", "h100x2");
  private static final Hardware H200X8 = new Hardware("H200", 8, "NVLink", "h200x8");
  private static final Hardware A100X4 = new Hardware("A100 80GB", 4, "NVLink", "a100x4");

  private DemoOtherModelDeployments() {}

  /**
   * Adds these deployments to {@code ds} and their episodes to {@code eps}, in the demo's order.
   */
  static void add(Instant start, Instant end, List<DeploymentSpec> ds, List<Episode> eps) {
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
  }
}
