package io.specwatch.sink.dashboard;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A half-open time range {@code [from, to)} in epoch seconds, parsed from request parameters given
 * as ISO-8601 instants ({@code 2026-03-14T02:00:00Z}) or epoch seconds.
 */
public record TimeRange(long fromEpochSecond, long toEpochSecond) {

  public TimeRange {
    if (fromEpochSecond >= toEpochSecond) {
      throw new BadRequest(
          "from must be before to, got from="
              + Instant.ofEpochSecond(fromEpochSecond)
              + " to="
              + Instant.ofEpochSecond(toEpochSecond));
    }
    if (fromEpochSecond < 0 || toEpochSecond > 4_294_967_295L) {
      throw new BadRequest("from/to must lie within 1970..2106 (ClickHouse DateTime)");
    }
  }

  /** Parses {@code from} and {@code to}; a missing bound is 1970 or the DateTime maximum. */
  public static TimeRange parse(String from, String to) {
    long f = from == null || from.isBlank() ? 0 : epochSecond("from", from);
    long t = to == null || to.isBlank() ? 4_294_967_295L : epochSecond("to", to);
    return new TimeRange(f, t);
  }

  static long epochSecond(String name, String value) {
    String v = value.strip();
    if (v.chars().allMatch(Character::isDigit) && v.length() <= 10) {
      return Long.parseLong(v);
    }
    try {
      return Instant.parse(v).getEpochSecond();
    } catch (DateTimeParseException e) {
      throw new BadRequest(
          name + " must be an ISO-8601 instant (2026-03-14T02:00:00Z) or epoch seconds, got: " + v);
    }
  }

  /** The ClickHouse condition on a DateTime column; numbers only, so nothing can be injected. */
  String condition(String column) {
    return column
        + " >= toDateTime("
        + fromEpochSecond
        + ") AND "
        + column
        + " < toDateTime("
        + toEpochSecond
        + ")";
  }
}
