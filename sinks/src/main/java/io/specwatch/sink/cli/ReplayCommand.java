package io.specwatch.sink.cli;

import io.specwatch.runtime.Durations;
import io.specwatch.sink.ReplayRange;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code replay}: loads the rows of a time range again through the sink's own idempotent insert
 * path, in a consumer group of its own, and exits at the end of the scan. The range applies to each
 * row's event time by default ({@link ReplayRange}).
 */
@Command(
    name = "replay",
    description =
        "Load the rows whose event time (window start, decode event time, request finish, alert"
            + " window start, context observed) is in [--from, --to) again into ClickHouse (same"
            + " insert path, idempotent tables), in the consumer group <group-id>-replay, then"
            + " exit. Takes every option of 'run'.")
public final class ReplayCommand extends RunCommand {

  @Option(
      names = "--from",
      required = true,
      description = "Start of the range, ISO-8601 instant (inclusive), e.g. 2026-03-14T09:00:00Z.")
  String from;

  @Option(
      names = "--to",
      required = true,
      description = "End of the range, ISO-8601 instant (exclusive).")
  String to;

  @Option(
      names = "--by",
      defaultValue = "event-time",
      description =
          "event-time: the row's own time (default); record-time: the Kafka record timestamp"
              + " (append time on LogAppendTime topics, the producer's time on CreateTime ones).")
  String by;

  @Option(
      names = "--max-clock-skew",
      converter = Durations.Converter.class,
      description =
          "event-time: how far a row's event time may lie after its Kafka timestamp (clocks);"
              + " each partition is read from the first record stamped at or after --from minus"
              + " this. Default PT1H.")
  Duration maxClockSkew;

  @Option(
      names = "--max-delay",
      converter = Durations.Converter.class,
      description =
          "event-time: how far a row's Kafka timestamp may lie after its event time; each"
              + " partition is read up to the first record stamped at or after --to plus this."
              + " Default: up to the end offset seen at assignment (complete).")
  Duration maxDelay;

  @Override
  String effectiveGroupId() {
    // never the live sink's group: its committed offsets must not move
    return super.effectiveGroupId() + "-replay";
  }

  @Override
  ReplayRange replayRange() {
    Instant start = instant(from, "--from");
    Instant end = instant(to, "--to");
    ReplayRange.By mode = ReplayRange.By.parse(by);
    if (mode == ReplayRange.By.RECORD_TIME) {
      if (maxClockSkew != null) {
        throw new IllegalArgumentException("--max-clock-skew applies to --by event-time only");
      }
      if (maxDelay != null) {
        throw new IllegalArgumentException("--max-delay applies to --by event-time only");
      }
      return ReplayRange.recordTime(start, end);
    }
    return new ReplayRange(
        start,
        end,
        mode,
        maxClockSkew == null ? ReplayRange.DEFAULT_MAX_CLOCK_SKEW : maxClockSkew,
        Optional.ofNullable(maxDelay));
  }

  private static Instant instant(String value, String setting) {
    try {
      return Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          setting + ": not an ISO-8601 instant (e.g. 2026-03-14T09:00:00Z): '" + value + "'", e);
    }
  }
}
