package io.specwatch.ingest.generate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --scenario fleet --deployments N}: a random fleet for benchmarks. Deployments come in
 * groups of one model on one hardware class: one plain baseline and speculative deployments with
 * random methods and log formats (every format family occurs). Of the speculative ones ~10% run
 * below baseline, ~2% collapse to tau 1.00, ~5% get a real regression (NCCL env dropped or CUDA
 * graphs off) at a random minute, ~5% a within-noise shift; the rest are healthy. Everything is
 * drawn from the seed.
 */
public final class FleetScenario {

  /** A model on a hardware class with its plain step time. */
  private record Family(String model, String draft, Hardware hw, int tp, double tArMs) {}

  private static final List<Family> FAMILIES =
      List.of(
          new Family(
              "meta-llama/Llama-3.1-8B-Instruct",
              "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
              new Hardware("H100 SXM", 1, "NVLink", "h100x1"),
              1,
              6.33),
          new Family(
              "meta-llama/Llama-3.3-70B-Instruct",
              "yuhuili/EAGLE3-LLaMA3.3-Instruct-70B",
              new Hardware("H100 SXM", 4, "NVLink", "h100x4"),
              4,
              14.0),
          new Family(
              "Qwen/Qwen3-30B-A3B",
              "Tengyunw/qwen3_30b_moe_eagle3",
              new Hardware("H100 SXM", 2, "NVLink", "h100x2"),
              2,
              4.5),
          new Family(
              "moonshotai/Kimi-K2.5",
              "lmsys/Kimi-K2.5-EAGLE3",
              new Hardware("RTX PRO 6000 Blackwell", 8, "PCIe", "rtx-pro-6000x8"),
              8,
              12.2),
          new Family(
              "deepseek-ai/DeepSeek-V3",
              "deepseek-ai/DeepSeek-V3-MTP",
              new Hardware("H200", 8, "NVLink", "h200x8"),
              8,
              20.0),
          new Family(
              "Qwen/Qwen2.5-72B-Instruct",
              "Qwen/Qwen2.5-0.5B-Instruct",
              new Hardware("L40S", 4, "PCIe", "l40sx4"),
              4,
              38.0));

  private static final String[] CATEGORIES = {"chat", "code", "completion", "math"};
  private static final int GROUP = 10;

  private FleetScenario() {}

  public static Scenario build(long seed, Instant start, Duration duration, int deployments) {
    if (deployments < 1) {
      throw new IllegalArgumentException("--deployments must be >= 1, was " + deployments);
    }
    Instant end = start.plus(duration);
    Rng r = new Rng(Rng.derive(seed, "fleet"));
    List<DeploymentSpec> ds = new ArrayList<>(deployments);
    List<Episode> eps = new ArrayList<>();
    LogFormat[] formats = LogFormat.values();
    SpecMethod[] methods = {
      SpecMethod.EAGLE3, SpecMethod.EAGLE3, SpecMethod.MTP, SpecMethod.NGRAM, SpecMethod.DRAFT
    };
    String baselineId = null;
    Family family = null;
    for (int i = 0; i < deployments; i++) {
      String id = String.format(Locale.ROOT, "fleet-%05d", i);
      String host = String.format(Locale.ROOT, "gpu-%04d", i / 2);
      boolean newGroup = i % GROUP == 0;
      if (newGroup) {
        family = FAMILIES.get(r.nextInt(FAMILIES.size()));
      }
      double slope = 0.02 + 0.06 * r.uniform();
      double windowNoise = 0.01 + 0.02 * r.uniform();
      RunContextSpec ctx =
          new RunContextSpec(
              "0.5." + r.nextInt(7),
              r.hex(7),
              true,
              r.chance(0.5) ? DemoScenario.NCCL_ENV : Map.of());
      double meanBatch = 1 + r.nextInt(8);
      int maxBatch = (int) Math.max(2, meanBatch * 2);
      if (newGroup) {
        // the baseline of the group: a native format that carries plain step times
        LogFormat f = r.chance(0.5) ? LogFormat.SGLANG_2025_MID : LogFormat.TRTLLM_ITERATION_STATS;
        PerfModel plain = new PerfModel(family.tArMs(), 0, 0, 0, slope, 0.02, windowNoise);
        DeploymentSpec b =
            new DeploymentSpec(
                id,
                host,
                f,
                RequestFormat.NONE,
                false,
                family.model(),
                null,
                null,
                SpecMethod.NONE,
                0,
                1,
                0,
                family.hw(),
                family.tp(),
                meanBatch,
                maxBatch,
                500,
                500_000,
                null,
                List.of(new Segment(start, plain, acceptance(r, 0, 0), ctx)),
                Map.of());
        ds.add(b);
        baselineId = id;
        eps.add(DemoScenario.baseline(b, start, end));
        continue;
      }
      LogFormat format = formats[r.nextInt(formats.length)];
      SpecMethod method = methods[r.nextInt(methods.length)];
      int k = 2 + r.nextInt(3);
      double roll = r.uniform();
      Episode.Type type =
          roll < 0.10
              ? Episode.Type.SPEC_BELOW_BASELINE
              : roll < 0.12
                  ? Episode.Type.ACCEPT_COLLAPSE
                  : roll < 0.17
                      ? Episode.Type.REGRESSION
                      : roll < 0.22 ? Episode.Type.NOISE_SHIFT : Episode.Type.HEALTHY;
      double tAr = family.tArMs();
      double quality =
          type == Episode.Type.SPEC_BELOW_BASELINE
              ? 0.55 + 0.1 * r.uniform()
              : 0.75 + 0.15 * r.uniform();
      Acceptance acc =
          type == Episode.Type.ACCEPT_COLLAPSE
              ? acceptance(r, k, 0.8).scaled(0)
              : acceptance(r, k, quality);
      double verify =
          type == Episode.Type.SPEC_BELOW_BASELINE
              ? tAr * (2.2 + 0.4 * r.uniform())
              : tAr * (1.05 + 0.25 * r.uniform());
      double draftPerStep = method == SpecMethod.NGRAM ? 0.02 : tAr * (0.02 + 0.04 * r.uniform());
      PerfModel perf =
          new PerfModel(tAr, draftPerStep, verify, 0.05 * tAr, slope, 0.03, windowNoise);
      List<Segment> segments = new ArrayList<>();
      segments.add(new Segment(start, perf, acc, ctx));
      Instant change = null;
      if (type == Episode.Type.REGRESSION || type == Episode.Type.NOISE_SHIFT) {
        long minutes = Math.max(2, duration.toMinutes());
        change = start.plus(Duration.ofMinutes(1 + r.nextInt((int) minutes - 1)));
        if (type == Episode.Type.REGRESSION) {
          boolean graphs = r.chance(0.5);
          RunContextSpec after = graphs ? ctx.withCudaGraph(false) : ctx.withEnv(Map.of());
          segments.add(new Segment(change, perf.withVerifyMs(verify * 1.5), acc, after));
        } else {
          segments.add(new Segment(change, perf, acc, ctx.withCommit(r.hex(7))));
        }
      }
      if (format == LogFormat.SPECWATCH_CYCLE || format == LogFormat.TRTLLM_ITERATION_STATS) {
        meanBatch = Math.min(meanBatch, 4);
        maxBatch = Math.min(maxBatch, 8);
      }
      RequestFormat requests =
          format.isSglang()
              ? RequestFormat.SGLANG_META_INFO
              : r.chance(0.5) ? RequestFormat.REQUEST_V1 : RequestFormat.NONE;
      String draft = method == SpecMethod.NGRAM ? null : family.draft();
      DeploymentSpec d =
          new DeploymentSpec(
              id,
              host,
              format,
              requests,
              format == LogFormat.SPECWATCH_CYCLE,
              family.model(),
              draft,
              draft == null ? null : "v" + (1 + r.nextInt(4)),
              type == Episode.Type.ACCEPT_COLLAPSE ? SpecMethod.EAGLE : method,
              k,
              1,
              k,
              family.hw(),
              family.tp(),
              meanBatch,
              maxBatch,
              500,
              500_000,
              baselineId,
              segments,
              Map.of());
      ds.add(d);
      eps.add(episode(d, type, start, end, change));
    }
    return new Scenario("fleet", seed, start, end, ds, eps);
  }

