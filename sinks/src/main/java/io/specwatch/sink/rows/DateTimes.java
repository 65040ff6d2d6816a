package io.specwatch.sink.rows;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** DateTime('UTC') columns hold whole seconds from 1970-01-01 to 2106-02-07 (UInt32). */
final class DateTimes {

  static final long MAX_EPOCH_SECONDS = 0xFFFF_FFFFL;

  private static final DateTimeFormatter TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private static final DateTimeFormatter TEXT_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  private DateTimes() {}

  /** {@code yyyy-MM-dd HH:mm:ss.SSS} in UTC (DateTime64(3) text), range-checked. */
  static String textMillis(String column, Instant value) {
    epochSeconds(column, value);
    return TEXT_MILLIS.format(value);
  }

  /**
   * Seconds since the epoch, or {@link RowMappingException} naming the column when out of range.
   */
  static long epochSeconds(String column, Instant value) {
    if (value == null) {
      throw new RowMappingException(column + " is null");
    }
    long s = value.getEpochSecond();
    if (s < 0 || s > MAX_EPOCH_SECONDS) {
      throw new RowMappingException(
          column + " " + value + " is outside the DateTime range 1970-01-01..2106-02-07");
    }
    return s;
  }

  /** {@code yyyy-MM-dd HH:mm:ss} in UTC, range-checked like {@link #epochSeconds}. */
  static String text(String column, Instant value) {
    epochSeconds(column, value);
    return TEXT.format(value);
  }
}
