package io.specwatch.ingest.parse;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the engine log prefix {@code [2025-03-14 02:16:14 DP3 TP3] }, {@code [2026-04-05 20:02:51]
 * } or none. Shared by every parser of bracketed-prefix engines.
 */
public final class PrefixParser {

  private static final Pattern PREFIX =
      Pattern.compile(
          "^\\[(\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,9})?)"
              + "((?: [A-Z]{2}\\d{1,6})*)\\]\\s?");
  private static final Pattern TAG = Pattern.compile("([A-Z]{2})(\\d{1,6})");
  static final DateTimeFormatter TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd")
          .optionalStart()
          .appendLiteral(' ')
          .optionalEnd()
          .optionalStart()
          .appendLiteral('T')
          .optionalEnd()
          .appendPattern("HH:mm:ss")
          .optionalStart()
          .appendLiteral('.')
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, false)
          .optionalEnd()
          .optionalStart()
          .appendLiteral(',')
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, false)
          .optionalEnd()
          .toFormatter();

  private PrefixParser() {}

  /**
   * A line split into its prefix and the rest.
   *
   * @param prefix parsed prefix ({@link LinePrefix#NONE} when absent)
   * @param body text after the prefix (the whole line when absent)
   * @param error why a prefix-looking start could not be read, or null
   */
  public record Split(LinePrefix prefix, String body, String error) {}

  /**
   * The prefix time: the common case (every field in its plain range) read by hand, anything else
   * (day 29-31, hour 24, year 0...) by the formatter, whose SMART resolution decides those. Same
   * results as {@code LocalDateTime.parse(text, TIME)}; the formatter was ~8 % of the shipper's
   * CPU. {@code text} matched {@code \\d{4}-\\d{2}-\\d{2}[
   * T]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,9})?}.
   */
  static LocalDateTime parseTime(String text) {
    if (text.length() >= 19 && allDigits(text)) {
      int year = num(text, 0, 4);
      int month = num(text, 5, 7);
      int day = num(text, 8, 10);
      int hour = num(text, 11, 13);
      int minute = num(text, 14, 16);
      int second = num(text, 17, 19);
      if (year >= 1
          && month >= 1
          && month <= 12
          && day >= 1
          && day <= 28
          && hour <= 23
          && minute <= 59
          && second <= 59) {
        int nanos = 0;
        if (text.length() > 20) {
          int digits = text.length() - 20;
          nanos = num(text, 20, text.length());
          for (int i = digits; i < 9; i++) {
            nanos *= 10;
          }
        }
        return LocalDateTime.of(year, month, day, hour, minute, second, nanos);
      }
    }
    return LocalDateTime.parse(text, TIME);
  }

  /** Whether every position that must hold a digit does (ASCII 0-9 only). */
  private static boolean allDigits(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (i == 4 || i == 7 || i == 10 || i == 13 || i == 16 || i == 19) {
        continue;
      }
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static int num(String text, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      v = v * 10 + (text.charAt(i) - '0');
    }
    return v;
  }

  /** Splits a line; never throws. */
  public static Split split(String line) {
    int[] m = match(line);
    if (m == null) {
      return new Split(LinePrefix.NONE, line, null);
    }
    String body = line.substring(m[3]);
    String timeText = line.substring(1, m[0]);
    LocalDateTime time;
    try {
      time = parseTime(timeText);
    } catch (DateTimeParseException e) {
      return new Split(LinePrefix.NONE, body, "invalid timestamp '" + timeText + "'");
    }
    if (m[1] == m[2]) {
      return new Split(new LinePrefix(time, null, null, null, null), body, null);
    }
    // m[1] is the space before the first tag; each tag is [A-Z]{2}\d{1,6}, one space apart
    String tags = line.substring(m[1] + 1, m[2]);
    Integer tp = null;
    Integer dp = null;
    Integer ep = null;
    for (int i = m[1] + 1; i < m[2]; ) {
      char a = line.charAt(i);
      char b = line.charAt(i + 1);
      int end = i + 2;
      int value = 0;
      while (end < m[2] && line.charAt(end) != ' ') {
        value = value * 10 + (line.charAt(end) - '0');
        end++;
      }
      if (a == 'T' && b == 'P') {
        tp = value;
      } else if (a == 'D' && b == 'P') {
        dp = value;
      } else if (a == 'E' && b == 'P') {
        ep = value;
      } // PP and other tags stay in the rank text only
      i = end + 1;
    }
    return new Split(new LinePrefix(time, tags, tp, dp, ep), body, null);
  }

  /**
   * The former regex {@code ^\\[(\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,9})?)((?:
   * [A-Z]{2}\\d{1,6})*)\\]\\s?} read by hand (the regex was ~4 % of the shipper's CPU; {@code
   * PrefixSplitProperties} checks both agree): null when it does not match, else {end of the time
   * text, start and end of the tag group, start of the body}. The regex never needs to backtrack
   * into a shorter fraction or tag: what follows each is a space or a bracket, never a digit.
   */
  static int[] match(String line) {
    int n = line.length();
    if (n < 21 || line.charAt(0) != '[') {
      return null;
    }
    for (int i = 1; i < 20; i++) {
      char c = line.charAt(i);
      boolean ok =
          switch (i) {
            case 5, 8 -> c == '-';
            case 11 -> c == ' ' || c == 'T';
            case 14, 17 -> c == ':';
            default -> c >= '0' && c <= '9';
          };
      if (!ok) {
        return null;
      }
    }
    int i = 20;
    if (i < n && (line.charAt(i) == '.' || line.charAt(i) == ',')) {
      int digits = digits(line, i + 1, 9);
      if (digits == 0) {
        return null;
      }
      i += 1 + digits;
    }
    int timeEnd = i;
    while (i + 3 < n
        && line.charAt(i) == ' '
        && upper(line.charAt(i + 1))
        && upper(line.charAt(i + 2))) {
      int digits = digits(line, i + 3, 6);
      if (digits == 0) {
        break;
      }
      i += 3 + digits;
    }
    if (i >= n || line.charAt(i) != ']') {
      return null;
    }
    int body = i + 1;
    if (body < n && isRegexSpace(line.charAt(body))) {
      body++;
    }
    return new int[] {timeEnd, timeEnd, i, body};
  }

  /** ASCII digits at from, at most max of them; more than max is no match (0). */
  private static int digits(String line, int from, int max) {
    int i = from;
    while (i < line.length() && i - from <= max) {
      char c = line.charAt(i);
      if (c < '0' || c > '9') {
        break;
      }
      i++;
    }
    int count = i - from;
    return count > max ? 0 : count;
  }

  private static boolean upper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  /** {@code \\s} of java.util.regex without UNICODE_CHARACTER_CLASS. */
  private static boolean isRegexSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }

  /** The former regex split, kept for {@code PrefixSplitProperties}. */
  static Split regexSplit(String line) {
    Matcher m = PREFIX.matcher(line);
    if (!m.find()) {
      return new Split(LinePrefix.NONE, line, null);
    }
    String body = line.substring(m.end());
    LocalDateTime time;
    try {
      time = parseTime(m.group(1));
    } catch (DateTimeParseException e) {
      return new Split(LinePrefix.NONE, body, "invalid timestamp '" + m.group(1) + "'");
    }
    String tags = m.group(2).trim();
    Integer tp = null;
    Integer dp = null;
    Integer ep = null;
    Matcher t = TAG.matcher(tags);
    while (t.find()) {
      int value = Integer.parseInt(t.group(2));
      switch (t.group(1)) {
        case "TP" -> tp = value;
        case "DP" -> dp = value;
        case "EP" -> ep = value;
        default -> {
          // PP and other tags stay in the rank text only
        }
      }
    }
    return new Split(new LinePrefix(time, tags.isEmpty() ? null : tags, tp, dp, ep), body, null);
  }
}
