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
    for (int i = 0, n = line.length(); i < n; i++) {
      char c = line.charAt(i);
      if (c == '\r' || c == '\n' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
        return String.format(
            Locale.ROOT,
            "line terminator U+%04X inside the line at char %d: its field cannot be read",
            (int) c,
            i);
      }
    }
    return null;
  }
}
