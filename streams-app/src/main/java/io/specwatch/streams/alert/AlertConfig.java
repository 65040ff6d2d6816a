package io.specwatch.streams.alert;

import java.time.Duration;

/**
 * Validated alert rules. Every setting is checked in the constructor and a failure names the CLI
 * option ({@code --alert-...}) it comes from.
 *
 * @param raiseWindows N: consecutive breaching windows (each with at least {@code minCycles}) that
 *     raise an alert
 * @param clearWindows M: consecutive healthy windows that clear a raised alert
 * @param minCycles windows with fewer cycles are inconclusive: they neither extend nor break a
 *     streak and are not used by the regression test
 * @param belowBaselineSpeedup SPEC_BELOW_BASELINE breaches while speedup S is below this
 * @param collapseAcceptLength ACCEPT_COLLAPSE breaches while mean tau is at or below this
 * @param noDataSilence NO_DATA raises when a deployment's last window ended this long ago
 * @param noDataCheckInterval wall-clock punctuation interval of the NO_DATA check
 * @param referenceWindows REGRESSION: trailing reference block size (windows)
 * @param minReferenceWindows REGRESSION: reference windows needed before testing
 * @param recentWindows REGRESSION: recent block size (windows) tested against the reference
 * @param confidence REGRESSION: confidence of the test, family-wise over the metrics (Bonferroni)
 * @param minEffect REGRESSION: minimum relative shift |recent - reference| / reference
 * @param minShiftSds REGRESSION: minimum shift in units of the reference windows' standard
 *     deviation (their window-to-window noise): |recent - reference| / sd(reference); a constant
 *     reference (sd 0) passes any shift
 * @param rebaselineWindows REGRESSION: windows after which a raised regression that did not recover
 *     becomes the new reference (cleared with reason {@code rebaselined}); 0 = never
 * @param partitions partitions of the two alert repartition topics (window results and run contexts
 *     are co-partitioned on them)
 */
public record AlertConfig(
    int raiseWindows,
    int clearWindows,
    long minCycles,
    double belowBaselineSpeedup,
    double collapseAcceptLength,
    Duration noDataSilence,
    Duration noDataCheckInterval,
    int referenceWindows,
    int minReferenceWindows,
    int recentWindows,
    double confidence,
    double minEffect,
    double minShiftSds,
    int rebaselineWindows,
    int partitions) {

  public AlertConfig {
    positive(raiseWindows, "alert-raise-windows");
    positive(clearWindows, "alert-clear-windows");
    if (minCycles < 0) {
      throw new IllegalArgumentException("alert-min-cycles must be >= 0, got " + minCycles);
    }
    if (!(belowBaselineSpeedup > 0) || Double.isInfinite(belowBaselineSpeedup)) {
      throw new IllegalArgumentException(
          "alert-below-baseline-speedup must be a positive number, got " + belowBaselineSpeedup);
    }
    if (!(collapseAcceptLength >= 1.0) || Double.isInfinite(collapseAcceptLength)) {
      throw new IllegalArgumentException(
          "alert-collapse-accept-length must be a number >= 1.0, got " + collapseAcceptLength);
    }
    positive(noDataSilence, "alert-no-data-silence");
    positive(noDataCheckInterval, "alert-no-data-check-interval");
    if (recentWindows < 2) {
      throw new IllegalArgumentException(
          "alert-regression-recent-windows must be >= 2 (a variance needs two), got "
              + recentWindows);
    }
    if (minReferenceWindows < 2) {
      throw new IllegalArgumentException(
          "alert-regression-min-reference-windows must be >= 2, got " + minReferenceWindows);
    }
    if (referenceWindows < minReferenceWindows) {
      throw new IllegalArgumentException(
          "alert-regression-reference-windows ("
              + referenceWindows
              + ") must be >= alert-regression-min-reference-windows ("
              + minReferenceWindows
              + ")");
    }
    if (!(confidence > 0.0 && confidence < 1.0)) {
      throw new IllegalArgumentException(
          "alert-regression-confidence must be in (0, 1), got " + confidence);
    }
    if (!(minEffect >= 0.0) || Double.isInfinite(minEffect)) {
      throw new IllegalArgumentException(
          "alert-regression-min-effect must be a number >= 0, got " + minEffect);
    }
    if (!(minShiftSds >= 0.0) || Double.isInfinite(minShiftSds)) {
      throw new IllegalArgumentException(
          "alert-regression-min-shift-sds must be a number >= 0, got " + minShiftSds);
    }
    if (rebaselineWindows < 0) {
      throw new IllegalArgumentException(
          "alert-regression-rebaseline-windows must be >= 0, got " + rebaselineWindows);
    }
    positive(partitions, "alert-partitions");
  }

  /** The defaults documented in the README. */
  public static AlertConfig defaults() {
    return new AlertConfig(
        3,
        3,
        200,
        1.0,
        1.05,
        Duration.ofMinutes(5),
        Duration.ofSeconds(30),
        20,
        10,
        5,
        0.99,
        0.05,
        1.5,
        60,
        1);
  }

  /** Family-wise alpha of the regression test: 1 - confidence. */
  public double alpha() {
    return 1.0 - confidence;
  }

  private static void positive(int value, String setting) {
    if (value < 1) {
      throw new IllegalArgumentException(setting + " must be >= 1, got " + value);
    }
  }

  private static void positive(Duration value, String setting) {
    if (value == null || value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(setting + " must be positive, got " + value);
    }
  }
}
