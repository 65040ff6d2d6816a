package io.specwatch.streams.alert;

import static io.specwatch.streams.alert.Alerts.num;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.Hysteresis.Transition;
import io.specwatch.streams.alert.RegressionDetector.MetricTest;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The raise and clear events of the REGRESSION rule: on a raise the strongest breaching metric
 * (smallest p), its reference and recent means, Welch's p with the Bonferroni factor, and the
 * run-context change it is attributed to; on a clear whether the deployment recovered or its
 * regressed windows became the new reference.
 */
final class RegressionAlerts {

  private RegressionAlerts() {}

  /**
   * The alert of {@code out} (a RAISE or CLEAR transition) at window {@code w} of {@code
   * deployment}; {@code change} is the run-context change between the newest reference window and
   * {@code w}'s end, if there was one (read only on a raise).
   */
  static Alert alert(
      String deployment,
      WindowResult w,
      RegressionDetector.Outcome out,
      Optional<RunContextHistory.Change> change,
      AlertConfig config) {
    if (out.transition() == Transition.NONE) {
      throw new IllegalArgumentException("no transition, no alert");
    }
    long start = w.getWindowStart().toEpochMilli();
    long end = w.getWindowEnd().toEpochMilli();
    boolean raise = out.transition() == Transition.RAISE;
    Map<String, String> ev = AlertEvidence.regression(out, config);
    Optional<MetricTest> strongest = out.strongest();
    String metric = null;
    Double observed = null;
    Double reference = null;
    Double pValue = null;
    String attributed = null;
    String message;
    if (raise) {
      MetricTest s = strongest.orElseThrow();
      metric = s.metric().field();
      observed = s.test().recentMean();
      reference = s.test().referenceMean();
      pValue = s.test().p();
      if (change.isPresent()) {
        attributed = change.get().diff();
        ev.put("attribution.fromContextId", change.get().from().contextId());
        ev.put("attribution.toContextId", change.get().to().contextId());
        ev.put(
            "attribution.observedAt",
            Instant.ofEpochMilli(change.get().to().observedAt()).toString());
      }
      ev.put("referenceEnd", Instant.ofEpochMilli(out.referenceEnd()).toString());
      message =
          String.format(
              Locale.ROOT,
              "%s %s %s -> %s (%+.1f%%), Welch p=%s, Bonferroni x%d = %s < %s, %d windows vs %d%s",
              metric,
              s.metric().higherIsWorse() ? "rose" : "fell",
              num(reference),
              num(observed),
              100 * s.test().relativeEffect(),
              num(pValue),
              out.tests().size(),
              num(s.pAdjusted()),
              num(config.alpha()),
              s.test().recentN(),
              s.test().referenceN(),
              attributed == null ? "; no run-context change" : "; after " + attributed);
    } else {
      ev.put("reason", out.clearReason());
      message =
          "rebaselined".equals(out.clearReason())
              ? "regression did not recover within "
                  + config.rebaselineWindows()
                  + " windows: its windows are the new reference"
              : "recovered: no metric worse than the reference for "
                  + config.clearWindows()
                  + " windows";
    }
    return Alerts.alert(
        deployment,
        AlertType.REGRESSION,
        raise ? AlertState.RAISED : AlertState.CLEARED,
        start,
        end,
        metric,
        observed,
        reference,
        pValue,
        attributed,
        message,
        ev);
  }
}
