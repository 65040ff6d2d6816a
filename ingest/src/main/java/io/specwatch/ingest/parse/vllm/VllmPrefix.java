package io.specwatch.ingest.parse.vllm;

import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.MonthDay;

/**
 * Splits vLLM's logging prefix off a line: {@code INFO 06-06 14:20:34 [loggers.py:116] }, {@code
 * (APIServer pid=1) INFO 05-07 04:56:17 [metrics.py:101] } and the older {@code INFO 08-01 10:00:00
 * metrics.py:345] }. Never throws.
 *
 * <p>The prefix is read by hand: what the regex {@code
 * ^(?:\(([^)]{1,80})\)\s+)?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s+(\d{2})-(\d{2})
 * (\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?\s+\[?[\w./-]{1,120}:\d{1,7}\]\s?} matched (the regex
 * was one of the largest costs of a vLLM line's parse in JFR; {@code VllmFastParsePrefixProperties}
 * checks both agree, against ReferenceVllmPrefix). The regex never backtracks into a shorter run:
 * each run ({@code [^)]}, digits, name chars) is followed by a char outside it.
 */
final class VllmPrefix {

  private VllmPrefix() {}

  /**
   * A line split into prefix and body.
   *
   * @param stamp printed time, or null without a prefix
   * @param processTag text in the leading parentheses, or null
   * @param body rest of the line (whole line without a prefix)
   * @param error why a prefix-looking start could not be read, or null
   */
  record Split(VllmStamp stamp, String processTag, String body, String error) {}

  private static final String[] LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"};

  static Split split(String line) {
    int n = line.length();
    int i = 0;
    String tag = null;
    if (n > 0 && line.charAt(0) == '(') {
      int close = line.indexOf(')', 1);
      if (close < 2 || close > 81) {
        return new Split(null, null, line, null);
      }
      int s = spaces(line, close + 1);
      if (s == close + 1) {
        return new Split(null, null, line, null);
      }
      i = s;
      tag = line.substring(1, close);
    }
    int level = level(line, i);
    if (level < 0) {
      return new Split(null, null, line, null);
    }
    i = spaces(line, level);
    if (i == level || i + 14 > n) {
      return new Split(null, null, line, null);
    }
    // dd-dd dd:dd:dd
    for (int k = 0; k < 14; k++) {
      char c = line.charAt(i + k);
      boolean ok =
          switch (k) {
            case 2 -> c == '-';
            case 5 -> c == ' ';
            case 8, 11 -> c == ':';
            default -> c >= '0' && c <= '9';
          };
      if (!ok) {
        return new Split(null, null, line, null);
      }
    }
    int stamp = i;
    int j = i + 14;
    int fracFrom = -1;
    int fracTo = -1;
    if (j < n && (line.charAt(j) == '.' || line.charAt(j) == ',')) {
      int d = digits(line, j + 1);
      if (d == j + 1 || d - (j + 1) > 9) {
        return new Split(null, null, line, null);
      }
      fracFrom = j + 1;
      fracTo = d;
      j = d;
    }
    int s = spaces(line, j);
    if (s == j) {
      return new Split(null, null, line, null);
    }
    j = s;
    if (j < n && line.charAt(j) == '[') {
      j++;
    }
    int name = j;
    while (j < n && nameChar(line.charAt(j))) {
      j++;
    }
    if (j == name || j - name > 120 || j >= n || line.charAt(j) != ':') {
      return new Split(null, null, line, null);
    }
    int d = digits(line, j + 1);
    if (d == j + 1 || d - (j + 1) > 7 || d >= n || line.charAt(d) != ']') {
      return new Split(null, null, line, null);
    }
    int end = d + 1;
    if (end < n && regexSpace(line.charAt(end))) {
      end++;
    }
    String body = line.substring(end);
    try {
      MonthDay day = MonthDay.of(two(line, stamp), two(line, stamp + 3));
      int nanos = 0;
      if (fracFrom >= 0) {
        for (int k = fracFrom; k < fracTo; k++) {
          nanos = nanos * 10 + (line.charAt(k) - '0');
        }
        for (int k = fracTo - fracFrom; k < 9; k++) {
          nanos *= 10;
        }
      }
      LocalTime time =
          LocalTime.of(two(line, stamp + 6), two(line, stamp + 9), two(line, stamp + 12), nanos);
      return new Split(new VllmStamp(day, time), tag, body, null);
    } catch (DateTimeException e) {
      return new Split(
          null, tag, body, "invalid timestamp in prefix '" + line.substring(0, end).strip() + "'");
    }
  }

  /** The end of the level word at {@code from}, or -1. */
  private static int level(String line, int from) {
    for (String level : LEVELS) {
      if (line.startsWith(level, from)) {
        return from + level.length();
      }
    }
    return -1;
  }

  /** The first index at or after {@code from} that is not regex {@code \s}. */
  private static int spaces(String line, int from) {
    int i = from;
    while (i < line.length() && regexSpace(line.charAt(i))) {
      i++;
    }
    return i;
  }

  /** The first index at or after {@code from} that is not an ASCII digit. */
  private static int digits(String line, int from) {
    int i = from;
    while (i < line.length() && line.charAt(i) >= '0' && line.charAt(i) <= '9') {
      i++;
    }
    return i;
  }

  private static int two(String line, int at) {
    return (line.charAt(at) - '0') * 10 + (line.charAt(at + 1) - '0');
  }

  /** {@code [\w./-]} of java.util.regex without UNICODE_CHARACTER_CLASS. */
  private static boolean nameChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '.'
        || c == '/'
        || c == '-';
  }

  /** {@code \s} of java.util.regex without UNICODE_CHARACTER_CLASS. */
  static boolean regexSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }
}
