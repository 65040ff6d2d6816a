package io.specwatch.streams.alert;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * Welch's two-sample t-test (unequal variances) of a recent sample against a reference sample.
 *
 * <p>t = (mean_recent - mean_ref) / sqrt(var_recent/n_recent + var_ref/n_ref) with sample variances
 * (n-1), Welch-Satterthwaite degrees of freedom, two-sided p from Student's t (commons-math3). When
 * both variances are 0 the test degenerates: p = 0 if the means differ (t = +-infinity), 1 if not.
 *
 * @param referenceMean mean of the reference sample
 * @param referenceSd sample standard deviation of the reference
 * @param referenceN size of the reference
 * @param recentMean mean of the recent sample
 * @param recentSd sample standard deviation of the recent sample
 * @param recentN size of the recent sample
 * @param t t statistic (positive when the recent mean is higher)
 * @param df Welch-Satterthwaite degrees of freedom (NaN when both variances are 0)
 * @param p two-sided p-value
 */
public record WelchTest(
    double referenceMean,
    double referenceSd,
    long referenceN,
    double recentMean,
    double recentSd,
    long recentN,
    double t,
    double df,
    double p) {

  /** Tests {@code recent} against {@code reference}; each needs at least two values. */
  public static WelchTest of(double[] reference, double[] recent) {
    if (reference.length < 2 || recent.length < 2) {
      throw new IllegalArgumentException(
          "Welch's test needs two values per sample, got "
              + reference.length
              + " and "
              + recent.length);
    }
    SummaryStatistics ref = stats(reference);
    SummaryStatistics rec = stats(recent);
    double vRef = ref.getVariance() / ref.getN();
    double vRec = rec.getVariance() / rec.getN();
    double diff = rec.getMean() - ref.getMean();
    double se2 = vRef + vRec;
    double t;
    double df;
    double p;
    if (se2 == 0.0) {
      t = diff == 0.0 ? 0.0 : Math.copySign(Double.POSITIVE_INFINITY, diff);
      df = Double.NaN;
      p = diff == 0.0 ? 1.0 : 0.0;
    } else {
      t = diff / Math.sqrt(se2);
      df = se2 * se2 / (vRef * vRef / (ref.getN() - 1) + vRec * vRec / (rec.getN() - 1));
      p = 2.0 * new TDistribution(null, df).cumulativeProbability(-Math.abs(t));
      p = Math.min(1.0, p);
    }
    return new WelchTest(
        ref.getMean(),
        ref.getStandardDeviation(),
        ref.getN(),
        rec.getMean(),
        rec.getStandardDeviation(),
        rec.getN(),
        t,
        df,
        p);
  }

  /** (recent - reference) / |reference|; infinite when the reference mean is 0. */
  public double relativeEffect() {
    return (recentMean - referenceMean) / Math.abs(referenceMean);
  }

  private static SummaryStatistics stats(double[] values) {
    SummaryStatistics s = new SummaryStatistics();
    for (double v : values) {
      s.addValue(v);
    }
    return s;
  }
}
