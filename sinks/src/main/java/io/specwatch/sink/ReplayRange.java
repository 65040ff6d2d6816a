package io.specwatch.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What {@code sink replay} loads: the records whose time is in {@code [from, to)}, by event time
 * (the row's own time, {@link io.specwatch.sink.rows.RowMapping#eventTime}) or by Kafka record
 * timestamp. Which offsets are scanned follows from it ({@link #seekTimestamp}, {@link
 * #stopTimestamp}, {@link #span}); which scanned records are loaded is {@link #selects}.
 *
 * <p>By event time. On every topic the sink reads a record's Kafka timestamp is at or after its
 * event time: the shipper stamps with its clock when it sends (CreateTime, after the line was
 * written), the streams-app's result topics are LogAppendTime (appended after the window closed,
 * window end + grace, so after the window start and an alert's window start), and on a CreateTime
 * result topic Streams stamps the window end. Only clocks can break it (engine and broker clocks
 * apart, a wrong {@code --log-zone}, generated data ahead of the wall clock), so each partition
 * starts at the first record stamped at or after {@code from - maxClockSkew}: every record before
 * it has an event time before {@code from} unless it ran ahead of its stamp by more than that. The
 * end is not bounded by record time (old data shipped or recomputed later is stamped later), so
 * each partition is read up to its end offset seen at assignment, or, with {@code maxDelay}, up to
 * the first record stamped at or after {@code to + maxDelay}.
 *
 * <p>By record time: from the first record stamped at or after {@code from} up to the first stamped
 * at or after {@code to} (else the end offset), loading those stamped in the range.
 *
 * @param maxClockSkew event time: how far an event time may lie after its record timestamp (ZERO by
 *     record time)
 * @param maxDelay event time: how far a record timestamp may lie after its event time; empty = read
 *     to the end offset (always empty by record time)
 */
public record ReplayRange(
    Instant from, Instant to, By by, Duration maxClockSkew, Optional<Duration> maxDelay) {

  /** Default of {@code --max-clock-skew}. */
  public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofHours(1);

  /** Which time of a record {@code [from, to)} applies to. */
  public enum By {
    /** The row's own time, read from the value. */
    EVENT_TIME,
    /** The Kafka record timestamp (CreateTime or LogAppendTime, as the topic says). */
    RECORD_TIME;

    /** {@code event-time} or {@code record-time}, for {@code --by}. */
    public static By parse(String text) {
      String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT).replace('_', '-');
      return switch (t) {
        case "event-time" -> EVENT_TIME;
        case "record-time" -> RECORD_TIME;
        default ->
            throw new IllegalArgumentException(
                "--by: expected event-time or record-time, got '" + text + "'");
      };
    }

    /** As written on the command line. */
    public String option() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  public ReplayRange {
    Objects.requireNonNull(from, "--from is required");
    Objects.requireNonNull(to, "--to is required");
    Objects.requireNonNull(by, "--by is required");
    Objects.requireNonNull(maxClockSkew, "--max-clock-skew is required");
    Objects.requireNonNull(maxDelay, "--max-delay: null");
    if (from.isBefore(Instant.EPOCH)) {
      throw new IllegalArgumentException(
          "--from must not be before 1970-01-01T00:00:00Z (Kafka timestamps start there), got "
              + from);
    }
    if (!from.isBefore(to)) {
      throw new IllegalArgumentException("--from must be before --to, got " + from + " / " + to);
    }
    // Kafka timestamps are epoch millis in a long
    millis(from, "--from");
    millis(to, "--to");
    millis(maxClockSkew, "--max-clock-skew");
    maxDelay.ifPresent(d -> millis(d, "--max-delay"));
    if (maxClockSkew.isNegative()) {
      throw new IllegalArgumentException("--max-clock-skew must not be negative: " + maxClockSkew);
    }
    if (maxDelay.isPresent() && maxDelay.get().isNegative()) {
      throw new IllegalArgumentException("--max-delay must not be negative: " + maxDelay.get());
    }
    if (by == By.RECORD_TIME && (!maxClockSkew.isZero() || maxDelay.isPresent())) {
      throw new IllegalArgumentException(
          "--max-clock-skew and --max-delay apply to --by event-time only");
    }
  }

  /** By event time, with the default skew allowance and reading to the end offsets. */
  public static ReplayRange eventTime(Instant from, Instant to) {
    return new ReplayRange(from, to, By.EVENT_TIME, DEFAULT_MAX_CLOCK_SKEW, Optional.empty());
  }

  /** By Kafka record timestamp. */
  public static ReplayRange recordTime(Instant from, Instant to) {
    return new ReplayRange(from, to, By.RECORD_TIME, Duration.ZERO, Optional.empty());
  }

  /**
   * The timestamp each partition is sought to ({@code offsetsForTimes}): {@code from} by record
   * time, {@code from - maxClockSkew} (at least 0) by event time.
   */
  public long seekTimestamp() {
    long fromMs = from.toEpochMilli();
    if (by == By.RECORD_TIME) {
      return fromMs;
    }
    return maxClockSkew.compareTo(Duration.ofMillis(fromMs)) >= 0
        ? 0
        : fromMs - maxClockSkew.toMillis();
  }

  /**
   * The timestamp whose first record ends a partition's scan: {@code to} by record time, {@code to
   * + maxDelay} by event time with a delay bound; empty = the end offset seen at assignment.
   */
  public OptionalLong stopTimestamp() {
    long toMs = to.toEpochMilli();
    if (by == By.RECORD_TIME) {
      return OptionalLong.of(toMs);
    }
    if (maxDelay.isEmpty()) {
      return OptionalLong.empty();
    }
    Duration d = maxDelay.get();
    return d.compareTo(Duration.ofMillis(Long.MAX_VALUE - toMs)) >= 0
        ? OptionalLong.empty()
        : OptionalLong.of(toMs + d.toMillis());
  }

  /** Offsets {@code [start, stop)} one partition is read over. */
  public record Span(long start, long stop) {}

  /**
   * The span of one partition from the answers of {@code offsetsForTimes} for {@link
   * #seekTimestamp} ({@code seekOffset}, null when no record is stamped that late) and for {@link
   * #stopTimestamp} ({@code stopOffset}, null likewise or when there is no stop timestamp), and its
   * end offset at assignment.
   */
  public static Span span(Long seekOffset, Long stopOffset, long endOffset) {
    long stop = stopOffset == null ? endOffset : Math.min(stopOffset, endOffset);
    long start = seekOffset == null ? stop : Math.min(seekOffset, stop);
    return new Span(start, stop);
  }

  /**
   * Whether a scanned record is loaded: its time, event time ({@code eventTime}) or record
   * timestamp ({@code recordTimestamp}), in {@code [from, to)}. A record whose event time cannot be
   * read ({@code eventTime} null: undecodable, a tombstone) is judged by its record timestamp, so
   * its dead letter is written as by a replay by record time.
   */
  public boolean selects(long recordTimestamp, Instant eventTime) {
    if (by == By.EVENT_TIME && eventTime != null) {
      return !eventTime.isBefore(from) && eventTime.isBefore(to);
    }
    return recordTimestamp >= from.toEpochMilli() && recordTimestamp < to.toEpochMilli();
  }

  /**
   * By event time: how far {@code eventTime} lies after its record timestamp beyond {@link
   * #maxClockSkew} (positive: records like it may lie before the start offsets, unread), else 0.
   */
  public long skewExcessMillis(long recordTimestamp, Instant eventTime) {
    if (by != By.EVENT_TIME || eventTime == null) {
      return 0;
    }
    long lead = eventTime.toEpochMilli() - recordTimestamp;
    return Math.max(0, lead - maxClockSkew.toMillis());
  }

  @Override
  public String toString() {
    return "["
        + from
        + ", "
        + to
        + ") by "
        + by.option()
        + (by == By.EVENT_TIME
            ? " (max-clock-skew "
                + maxClockSkew
                + ", "
                + maxDelay.map(d -> "max-delay " + d).orElse("to the end offsets")
                + ")"
            : "");
  }

  private static long millis(Duration d, String setting) {
    try {
      return d.toMillis();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(setting + " is out of range: " + d, e);
    }
  }

  private static long millis(Instant t, String setting) {
    try {
      return t.toEpochMilli();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(setting + " is out of range: " + t, e);
    }
  }
}
