package io.specwatch.sink.dashboard;

import java.util.Locale;

/**
 * The dashboard's headline: does speculation pay on this deployment over this range? Speedup S =
 * effective / baseline tok/s; S below 1 means "speculation costs throughput" (the seeds' EAGLE-3 at
 * 60 tok/s against 82 plain), whatever tau looks like on its own.
 */
public record Verdict(Kind kind, String text) {

  /** below baseline (S &lt; 1), above (S &ge; 1) or unknown (no baseline measured). */
  public enum Kind {
    BELOW_BASELINE,
    ABOVE_BASELINE,
    UNKNOWN
  }

  static Verdict of(Double speedup, Double tau, Double tauStar, Double effective, Double baseline) {
    if (speedup == null) {
      return new Verdict(
          Kind.UNKNOWN,
          "No baseline measured: speedup unknown"
              + (tau == null ? "" : String.format(Locale.ROOT, " (\u03c4 %.2f)", tau)));
    }
    String tokS =
        effective != null && baseline != null
            ? String.format(Locale.ROOT, " (%.1f vs %.1f tok/s)", effective, baseline)
            : "";
    String taus =
        tau != null && tauStar != null
            ? String.format(
                Locale.ROOT,
                ", \u03c4 %.2f %s break-even \u03c4* %.2f",
                tau,
                tau < tauStar ? "<" : "\u2265",
                tauStar)
            : "";
    if (speedup < 1.0) {
      return new Verdict(
          Kind.BELOW_BASELINE,
          String.format(Locale.ROOT, "Speculation costs throughput: S %.2f", speedup)
              + tokS
              + taus);
    }
    return new Verdict(
        Kind.ABOVE_BASELINE,
        String.format(Locale.ROOT, "Speculation pays: S %.2f", speedup) + tokS + taus);
  }
}
