package io.specwatch.streams;

import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.Durations;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.runtime.KafkaOptions;
import io.specwatch.serde.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** CLI of the streams app: {@code run} starts the topology until SIGTERM, failure or idle. */
@Command(
    name = "specwatch-streams",
    mixinStandardHelpOptions = true,
    subcommands = {Main.Run.class, Main.Reset.class},
    description = "Kafka Streams app: decode events -> per-deployment window results.")
public final class Main implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Main.class);

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  public static void main(String[] args) {
    // Kafka Streams 4.4 String.formats a readiness message per record for every empty partition of
    // a task (PartitionGroup.readyToProcess; the run-context partitions are nearly always empty);
    // with a FORMAT locale other than en_US every %d looks up DecimalFormatSymbols, half of that
    // cost. Our own formats name Locale.ROOT; this only changes Kafka's and the logs' formatting.
    Locale.setDefault(Locale.Category.FORMAT, Locale.US);
    System.exit(new CommandLine(new Main()).execute(args));
  }

  /** {@code run}: options also read from SPECWATCH_* environment variables. */
  @Command(name = "run", mixinStandardHelpOptions = true, description = "Run the topology.")
  static final class Run implements Callable<Integer> {
    @Mixin KafkaOptions kafka = new KafkaOptions();

    @Mixin HealthOptions health = new HealthOptions();

    @Option(
        names = "--application-id",
        defaultValue = "${env:SPECWATCH_STREAMS_APPLICATION_ID:-specwatch-streams}",
        description =
            "application.id (env SPECWATCH_STREAMS_APPLICATION_ID). Default: ${DEFAULT-VALUE}")
    String applicationId;

    @Option(
        names = "--state-dir",
        defaultValue = "${env:SPECWATCH_STREAMS_STATE_DIR:-.run/streams-state}",
        description =
            "State directory (env SPECWATCH_STREAMS_STATE_DIR). Default: ${DEFAULT-VALUE}")
    Path stateDir;

    @Option(
        names = "--window",
        defaultValue = "${env:SPECWATCH_WINDOW:-1m}",
        converter = Durations.Converter.class,
        description = "Tumbling window size (env SPECWATCH_WINDOW). Default: ${DEFAULT-VALUE}")
    Duration window;

    @Option(
        names = "--grace",
        defaultValue = "${env:SPECWATCH_GRACE:-30s}",
        converter = Durations.Converter.class,
        description = "Window grace (env SPECWATCH_GRACE). Default: ${DEFAULT-VALUE}")
    Duration grace;

    @Option(
        names = "--dedup-retention",
        defaultValue = "${env:SPECWATCH_DEDUP_RETENTION}",
        converter = Durations.Converter.class,
        description =
            "How long (event time) after its window's end a window remembers the event ids it"
                + " counted: an event with an id seen before (a line the shipper re-sent after a"
                + " crash) is dropped and counted in duplicate-events-total. At least window +"
                + " grace, 0 switches it off"
                + " (env SPECWATCH_DEDUP_RETENTION). Default: 10m, or window + grace if longer")
    Duration dedupRetention;

    @Option(
        names = "--max-event-ahead",
        defaultValue = "${env:SPECWATCH_MAX_EVENT_AHEAD}",
        converter = Durations.Converter.class,
        description =
            "How far an event's time may lie ahead of its ingest time (when the shipper read the"
                + " line). A later event (a wrong --log-zone on a shipper, a clock set ahead) is"
                + " dead-lettered and does not move stream time, which would close every open"
                + " window of its partition early. 0 switches the check off"
                + " (env SPECWATCH_MAX_EVENT_AHEAD). Default: 15m")
    Duration maxEventAhead;

    @Option(
        names = "--decode-events-topic",
        defaultValue = "${env:SPECWATCH_TOPIC_DECODE_EVENTS:-" + Topics.DECODE_EVENTS + "}",
        description = "Input topic (env SPECWATCH_TOPIC_DECODE_EVENTS). Default: ${DEFAULT-VALUE}")
    String decodeEventsTopic;

    @Option(
        names = "--window-results-topic",
        defaultValue = "${env:SPECWATCH_TOPIC_WINDOW_RESULTS:-" + Topics.WINDOW_RESULTS + "}",
        description =
            "Output topic (env SPECWATCH_TOPIC_WINDOW_RESULTS). Default: ${DEFAULT-VALUE}")
    String windowResultsTopic;

    @Option(
        names = "--run-context-topic",
        defaultValue = "${env:SPECWATCH_TOPIC_RUN_CONTEXT:-" + Topics.RUN_CONTEXT + "}",
        description =
            "Run-context topic, compacted, as many partitions as the input"
                + " (env SPECWATCH_TOPIC_RUN_CONTEXT). Default: ${DEFAULT-VALUE}")
    String runContextTopic;

    @Option(
        names = "--dead-letter-topic",
        defaultValue = "${env:SPECWATCH_DLQ_TOPIC:-" + Topics.DEAD_LETTER + "}",
        description =
            "Dead-letter topic of undecodable / failing records (env SPECWATCH_DLQ_TOPIC)."
                + " Default: ${DEFAULT-VALUE}")
    String deadLetterTopic;

    @Option(
        names = "--alerts-topic",
        defaultValue = "${env:SPECWATCH_TOPIC_ALERTS:-" + Topics.ALERTS + "}",
        description = "Alerts output topic (env SPECWATCH_TOPIC_ALERTS). Default: ${DEFAULT-VALUE}")
    String alertsTopic;

    @Mixin AlertOptions alertOptions = new AlertOptions();

    @Option(
        names = "--static-baseline",
        split = ",",
        defaultValue = "${env:SPECWATCH_STATIC_BASELINES}",
        description =
            "Configured t_AR: 'model|hardwareClass|tp|bucket=stepMs' (bucket 1, 2-4, ..., 129+"
                + " or * for any), repeatable or comma separated (env SPECWATCH_STATIC_BASELINES)."
                + " Learned baselines win when fresh.")
    List<String> staticBaselines;

    @Option(
        names = "--baseline-max-age",
        defaultValue = "${env:SPECWATCH_BASELINE_MAX_AGE:-1h}",
        converter = Durations.Converter.class,
        description =
            "A learned baseline applies to speculative windows starting up to this long after its"
                + " own window (env SPECWATCH_BASELINE_MAX_AGE). Default: ${DEFAULT-VALUE}")
    Duration baselineMaxAge;

    @Option(
        names = "--exit-when-idle",
        defaultValue = "${env:SPECWATCH_EXIT_WHEN_IDLE}",
        converter = Durations.Converter.class,
        description =
            "Exit 0 after no input for this long while running (env SPECWATCH_EXIT_WHEN_IDLE)."
                + " Default: run until SIGTERM.")
    Duration exitWhenIdle;

    @Option(
        names = "--create-topics",
        negatable = true,
        defaultValue = "${env:SPECWATCH_CREATE_TOPICS:-true}",
        fallbackValue = "true",
        description =
            "Create missing input/output topics before starting (env SPECWATCH_CREATE_TOPICS)."
                + " Default: ${DEFAULT-VALUE}")
    boolean createTopics;

    @Option(
        names = "--topic-partitions",
        defaultValue = "${env:SPECWATCH_TOPIC_PARTITIONS:-1}",
        description = "Partitions of topics created by --create-topics. Default: ${DEFAULT-VALUE}")
    int topicPartitions;

    @Override
    public Integer call() throws Exception {
      StreamsAppConfig config;
      try {
        config = config();
        health.validate();
      } catch (IllegalArgumentException e) {
        LOG.error("invalid configuration: {}", e.getMessage());
        return 2;
      }
      if (createTopics) {
        TopicBootstrap.ensureTopics(config, topicPartitions);
      }
      try {
        TopicBootstrap.requireCopartitioned(config);
      } catch (IllegalStateException e) {
        LOG.error("invalid topics: {}", e.getMessage());
        return 2;
      }
      AppRuntime runtime;
      try {
        runtime = AppRuntime.start("streams-app", health);
      } catch (IllegalStateException e) {
        LOG.error("cannot serve health endpoints: {}", e.getMessage());
        return 2;
      }
      try (AppRuntime app = runtime) {
        StreamsRunner runner;
        try {
          runner = StreamsRunner.start(config, app.readiness(), app.registry());
        } catch (IllegalStateException e) {
          LOG.error("cannot start: {}", e.getMessage());
          return 2;
        }
        CountDownLatch exited = new CountDownLatch(1);
        Thread hook =
            new Thread(
                () -> {
                  runner.requestStop();
                  try {
                    exited.await(60, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "specwatch-streams-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
          return runner.awaitExit(Optional.ofNullable(exitWhenIdle));
        } finally {
          exited.countDown();
        }
      }
    }

    /** The validated config; IllegalArgumentException naming the setting when invalid. */
    StreamsAppConfig config() {
      return new StreamsAppConfig(
          kafka.bootstrap(),
          kafka.registryUrl(),
          applicationId,
          stateDir,
          window,
          grace,
          decodeEventsTopic,
          runContextTopic,
          windowResultsTopic,
          deadLetterTopic,
          StaticBaselines.parse(staticBaselines),
          baselineMaxAge,
          kafka.rawProperties(),
          alertsTopic,
          alertOptions.config(),
          dedupRetention,
          maxEventAhead);
    }
  }

  /** {@code reset}: offsets to the start (or a time), internal topics and local state removed. */
  @Command(
      name = "reset",
      mixinStandardHelpOptions = true,
      description =
          "Reset the app for reprocessing: stop every instance first. Moves the group's input"
              + " offsets to the earliest (or --to-datetime), deletes the internal changelog and"
              + " repartition topics and the local state. Exit codes: 0 done, 2 bad setting or"
              + " instances still running.")
  static final class Reset implements Callable<Integer> {
    @Mixin KafkaOptions kafka = new KafkaOptions();

    @Option(
        names = "--application-id",
        defaultValue = "${env:SPECWATCH_STREAMS_APPLICATION_ID:-specwatch-streams}",
        description =
            "application.id (env SPECWATCH_STREAMS_APPLICATION_ID). Default: ${DEFAULT-VALUE}")
    String applicationId;

    @Option(
        names = "--state-dir",
        defaultValue = "${env:SPECWATCH_STREAMS_STATE_DIR:-.run/streams-state}",
        description =
            "State directory of this host's instance (env SPECWATCH_STREAMS_STATE_DIR)."
                + " Default: ${DEFAULT-VALUE}")
    Path stateDir;

    @Option(
        names = "--input-topics",
        split = ",",
        defaultValue = Topics.DECODE_EVENTS + "," + Topics.RUN_CONTEXT,
        description = "Source topics of the topology. Default: ${DEFAULT-VALUE}")
    List<String> inputTopics;

    @Option(
        names = "--table-topics",
        split = ",",
        defaultValue = Topics.RUN_CONTEXT,
        description =
            "Those of the input topics read into a table (run contexts): always reset to the"
                + " earliest offset, also with --to-datetime. Default: ${DEFAULT-VALUE}")
    Set<String> tableTopics;

    @Option(
        names = "--to-datetime",
        description = "Reprocess from this ISO-8601 instant instead of the earliest offsets.")
    String toDatetime;

    @Option(
        names = "--wait-for-members",
        defaultValue = "60s",
        converter = Durations.Converter.class,
        description =
            "How long to wait for the members of stopped instances to expire (session.timeout.ms,"
                + " 45 s by default) before refusing. Default: ${DEFAULT-VALUE}")
    Duration waitForMembers;

    @Override
    public Integer call() throws Exception {
      Instant to = null;
      if (toDatetime != null) {
        try {
          to = Instant.parse(toDatetime);
        } catch (DateTimeParseException e) {
          LOG.error(
              "invalid configuration: --to-datetime: not an ISO-8601 instant: {}", toDatetime);
          return 2;
        }
      }
      Map<String, Object> props;
      try {
        props = new HashMap<>(kafka.rawProperties());
      } catch (IllegalArgumentException e) {
        LOG.error("invalid configuration: {}", e.getMessage());
        return 2;
      }
      props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrap());
      try (Admin admin = Admin.create(props)) {
        StreamsReset.Result r =
            StreamsReset.reset(
                admin, applicationId, inputTopics, tableTopics, to, stateDir, waitForMembers);
        System.out.println(
            "reset "
                + applicationId
                + ": offsets "
                + r.offsets()
                + ", deleted "
                + r.deletedTopics());
        return 0;
      } catch (IllegalStateException e) {
        LOG.error("cannot reset: {}", e.getMessage());
        return 2;
      }
    }
  }
}
