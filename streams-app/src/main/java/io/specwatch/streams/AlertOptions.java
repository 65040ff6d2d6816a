package io.specwatch.streams;

import io.specwatch.runtime.Durations;
import io.specwatch.streams.alert.AlertConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The {@code --alert-*} options of {@code streams run}; each also read from an env variable. */
public final class AlertOptions {

  @Option(
      names = "--alert-raise-windows",
      defaultValue = "${env:SPECWATCH_ALERT_RAISE_WINDOWS:-3}",
      description =
          "Consecutive breaching windows that raise an alert (env SPECWATCH_ALERT_RAISE_WINDOWS)."
              + " Default: ${DEFAULT-VALUE}")
  int raiseWindows;

  @Option(
      names = "--alert-clear-windows",
      defaultValue = "${env:SPECWATCH_ALERT_CLEAR_WINDOWS:-3}",
      description =
          "Consecutive healthy windows that clear it (env SPECWATCH_ALERT_CLEAR_WINDOWS)."
              + " Default: ${DEFAULT-VALUE}")
  int clearWindows;

  @Option(
      names = "--alert-min-cycles",
      defaultValue = "${env:SPECWATCH_ALERT_MIN_CYCLES:-200}",
      description =
          "Windows with fewer cycles are inconclusive (env SPECWATCH_ALERT_MIN_CYCLES)."
              + " Default: ${DEFAULT-VALUE}")
  long minCycles;

  @Option(
      names = "--alert-below-baseline-speedup",
      defaultValue = "${env:SPECWATCH_ALERT_BELOW_BASELINE_SPEEDUP:-1.0}",
      description =
          "SPEC_BELOW_BASELINE while speedup S < this (env SPECWATCH_ALERT_BELOW_BASELINE_SPEEDUP)."
              + " Default: ${DEFAULT-VALUE}")
  double belowBaselineSpeedup;

  @Option(
      names = "--alert-collapse-accept-length",
      defaultValue = "${env:SPECWATCH_ALERT_COLLAPSE_ACCEPT_LENGTH:-1.05}",
      description =
          "ACCEPT_COLLAPSE while mean tau <= this (env SPECWATCH_ALERT_COLLAPSE_ACCEPT_LENGTH)."
              + " Default: ${DEFAULT-VALUE}")
  double collapseAcceptLength;

  @Option(
      names = "--alert-no-data-silence",
      defaultValue = "${env:SPECWATCH_ALERT_NO_DATA_SILENCE:-5m}",
      converter = Durations.Converter.class,
      description =
          "NO_DATA after this long without a window (env SPECWATCH_ALERT_NO_DATA_SILENCE)."
              + " Default: ${DEFAULT-VALUE}")
  Duration noDataSilence;

  @Option(
      names = "--alert-no-data-check-interval",
      defaultValue = "${env:SPECWATCH_ALERT_NO_DATA_CHECK_INTERVAL:-30s}",
      converter = Durations.Converter.class,
      description =
          "Wall-clock interval of the NO_DATA check (env SPECWATCH_ALERT_NO_DATA_CHECK_INTERVAL)."
              + " Default: ${DEFAULT-VALUE}")
  Duration noDataCheckInterval;

  @Option(
      names = "--alert-regression-reference-windows",
      defaultValue = "${env:SPECWATCH_ALERT_REGRESSION_REFERENCE_WINDOWS:-20}",
      description =
          "Trailing reference block (env SPECWATCH_ALERT_REGRESSION_REFERENCE_WINDOWS)."
              + " Default: ${DEFAULT-VALUE}")
  int referenceWindows;

  @Option(
      names = "--alert-regression-min-reference-windows",
      defaultValue = "${env:SPECWATCH_ALERT_REGRESSION_MIN_REFERENCE_WINDOWS:-10}",
      description =
          "Reference windows needed before testing"
              + " (env SPECWATCH_ALERT_REGRESSION_MIN_REFERENCE_WINDOWS). Default: ${DEFAULT-VALUE}")
  int minReferenceWindows;

  @Option(
      names = "--alert-regression-recent-windows",
      defaultValue = "${env:SPECWATCH_ALERT_REGRESSION_RECENT_WINDOWS:-5}",
      description =
          "Recent block tested against the reference"
              + " (env SPECWATCH_ALERT_REGRESSION_RECENT_WINDOWS). Default: ${DEFAULT-VALUE}")
  int recentWindows;

  @Option(
      names = "--alert-regression-confidence",
      defaultValue = "${env:SPECWATCH_ALERT_REGRESSION_CONFIDENCE:-0.99}",
      description =
          "Family-wise confidence of the Welch tests, Bonferroni over the metrics"
              + " (env SPECWATCH_ALERT_REGRESSION_CONFIDENCE). Default: ${DEFAULT-VALUE}")
  double confidence;

  @Option(
      names = "--alert-regression-min-effect",
      defaultValue = "${env:SPECWATCH_ALERT_REGRESSION_MIN_EFFECT:-0.05}",
      description =
          "Minimum relative shift (env SPECWATCH_ALERT_REGRESSION_MIN_EFFECT)."
              + " Default: ${DEFAULT-VALUE}")
  double minEffect;

  @Option(
      names = "--alert-regression-min-shift-sds",
      defaultValue = "${env:SPECWATCH_ALERT_REGRESSION_MIN_SHIFT_SDS:-1.5}",
      description =
          "Minimum shift in standard deviations of the reference windows (their window-to-window"
              + " noise; env SPECWATCH_ALERT_REGRESSION_MIN_SHIFT_SDS). Default: ${DEFAULT-VALUE}")
  double minShiftSds;

  @Option(
      names = "--alert-regression-rebaseline-windows",
      defaultValue = "${env:SPECWATCH_ALERT_REGRESSION_REBASELINE_WINDOWS:-60}",
      description =
          "Windows after which an unrecovered regression becomes the reference, 0 = never"
              + " (env SPECWATCH_ALERT_REGRESSION_REBASELINE_WINDOWS). Default: ${DEFAULT-VALUE}")
  int rebaselineWindows;

  @Option(
      names = "--alert-partitions",
      defaultValue = "${env:SPECWATCH_ALERT_PARTITIONS:-1}",
      description =
          "Partitions of the alert repartition topics (env SPECWATCH_ALERT_PARTITIONS); changing it"
              + " needs an application reset. Default: ${DEFAULT-VALUE}")
  int partitions;

  /** The validated alert config; IllegalArgumentException naming the option when invalid. */
  public AlertConfig config() {
    return new AlertConfig(
        raiseWindows,
        clearWindows,
        minCycles,
        belowBaselineSpeedup,
        collapseAcceptLength,
        noDataSilence,
        noDataCheckInterval,
        referenceWindows,
        minReferenceWindows,
        recentWindows,
        confidence,
        minEffect,
        minShiftSds,
        rebaselineWindows,
        partitions);
  }
}
