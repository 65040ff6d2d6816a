package io.specwatch.streams.alert;

import static io.specwatch.streams.alert.Alerts.num;

import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.RegressionDetector.MetricTest;
import java.util.LinkedHashMap;
import java.util.Map;

/** The evidence maps the alerts carry (values are strings: numbers via {@link Alerts#num}). */
final class AlertEvidence {

  private AlertEvidence() {}

  /** The window's figures: what SPEC_BELOW_BASELINE and ACCEPT_COLLAPSE carry. */
  static Map<String, String> window(WindowResult w) {
    Map<String, String> ev = new LinkedHashMap<>();
    ev.put("windowStart", w.getWindowStart().toString());
    ev.put("windowEnd", w.getWindowEnd().toString());
    ev.put("cycles", Long.toString(w.getCycles()));
    ev.put("tau", str(w.getMeanAcceptLength()));
    ev.put("tauStar", str(w.getBreakEvenAcceptLength()));
    ev.put("speedup", str(w.getSpeedup()));
    ev.put("meanCycleMs", str(w.getMeanCycleMs()));
    ev.put("verifyMsP50", str(w.getVerifyMsP50()));
    ev.put("baselineStepMs", str(w.getBaselineStepMs()));
    ev.put("effectiveTokSPerRequest", str(w.getEffectiveTokSPerRequest()));
    ev.put("baselineTokS", str(w.getBaselineTokS()));
    ev.put("acceptedTokens", Long.toString(w.getAcceptedTokens()));
    ev.put("draftedTokens", Long.toString(w.getDraftedTokens()));
    if (w.getBaselineSource() != null) {
      ev.put("baselineSource", w.getBaselineSource());
    }
    if (w.getRunContextId() != null) {
      ev.put("runContextId", w.getRunContextId());
    }
    return ev;
  }

  /** A nullable number for the evidence map. */
  static String str(Double d) {
    return d == null ? "null" : num(d);
  }

  /** Every metric test of {@code out}: means, sds, n, t, df, p, Bonferroni p, effect, breach. */
  static Map<String, String> regression(RegressionDetector.Outcome out, AlertConfig config) {
    Map<String, String> ev = new LinkedHashMap<>();
    ev.put("confidence", num(config.confidence()));
    ev.put("alpha", num(config.alpha()));
    ev.put("minEffect", num(config.minEffect()));
    ev.put("metricsTested", Integer.toString(out.tests().size()));
    for (MetricTest t : out.tests()) {
      String p = t.metric().field() + ".";
      WelchTest x = t.test();
      ev.put(p + "referenceMean", num(x.referenceMean()));
      ev.put(p + "referenceSd", num(x.referenceSd()));
      ev.put(p + "referenceN", Long.toString(x.referenceN()));
      ev.put(p + "recentMean", num(x.recentMean()));
      ev.put(p + "recentSd", num(x.recentSd()));
      ev.put(p + "recentN", Long.toString(x.recentN()));
      ev.put(p + "t", num(x.t()));
      ev.put(p + "df", num(x.df()));
      ev.put(p + "p", num(x.p()));
      ev.put(p + "pAdjusted", num(t.pAdjusted()));
      ev.put(p + "effect", num(x.relativeEffect()));
      ev.put(p + "breach", Boolean.toString(t.breach()));
    }
    return ev;
  }
}
