package io.specwatch.ingest.parse.vllm;

import java.time.DateTimeException;
import java.time.LocalTime;
import java.time.MonthDay;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

// Round 9 reference: VllmPrefix as it was before the round-9 hand-written scans (commit a0190fc),
// verbatim but for the class names; the VllmFastParse*Properties check the new code gives the same
// results. Not used by production code.
/**
 * Splits vLLM's logging prefix off a line: {@code INFO 06-06 14:20:34 [loggers.py:116] }, {@code
 * (APIServer pid=1) INFO 05-07 04:56:17 [metrics.py:101] } and the older {@code INFO 08-01 10:00:00
 * metrics.py:345] }. Never throws.
 */
final class ReferenceVllmPrefix {

  private static final Pattern PREFIX =
      Pattern.compile(
          "^(?:\\(([^)]{1,80})\\)\\s+)?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\\s+"
              + "(\\d{2})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})(?:[.,](\\d{1,9}))?\\s+"
              + "\\[?[\\w./-]{1,120}:\\d{1,7}\\]\\s?");

  private ReferenceVllmPrefix() {}

  /**
   * A line split into prefix and body.
   *
   * @param stamp printed time, or null without a prefix
   * @param processTag text in the leading parentheses, or null
   * @param body rest of the line (whole line without a prefix)
   * @param error why a prefix-looking start could not be read, or null
   */
  record Split(VllmStamp stamp, String processTag, String body, String error) {}

  static Split split(String line) {
    Matcher m = PREFIX.matcher(line);
    if (!m.find()) {
      return new Split(null, null, line, null);
    }
    String body = line.substring(m.end());
    try {
      MonthDay day = MonthDay.of(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
      int nanos = 0;
      if (m.group(7) != null) {
        String frac = (m.group(7) + "000000000").substring(0, 9);
        nanos = Integer.parseInt(frac);
      }
      LocalTime time =
          LocalTime.of(
              Integer.parseInt(m.group(4)),
              Integer.parseInt(m.group(5)),
              Integer.parseInt(m.group(6)),
              nanos);
      return new Split(new VllmStamp(day, time), m.group(1), body, null);
    } catch (DateTimeException | NumberFormatException e) {
      return new Split(
          null, m.group(1), body, "invalid timestamp in prefix '" + m.group().strip() + "'");
    }
  }
}
