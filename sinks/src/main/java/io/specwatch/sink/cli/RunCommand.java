package io.specwatch.sink.cli;

import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.Durations;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.runtime.KafkaOptions;
import io.specwatch.serde.Topics;
import io.specwatch.sink.Backoff;
import io.specwatch.sink.ClickHouseSink;
import io.specwatch.sink.InsertFormat;
import io.specwatch.sink.ReplayRange;
import io.specwatch.sink.SinkConfig;
import io.specwatch.sink.SinkMeters;
import io.specwatch.sink.SinkStats;
import io.specwatch.sink.SinkTable;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code run}: migrates, then loads the topics into ClickHouse until SIGTERM (or idle). */
@Command(
    name = "run",
    description =
        "Migrate, then load window results, alerts, decode events, request acceptance and run"
            + " contexts into ClickHouse until SIGTERM or --exit-when-idle.")
public class RunCommand implements Callable<Integer> {

  private static final Logger log = LoggerFactory.getLogger(RunCommand.class);

  @Mixin ClickHouseOptions clickhouse;

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Mixin HealthOptions health = new HealthOptions();

  @Option(
      names = "--tables",
      split = ",",
      defaultValue =
          "${env:SPECWATCH_SINK_TABLES:-window_results,alerts,decode_events,request_acceptance,run_contexts}",
      description =
          "Tables to load, comma separated (env SPECWATCH_SINK_TABLES, default ${DEFAULT-VALUE}).")
  List<String> tables;

  @Option(
      names = {"--window-results-topic", "--topic"},
      defaultValue = "${env:SPECWATCH_WINDOW_TOPIC:-" + Topics.WINDOW_RESULTS + "}",
      description =
          "Topic of window_results (env SPECWATCH_WINDOW_TOPIC, default ${DEFAULT-VALUE}).")
  String windowTopic;

  @Option(
      names = "--alerts-topic",
      defaultValue = "${env:SPECWATCH_ALERTS_TOPIC:-" + Topics.ALERTS + "}",
      description = "Topic of alerts (env SPECWATCH_ALERTS_TOPIC, default ${DEFAULT-VALUE}).")
  String alertsTopic;

  @Option(
      names = "--decode-events-topic",
      defaultValue = "${env:SPECWATCH_DECODE_TOPIC:-" + Topics.DECODE_EVENTS + "}",
      description =
          "Topic of decode_events (env SPECWATCH_DECODE_TOPIC, default ${DEFAULT-VALUE}).")
  String decodeTopic;

  @Option(
      names = "--request-acceptance-topic",
      defaultValue = "${env:SPECWATCH_REQUEST_TOPIC:-" + Topics.REQUEST_ACCEPTANCE + "}",
      description =
          "Topic of request_acceptance (env SPECWATCH_REQUEST_TOPIC, default ${DEFAULT-VALUE}).")
  String requestTopic;

  @Option(
      names = "--run-context-topic",
      defaultValue = "${env:SPECWATCH_RUN_CONTEXT_TOPIC:-" + Topics.RUN_CONTEXT + "}",
      description =
          "Topic of run_contexts (env SPECWATCH_RUN_CONTEXT_TOPIC, default ${DEFAULT-VALUE}).")
  String runContextTopic;

  @Option(
      names = "--dead-letter-topic",
      defaultValue = "${env:SPECWATCH_DLQ_TOPIC:-" + Topics.DEAD_LETTER + "}",
      description =
          "Where rows the sink cannot load go (env SPECWATCH_DLQ_TOPIC, default ${DEFAULT-VALUE}).")
  String deadLetterTopic;

  @Option(
      names = "--insert-format",
      defaultValue = "${env:SPECWATCH_SINK_INSERT_FORMAT:-rowbinary}",
      description =
          "rowbinary or json (JSONEachRow) (env SPECWATCH_SINK_INSERT_FORMAT, default ${DEFAULT-VALUE}).")
  String insertFormat;

  @Option(
      names = "--group-id",
      defaultValue = "${env:SPECWATCH_SINK_GROUP_ID:-" + SinkConfig.DEFAULT_GROUP_ID + "}",
      description = "Consumer group (env SPECWATCH_SINK_GROUP_ID, default ${DEFAULT-VALUE}).")
  String groupId;

