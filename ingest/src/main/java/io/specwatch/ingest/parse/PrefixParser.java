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
  private static final DateTimeFormatter TIME =
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

  /** Splits a line; never throws. */
  public static Split split(String line) {
    Matcher m = PREFIX.matcher(line);
    if (!m.find()) {
      return new Split(LinePrefix.NONE, line, null);
    }
    String body = line.substring(m.end());
    LocalDateTime time;
    try {
      time = LocalDateTime.parse(m.group(1), TIME);
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