  private static Episode episode(
      DeploymentSpec d, Episode.Type type, Instant start, Instant end, Instant change) {
    Segment first = d.segments().get(0);
    Segment last = d.segments().get(d.segments().size() - 1);
    return switch (type) {
      case SPEC_BELOW_BASELINE ->
          new Episode(
              d.id() + "-below-baseline",
              d.id(),
              type,
              start,
              end,
              List.of(Episode.SPEC_BELOW_BASELINE),
              "speculation slower than the baseline",
              Truth.figures(d, first));
      case ACCEPT_COLLAPSE ->
          new Episode(
              d.id() + "-collapse",
              d.id(),
              type,
              start,
              end,
              Truth.tokS(d, first) < 1000 / first.perf().tAr(1)
                  ? List.of(Episode.ACCEPT_COLLAPSE, Episode.SPEC_BELOW_BASELINE)
                  : List.of(Episode.ACCEPT_COLLAPSE),
              "wrong algorithm: nothing accepted, tau 1.00",
              Truth.figures(d, first));
      case REGRESSION -> {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("before", Truth.figures(d, first));
        f.put("after", Truth.figures(d, last));
        f.put("contextBefore", first.context().toString());
        f.put("contextAfter", last.context().toString());
        Instant to = change.plus(Duration.ofMinutes(5));
        yield new Episode(
            d.id() + "-regression",
            d.id(),
            type,
            change,
            to.isAfter(end) ? end : to,
            List.of(Episode.REGRESSION),
            "verify ms x1.5 after a run-context change",
            f);
      }
      case NOISE_SHIFT ->
          new Episode(
              d.id() + "-noise",
              d.id(),
              type,
              change.minus(Duration.ofMinutes(1)),
              change.plus(Duration.ofMinutes(1)),
              List.of(),
              "engine commit changed, performance unchanged (window noise only)",
              Truth.figures(d, first));
      default ->
          new Episode(
              d.id() + "-healthy",
              d.id(),
              Episode.Type.HEALTHY,
              start,
              end,
              List.of(),
              "healthy speculation",
              Truth.figures(d, first));
    };
  }

  /** Decaying per-position probabilities around {@code quality} for 1..4 random categories. */
  private static Acceptance acceptance(Rng r, int k, double quality) {
    Map<String, List<Double>> a = new LinkedHashMap<>();
    Map<String, Double> w = new LinkedHashMap<>();
    int n = 1 + r.nextInt(CATEGORIES.length);
    for (int c = 0; c < n; c++) {
      double q = Math.min(0.97, Math.max(0.05, quality + 0.08 * r.gaussian()));
      List<Double> list = new ArrayList<>();
      for (int i = 0; i < k; i++) {
        list.add(Truth.round(Math.max(0.02, q * Math.pow(0.9, i))));
      }
      a.put(CATEGORIES[c], list);
      w.put(CATEGORIES[c], Truth.round(0.2 + r.uniform()));
    }
    return new Acceptance(a, w);
  }
}
