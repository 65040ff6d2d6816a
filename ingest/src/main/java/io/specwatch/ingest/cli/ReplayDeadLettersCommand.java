package io.specwatch.ingest.cli;

import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.replay.DeadLetterReplayer;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.runtime.KafkaOptions;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code replay-dead-letters}: re-ingest the ingest dead letters with the current parsers. */
@Command(
    name = "replay-dead-letters",
    mixinStandardHelpOptions = true,
    description =
        "Re-parse the ingest dead letters of the dead-letter topic with the current parsers and"
            + " normalisation and publish what now parses (same event ids) to the decode-events /"
            + " request topics; reads up to the end offsets at start, commits its progress in its"
            + " consumer group and prints a summary. Exit codes: 0 done, 2 bad setting or delivery"
            + " failure.")
final class ReplayDeadLettersCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin KafkaOptions kafka;

  @Mixin ShipTargetOptions target;

  @Mixin NormaliseOptions normalise;

  @Option(
      names = "--from-beginning",
      description =
          "Every dead letter in the topic (default: from the group's committed position).")
  boolean fromBeginning;

  @Option(
      names = "--since",
      description =
          "Dead letters written at or after this ISO-8601 instant, e.g. 2026-03-14T09:00:00Z.")
  String since;

  @Option(
      names = "--group-id",
      defaultValue = "${env:SPECWATCH_DLQ_REPLAY_GROUP_ID:-specwatch-dlq-replay}",
      description =
          "Consumer group holding the replay's progress (env SPECWATCH_DLQ_REPLAY_GROUP_ID,"
              + " default ${DEFAULT-VALUE}).")
  String groupId;

  @Option(
      names = "--dead-letter-again",
      description =
          "Publish lines that still fail as new dead letters (context replayOf); default: count"
              + " them only (the original stays in the topic).")
  boolean deadLetterAgain;

  @Override
  public Integer call() {
    if (fromBeginning && since != null) {
      throw new IllegalArgumentException(
          "settings 'from-beginning' and 'since' exclude each other");
    }
    DeadLetterReplayer.Start start;
    if (fromBeginning) {
      start = new DeadLetterReplayer.Beginning();
    } else if (since != null) {
      try {
        start = new DeadLetterReplayer.Since(Instant.parse(since));
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "setting 'since': not an ISO-8601 instant: '" + since + "'", e);
      }
    } else {
      start = new DeadLetterReplayer.Committed();
    }
    if (target.deployment == null || target.deployment.isBlank()) {
      // each dead letter names its own deployment; this is only the fallback
      target.deployment = "unknown";
    }
    ShipConfig config = target.toShipConfig(kafka, normalise.toConfig());
    DeadLetterReplayer.Result r =
        new DeadLetterReplayer(
                config, groupId, ParserRegistry.defaults(), deadLetterAgain, Clock.systemUTC())
            .replay(start);
    spec.commandLine()
        .getOut()
        .printf(
            "replayed %s: read=%d replayed=%d events=%d requests=%d still-failing=%d"
                + " other-stage=%d nothing-to-publish=%d%n",
            config.dlqTopic(),
            r.read(),
            r.replayed(),
            r.events(),
            r.requests(),
            r.stillFailing(),
            r.otherStage(),
            r.nothingToPublish());
    return 0;
  }
}
