package io.specwatch.ingest.generate;

import java.util.LinkedHashMap;
import java.util.Map;

/** The expected figures of a deployment segment at batch size 1, for the manifest and tests. */
public final class Truth {

  private Truth() {}

  /** Expected tau over the category mix (1 for a plain deployment). */
  public static double tau(DeploymentSpec d, Segment s) {
    return d.method().speculative() ? s.acceptance().expectedTau() : 1.0;
  }

  /** Expected T_cyc at batch 1 (t_AR for a plain deployment). */
  public static double cycleMs(DeploymentSpec d, Segment s) {
    return d.method().speculative() ? s.perf().cycle(1, d.numSteps()) : s.perf().tAr(1);
  }

  /** Expected effective tok/s per request at batch 1: 1000 tau / T_cyc. */
  public static double tokS(DeploymentSpec d, Segment s) {
    return 1000.0 * tau(d, s) / cycleMs(d, s);
  }

  /** The figures of one segment, for the manifest. */
  public static Map<String, Object> figures(DeploymentSpec d, Segment s) {
    Map<String, Object> m = new LinkedHashMap<>();
    double tau = tau(d, s);
    double cycle = cycleMs(d, s);
    double tAr = s.perf().tAr(1);
    m.put("tau", round(tau));
    m.put("cycleMsBatch1", round(cycle));
    m.put("tArMsBatch1", round(tAr));
    m.put("tokSPerRequestBatch1", round(1000 * tau / cycle));
    m.put("baselineTokSBatch1", round(1000 / tAr));
    if (d.method().speculative()) {
      m.put("draftMsBatch1", round(s.perf().draft(1, d.numSteps())));
      m.put("verifyMsBatch1", round(s.perf().verify(1)));
      m.put("overheadMs", round(s.perf().overheadMs()));
      m.put("speedup", round(tau * tAr / cycle));
      m.put("breakEvenTau", round(cycle / tAr));
      Map<String, Object> byCategory = new LinkedHashMap<>();
      s.acceptance()
          .alphas()
          .keySet()
          .forEach(c -> byCategory.put(c, round(s.acceptance().expectedTau(c))));
      m.put("tauByCategory", byCategory);
      Map<String, Object> alphas = new LinkedHashMap<>(s.acceptance().alphas());
      m.put("conditionalAcceptanceByCategory", alphas);
      double[] position = new double[d.draftTokens()];
      for (int i = 0; i < position.length; i++) {
        position[i] = round(s.acceptance().positionAcceptance(i));
      }
      m.put("perPositionAcceptance", position);
    }
    m.put("categoryWeights", s.acceptance().weights());
    m.put("batchSlope", s.perf().batchSlope());
    m.put("cycleNoise", s.perf().cycleNoise());
    m.put("windowNoise", s.perf().windowNoise());
    return m;
  }

  static double round(double v) {
    return Math.round(v * 10000.0) / 10000.0;
  }
}
