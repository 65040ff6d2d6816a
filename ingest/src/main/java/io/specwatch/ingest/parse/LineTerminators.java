package io.specwatch.ingest.parse;

import java.util.Locale;

/**
 * Line terminators inside a line. The file splitter breaks lines at LF only, so a CR that is not
 * the line's last char and the UTF-8 of NEL ({@code C2 85} = U+0085), LINE SEPARATOR ({@code E2 80
 * A8} = U+2028) and PARAGRAPH SEPARATOR (U+2029) stay inside a line, where they only come from a
 * corrupted or binary line: a field holding one no longer reads as printed (a regex {@code .} stops
 * at it, {@code strip()} removes U+2028/9 but not NEL), so such a line is dead-lettered instead of
 * becoming an event with a field silently absent or misread.
 */
public final class LineTerminators {

  private LineTerminators() {}

  /**
   * The dead-letter reason for the first line terminator in {@code line} (CR, LF, NEL, U+2028,
   * U+2029), naming the character and its index, or null when there is none.
   */
  public static String reason(String line) {
    // String.indexOf scans the line's bytes (intrinsic under C2); a Latin-1 line cannot hold
    // U+2028/9, for which indexOf returns at once without a scan
    int at = first(-1, line.indexOf('\r'));
    at = first(at, line.indexOf('\n'));
    at = first(at, line.indexOf('\u0085'));
    at = first(at, line.indexOf('\u2028'));
    at = first(at, line.indexOf('\u2029'));
    if (at < 0) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "line terminator U+%04X inside the line at char %d: its field cannot be read",
        (int) line.charAt(at),
        at);
  }

  /** The smaller of two indexes of which -1 means none. */
  private static int first(int a, int b) {
    if (a < 0) {
      return b;
    }
    return b < 0 ? a : Math.min(a, b);
  }
}
