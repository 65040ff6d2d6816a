package io.specwatch.sink.cli;

import io.specwatch.sink.ReplayRange;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code replay}: loads the records of a Kafka record-time range again through the sink's own
 * idempotent insert path, in a consumer group of its own, and exits at the range's end.
 */
@Command(
    name = "replay",
    description =
        "Load the records whose Kafka timestamp is in [--from, --to) again into ClickHouse (same"
            + " insert path, idempotent tables), in the consumer group <group-id>-replay, then exit."
            + " Takes every option of 'run'.")
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

  @Override
  String effectiveGroupId() {
    // never the live sink's group: its committed offsets must not move
    return super.effectiveGroupId() + "-replay";
  }

  @Override
  ReplayRange replayRange() {
    return new ReplayRange(instant(from, "--from"), instant(to, "--to"));
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