  @Option(
      names = "--batch-size",
      defaultValue = "${env:SPECWATCH_SINK_BATCH_SIZE:-100000}",
      description =
          "Rows per insert and table at most (env SPECWATCH_SINK_BATCH_SIZE, default ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(
      names = "--flush-interval",
      defaultValue = "${env:SPECWATCH_SINK_FLUSH_INTERVAL:-PT1S}",
      converter = Durations.Converter.class,
      description =
          "Longest a row waits for its insert, e.g. 1s or PT1S (env SPECWATCH_SINK_FLUSH_INTERVAL, default ${DEFAULT-VALUE}).")
  Duration flushInterval;

  @Option(
      names = "--exit-when-idle",
      defaultValue = "${env:SPECWATCH_SINK_EXIT_WHEN_IDLE}",
      converter = Durations.Converter.class,
      description =
          "Exit after this long without records, e.g. 10s or PT10S (env SPECWATCH_SINK_EXIT_WHEN_IDLE). Default: run until SIGTERM.")
  Duration exitWhenIdle;

  @Override
  public Integer call() throws InterruptedException {
    SinkConfig config = config();
    ReplayRange replay = replayRange(); // fails fast, naming the option, before anything starts
    health.validate();
    log.info("Effective sink config: {}", config);
    if (replay != null) {
      log.info("Replay of {}", replay);
    }
    try (AppRuntime app = AppRuntime.start("sink", health)) {
      try {
        return run(config, replay, app);
      } catch (RuntimeException e) {
        app.readiness().fatal("sink failed: " + e.getMessage());
        throw e;
      }
    }
  }

  /** The validated config; IllegalArgumentException naming the setting when invalid. */
  SinkConfig config() {
    return new SinkConfig(
        kafka.bootstrap(),
        kafka.registryUrl(),
        topics(),
        deadLetterTopic,
        effectiveGroupId(),
        clickhouse.toConfig(),
        batchSize,
        flushInterval,
        Optional.ofNullable(exitWhenIdle),
        Backoff.DEFAULT,
        InsertFormat.parse(insertFormat),
        kafka.rawProperties());
  }

  /** The consumer group the run commits in. */
  String effectiveGroupId() {
    return groupId;
  }

  /** The range to replay, or null for the continuous sink; validated (fails naming the option). */
  ReplayRange replayRange() {
    return null;
  }

  private Map<SinkTable, String> topics() {
    Map<SinkTable, String> topics = new EnumMap<>(SinkTable.class);
    for (String name : tables) {
      if (name.isBlank()) {
        continue;
      }
      SinkTable table = SinkTable.parse(name);
      topics.put(
          table,
          switch (table) {
            case WINDOW_RESULTS -> windowTopic;
            case ALERTS -> alertsTopic;
            case DECODE_EVENTS -> decodeTopic;
            case REQUEST_ACCEPTANCE -> requestTopic;
            case RUN_CONTEXTS -> runContextTopic;
          });
    }
    return topics;
  }

  private int run(SinkConfig config, ReplayRange replay, AppRuntime app)
      throws InterruptedException {
    ClickHouseConfig ch = config.clickhouse();
    app.readiness().notReady("migrating ClickHouse");
    try (ClickHouseSql sql = new ClickHouseSql(ch)) {
      Migrator.withBundledMigrations(sql, ch.database()).migrate();
      app.readiness().notReady("ClickHouse answered; waiting for partitions");
      SinkMeters meters = new SinkMeters(app.registry(), app.readiness(), ch.database());
      try (ClickHouseSink sink = new ClickHouseSink(config, sql, meters, replay)) {
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook =
            new Thread(
                () -> {
                  sink.stop();
                  try {
                    finished.await(30, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "sink-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
          SinkStats stats = sink.run();
          System.out.println(
              "sink done: "
                  + stats.rowsInserted()
                  + " rows in "
                  + stats.batches()
                  + " inserts "
                  + stats.rowsByTable()
                  + ", "
                  + stats.deadLetters()
                  + " dead letters");
          sink.replayStats()
              .ifPresent(
                  r ->
                      System.out.println(
                          "replay: "
                              + r.scanned()
                              + " records scanned, "
                              + r.selected()
                              + " in range"
                              + (r.skewExceeded() == 0
                                  ? ""
                                  : ", "
                                      + r.skewExceeded()
                                      + " with an event time more than --max-clock-skew after"
                                      + " their Kafka timestamp (largest lead "
                                      + r.largestLead()
                                      + "): replay again with a larger --max-clock-skew")));
        } finally {
          finished.countDown();
        }
        removeHook(hook);
      }
    }
    return 0;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // JVM is already shutting down (SIGTERM): the hook is running, nothing to remove.
    }
  }
}
