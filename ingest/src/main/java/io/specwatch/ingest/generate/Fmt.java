package io.specwatch.ingest.generate;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Number and time formatting of the generated lines (Locale.ROOT, UTC). */
final class Fmt {

  private static final DateTimeFormatter SGLANG =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter SGLANG_MS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter VLLM =
      DateTimeFormatter.ofPattern("MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter TRTLLM =
      DateTimeFormatter.ofPattern("MM-dd-yyyy HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter ISO_MS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Fmt() {}

  private static final long[] POW10 = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000};

  /**
   * {@code v} with {@code decimals} decimals, half-up (like {@code %.Nf} but without the Formatter:
   * the generator prints millions of numbers).
   */
  static String f(int decimals, double v) {
    if (!Double.isFinite(v) || Math.abs(v) >= 1e12 || decimals >= POW10.length) {
      return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
    long scaled = Math.round(Math.abs(v) * POW10[decimals]);
    String digits = Long.toString(scaled);
    StringBuilder sb = new StringBuilder(digits.length() + 3);
    if (v < 0 && scaled != 0) {
      sb.append('-');
    }
    if (decimals == 0) {
      return sb.append(digits).toString();
    }
    if (digits.length() <= decimals) {
      sb.append("0.");
      for (int i = digits.length(); i < decimals; i++) {
        sb.append('0');
      }
      return sb.append(digits).toString();
    }
    int point = digits.length() - decimals;
    return sb.append(digits, 0, point)
        .append('.')
        .append(digits, point, digits.length())
        .toString();
  }

  static String f2(double v) {
    return f(2, v);
  }

  /** {@code [2026-11-30 17:00:00 TP0] } (seconds resolution, as SGLang prints). */
  static String sglangPrefix(Instant t, String rank) {
    return "[" + SGLANG.format(t) + (rank == null ? "" : " " + rank) + "] ";
  }

  /** {@code [2026-11-30 17:00:00.123 TP0] }. */
  static String sglangPrefixMs(Instant t, String rank) {
    return "[" + SGLANG_MS.format(t) + (rank == null ? "" : " " + rank) + "] ";
  }

  /** {@code INFO 11-30 17:00:00 [loggers.py:116] }. */
  static String vllmPrefix(Instant t, String logger) {
    return "INFO " + VLLM.format(t) + " [" + logger + "] ";
  }

  /** The older v0 form {@code INFO 11-30 17:00:00 metrics.py:345] }. */
  static String vllmV0Prefix(Instant t, String logger) {
    return "INFO " + VLLM.format(t) + " " + logger + "] ";
  }

  static String trtllmTime(Instant t) {
    return TRTLLM.format(t);
  }

  static String iso(Instant t) {
    return ISO_MS.format(t);
  }

  /** A JSON string literal (the generated text never holds control characters). */
  static String q(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static String longs(long[] values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      sb.append(i == 0 ? "" : ",").append(values[i]);
    }
    return sb.append(']').toString();
  }
}
