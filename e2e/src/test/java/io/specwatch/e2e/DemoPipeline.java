package io.specwatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.specwatch.ingest.generate.Generate;
import io.specwatch.ingest.generate.GenerateConfig;
import io.specwatch.ingest.generate.Manifest;
import io.specwatch.sink.Backoff;
import io.specwatch.sink.ClickHouseSink;
import io.specwatch.sink.InsertFormat;
import io.specwatch.sink.SinkConfig;
import io.specwatch.sink.SinkStats;
import io.specwatch.sink.SinkTable;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.streams.StreamsAppConfig;
import io.specwatch.streams.StreamsRunner;
import io.specwatch.streams.alert.AlertConfig;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;

/**
 * The demo scenario through the real pipeline, once per test JVM (DemoScenarioIT and
 * DashboardPipelineIT share it): the generator's demo logs (24 minutes of event time) are shipped
 * by the ingest shipper to Kafka, windowed with learned baselines and alerts by streams-app and
 * loaded into ClickHouse by the sink, all on the Testcontainers services.
 *
 * <p>Order, and why it makes the result deterministic (docs/DESIGN.md, "The demo"):
 *
 * <ol>
 *   <li>The plain twins (spec method NONE) are shipped, then streams-app runs until it has
 *       committed every one of their events, and stops. A learned baseline only reaches speculative
 *       windows the baseline stage sees after the twin's windows; this way the twins' rows precede
 *       every speculative row in the {@code baseline-by-key} repartition topic.
 *   <li>The speculative deployments are shipped while streams-app is stopped, then it runs again
 *       with the same application id and state. Every file is whole on the broker before a task
 *       reads it, so Kafka Streams knows that the run-context partition has data and waits for it
 *       (KIP-695): each run context (observedAt = its line's time) is applied in timestamp order
 *       with the events, before their windows close. Shipped into a running, busy streams-app, a
 *       file's context could arrive after the task had given up waiting ({@code max.task.idle.ms},
 *       measured from a stale "caught up" lag) and closed the file's first windows, or all of a
 *       short file's, without a run context: no baseline key.
 * </ol>
 *
 * Every deployment gets an events partition of its own (stream time is per partition, and the files
 * are shipped one deployment after the other).
 *
 * <p>This class runs the steps in that order; a deployment's files are shipped by {@link
 * DemoShipper}, what the manifest says is read by {@link DemoManifest}, topics and committed
 * offsets are handled by {@link DemoKafka}.
 */
final class DemoPipeline {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long streams-app's committed offsets must stay unchanged before it is considered done. */
  private static final Duration STREAMS_SETTLED = Duration.ofSeconds(6);

  private static final Duration SINK_IDLE = Duration.ofSeconds(5);

  private static DemoPipeline instance;

  final JsonNode manifest;
  final String database;
  final ClickHouseConfig clickhouse;
  final Duration took;

  private DemoPipeline(JsonNode manifest, String database, ClickHouseConfig ch, Duration took) {
    this.manifest = manifest;
    this.database = database;
    this.clickhouse = ch;
    this.took = took;
  }

  /** The loaded demo (runs the pipeline on first use). */
  static synchronized DemoPipeline get() throws Exception {
    if (instance == null) {
      instance = run();
    }
    return instance;
  }

