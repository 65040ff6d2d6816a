package io.specwatch.ingest.generate;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --scenario demo}: fixed, named deployments telling the seeds' story (see ingest/README.md,
 * "Generating a synthetic fleet", for the numbers). The change point of the scripted episodes is
 * the first whole minute at or after the middle of the span.
 *
 * <p>The Kimi-K2.5 deployments (the seeds) are built by {@link DemoKimiDeployments}, those of the
 * other models by {@link DemoOtherModelDeployments}; this class holds the deployment names, the
 * phantom's figures and the helpers both use.
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
    DemoKimiDeployments.add(seed, start, end, change, ds, eps);
    DemoOtherModelDeployments.add(start, end, ds, eps);
    return new Scenario("demo", seed, start, end, ds, eps);
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
