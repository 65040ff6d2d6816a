package io.specwatch.ingest.parse;

/**
 * Plain numbers read by hand on the parsers' hot paths (SGLang and vLLM fields): the same values as
 * {@link Long#parseLong} and {@link Double#parseDouble} for the texts they accept, -1 for any other
 * text (the caller then takes its general path). {@code VllmFastParseNumberProperties} checks them
 * against the JDK's parsers.
 */
public final class PlainNumbers {

  private PlainNumbers() {}

  /** 10^0 to 10^15, each exact as a double. */
  private static final double[] POW10 = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
  };

  /**
   * The value of {@code text[from, to)} when it is a plain decimal: ASCII digits, optionally one
   * '.' with digits on both sides, at most 15 digits in all; else -1 (also when to &lt; from).
   * Equal to {@link Double#parseDouble} of that text: the digits without the '.' are an integer M
   * &lt; 10^15 &lt; 2^53 and 10^f (f fraction digits) is at most 10^15, both exact doubles, so
   * {@code M / 10^f} is the one correctly rounded double of the decimal, which parseDouble returns
   * too (its own fast path for at most 15 digits is this division).
   */
  public static double decimal(String text, int from, int to) {
    if (to <= from || to - from > 16) {
      return -1;
    }
    long m = 0;
    int dot = -1;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        m = m * 10 + (c - '0');
      } else if (c == '.' && dot < 0 && i > from && i < to - 1) {
        dot = i;
      } else {
        return -1;
      }
    }
    if (dot < 0) {
      return to - from > 15 ? -1 : (double) m;
    }
    return m / POW10[to - dot - 1];
  }

  /**
   * The value of {@code text[from, to)} when it is 1 to 18 ASCII digits (what {@link
   * Long#parseLong} reads the same and never as negative), else -1.
   */
  public static long count(String text, int from, int to) {
    if (to <= from || to - from > 18) {
      return -1;
    }
    long v = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }
}
