package io.specwatch.streams.alert;

import static io.specwatch.streams.alert.Alerts.num;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.Hysteresis.Transition;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * The raise and clear events of the threshold rules, SPEC_BELOW_BASELINE (speedup S below the
 * configured value) and ACCEPT_COLLAPSE (tau at or below the collapse length): metric, observed
 * value, threshold, message and evidence of the window whose hysteresis step changed the state.
 */
final class ThresholdAlerts {

  private ThresholdAlerts() {}

  /**
   * The alert of {@code step} (a RAISE or CLEAR transition of {@code type}'s hysteresis) at window
   * {@code w} of {@code deployment}.
   */
  static Alert alert(
      String deployment, AlertType type, WindowResult w, Hysteresis.Step step, AlertConfig config) {
    if (step.transition() == Transition.NONE) {
      throw new IllegalArgumentException("no transition, no alert");
    }
    long start = w.getWindowStart().toEpochMilli();
    boolean raise = step.transition() == Transition.RAISE;
    AlertState state = raise ? AlertState.RAISED : AlertState.CLEARED;
    Map<String, String> ev = AlertEvidence.window(w);
    ev.put(
        raise ? "breachWindows" : "healthyWindows",
        Integer.toString(raise ? step.state().breachStreak() : step.state().healthyStreak()));
    ev.put("streakStart", Instant.ofEpochMilli(step.state().streakStart()).toString());
    ev.put("minCycles", Long.toString(config.minCycles()));
    String metric;
    Double observed;
    double threshold;
    String message;
    if (type == AlertType.SPEC_BELOW_BASELINE) {
      metric = "speedup";
      observed = w.getSpeedup();
      threshold = config.belowBaselineSpeedup();
      message =
          raise
              ? String.format(
                  Locale.ROOT,
                  "speculation slower than the baseline for %d windows: S=%.3f < %s (tau %s,"
                      + " tau* %s)",
                  step.state().breachStreak(),
                  observed,
                  num(threshold),
                  AlertEvidence.str(w.getMeanAcceptLength()),
                  AlertEvidence.str(w.getBreakEvenAcceptLength()))
              : String.format(
                  Locale.ROOT,
                  "speedup back at or above %s for %d windows: S=%.3f",
                  num(threshold),
                  step.state().healthyStreak(),
                  observed);
    } else {
      metric = "meanAcceptLength";
      observed = w.getMeanAcceptLength();
      threshold = config.collapseAcceptLength();
      message =
          raise
              ? String.format(
                  Locale.ROOT,
                  "accept length collapsed for %d windows: tau=%.3f <= %s (drafter contributes"
                      + " nothing)",
                  step.state().breachStreak(),
                  observed,
                  num(threshold))
              : String.format(
                  Locale.ROOT,
                  "accept length above %s for %d windows: tau=%.3f",
                  num(threshold),
                  step.state().healthyStreak(),
                  observed);
    }
    ev.put("threshold", num(threshold));
    return Alerts.alert(
        deployment,
        type,
        state,
        start,
        w.getWindowEnd().toEpochMilli(),
        metric,
        observed,
        threshold,
        null,
        null,
        message,
        ev);
  }
}