  private static DemoPipeline run() throws Exception {
    long t0 = System.nanoTime();
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registryUrl = SpecwatchContainers.registryUrl();
    String database = SpecwatchContainers.uniqueName("demo").replace('-', '_');
    ClickHouseConfig clickhouse =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", database);
    String events = SpecwatchContainers.uniqueName("decode-events");
    String windows = SpecwatchContainers.uniqueName("window-results");
    String dlq = SpecwatchContainers.uniqueName("dead-letter");
    String contexts = SpecwatchContainers.uniqueName("run-context");
    String alerts = SpecwatchContainers.uniqueName("alerts");
    String requests = SpecwatchContainers.uniqueName("request-acceptance");
    Path tmp = Files.createTempDirectory("specwatch-demo-it");

    // 1. generate: the demo scenario, replayed (as fast as possible)
    Path out = tmp.resolve("logs");
    Generate.run(
        new GenerateConfig(
            "demo",
            0,
            42,
            Instant.parse("2026-11-30T16:00:00Z"),
            Duration.ofMinutes(24),
            out,
            null,
            false,
            1),
        nanos -> {},
        new PrintWriter(new StringWriter()));
    JsonNode manifest = JSON.readTree(out.resolve(Manifest.FILE).toFile());
    int logYear = manifest.path("shipperSettings").path("logYear").asInt();

    // Stream time is per partition and the files are shipped one deployment after the other, so
    // every deployment gets a partition of its own: otherwise a deployment's events would arrive
    // after another one's had moved stream time past them, and be dropped as late.
    List<String> ids = new ArrayList<>();
    manifest.path("deployments").forEach(d -> ids.add(d.path("id").asText()));
    int partitions = Manifest.separatingPartitions(ids);
    assertThat(partitions).as("a partition count separating %s", ids).isPositive();
    DemoKafka.createTopics(bootstrap, List.of(events, contexts, requests), partitions, Map.of());
    DemoKafka.createTopics(bootstrap, List.of(dlq), 1, Map.of());
    DemoKafka.createTopics(
        bootstrap, List.of(windows, alerts), 1, Map.of("message.timestamp.type", "LogAppendTime"));

    Set<String> plain = DemoManifest.plainDeployments(manifest);
    assertThat(plain).as("plain twins in the manifest").isNotEmpty();

    // 2. ship the plain twins' files (what one `ingest tail` per deployment does)
    DemoShipper shipper =
        new DemoShipper(out, logYear, bootstrap, registryUrl, events, dlq, requests, contexts);
    long dead = 0;
    for (JsonNode d : manifest.path("deployments")) {
      if (plain.contains(d.path("id").asText())) {
        dead += shipper.ship(d);
      }
    }

    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (ClickHouseSql sql = new ClickHouseSql(clickhouse)) {
      // 3. streams-app with learned baselines and the default alert rules, first run: the twins'
      // logs are on the broker before it starts (see the class comment); it has taught the twins'
      // baselines once it committed every event of their partitions
      String applicationId = SpecwatchContainers.uniqueName("demo-app");
      StreamsAppConfig streamsConfig =
          new StreamsAppConfig(
              bootstrap,
              registryUrl,
              applicationId,
              tmp.resolve("state"),
              Duration.ofMinutes(1),
              Duration.ofMinutes(2),
              events,
              contexts,
              windows,
              dlq,
              DemoManifest.staticBaselines(manifest),
              Duration.ofHours(1),
              Map.of(
                  // a task waits up to 5 s for a run-context partition it believes caught up
                  "max.task.idle.ms",
                  "5000",
                  // static membership: the second run takes over the first one's assignment
                  // without waiting for its session to time out
                  "group.instance.id",
                  applicationId),
              alerts,
              AlertConfig.defaults());
      List<TopicPartition> plainPartitions = new ArrayList<>();
      for (String id : plain) {
        plainPartitions.add(new TopicPartition(events, Manifest.partitionOf(id, partitions)));
      }
      StreamsRunner first = StreamsRunner.start(streamsConfig);
      try {
        await("streams-app consumed the plain twins' events")
            .atMost(Duration.ofMinutes(4))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> DemoKafka.consumedAll(bootstrap, applicationId, plainPartitions));
      } finally {
        first.requestStop();
        assertThat(first.awaitExit(Optional.empty()))
            .as("first streams-app run's exit code")
            .isZero();
      }

      // 4. the speculative deployments, while streams-app is stopped
      for (JsonNode d : manifest.path("deployments")) {
        if (!plain.contains(d.path("id").asText())) {
          dead += shipper.ship(d);
        }
      }
      assertThat(dead).as("dead-lettered lines of the generated logs").isZero();

      // 5. streams-app again (same application id and state): the speculative logs; done when
      // every event is committed, then the group's committed offsets (repartition topics
      // included) unchanged for STREAMS_SETTLED
      StreamsRunner streams = StreamsRunner.start(streamsConfig);
      List<TopicPartition> all = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        all.add(new TopicPartition(events, p));
      }
      Future<Integer> streamsExit = pool.submit(() -> streams.awaitExit(Optional.empty()));
      try {
        await("streams-app consumed every event")
            .atMost(Duration.ofMinutes(6))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> DemoKafka.consumedAll(bootstrap, applicationId, all));
        Map<TopicPartition, Long> last = new HashMap<>();
        long[] stableSince = {System.nanoTime()};
        await("streams-app's committed offsets settled")
            .atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofSeconds(1))
            .until(
                () -> {
                  Map<TopicPartition, Long> now = DemoKafka.committed(bootstrap, applicationId);
                  if (!now.equals(last)) {
                    last.clear();
                    last.putAll(now);
                    stableSince[0] = System.nanoTime();
                    return false;
                  }
                  return System.nanoTime() - stableSince[0] >= STREAMS_SETTLED.toNanos();
                });
      } finally {
        streams.requestStop();
      }
      assertThat(streamsExit.get(2, TimeUnit.MINUTES)).as("streams-app exit code").isZero();

      // 6. sink: window results and alerts into ClickHouse until idle
      Migrator.withBundledMigrations(sql, database).migrate();
      Map<SinkTable, String> topics = new EnumMap<>(SinkTable.class);
      topics.put(SinkTable.WINDOW_RESULTS, windows);
      topics.put(SinkTable.ALERTS, alerts);
      topics.put(SinkTable.RUN_CONTEXTS, contexts);
      SinkConfig sinkConfig =
          new SinkConfig(
              bootstrap,
              registryUrl,
              topics,
              dlq,
              SpecwatchContainers.uniqueName("demo-sink"),
              clickhouse,
              100_000,
              Duration.ofSeconds(1),
              Optional.of(SINK_IDLE),
              Backoff.DEFAULT,
              InsertFormat.ROW_BINARY,
              Map.of());
      Future<SinkStats> sink =
          pool.submit(
              () -> {
                try (ClickHouseSink s = new ClickHouseSink(sinkConfig, sql)) {
                  return s.run();
                }
              });
      assertThat(sink.get(3, TimeUnit.MINUTES).rowsInserted()).isPositive();
      // what a failing assertion needs: where each deployment's baselines came from
      System.out.println(
          "baseline sources per deployment, side and bucket:\n"
              + String.join(
                  "\n",
                  rows(
                          sql,
                          "SELECT deployment_id, spec_enabled, batch_bucket, baseline_source,"
                              + " count(), round(avg(mean_cycle_ms), 2),"
                              + " round(avg(mean_batch_size), 2) FROM "
                              + database
                              + ".window_results FINAL WHERE prompt_category = '*'"
                              + " GROUP BY deployment_id, spec_enabled, batch_bucket,"
                              + " baseline_source ORDER BY deployment_id, spec_enabled,"
                              + " batch_bucket, baseline_source")
                      .stream()
                      .map(r -> String.join("\t", r))
                      .toList()));
    } finally {
      pool.shutdownNow();
    }
    return new DemoPipeline(
        manifest, database, clickhouse, Duration.ofNanos(System.nanoTime() - t0));
  }

  /** Rows of a query (header dropped). */
  static List<List<String>> rows(ClickHouseSql sql, String select) {
    List<List<String>> t = sql.queryTsvWithNames(select);
    return t.subList(1, t.size());
  }
}
