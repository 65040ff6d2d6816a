package io.specwatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.specwatch.ingest.context.ContextFields;
import io.specwatch.ingest.context.RunContextSources;
import io.specwatch.ingest.generate.Generate;
import io.specwatch.ingest.generate.GenerateConfig;
import io.specwatch.ingest.generate.Manifest;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipResult;
import io.specwatch.sink.Backoff;
import io.specwatch.sink.ClickHouseSink;
import io.specwatch.sink.InsertFormat;
import io.specwatch.sink.SinkConfig;
import io.specwatch.sink.SinkStats;
import io.specwatch.sink.SinkTable;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.streams.StaticBaselines;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The story {@code ./specwatch demo} tells, on Testcontainers services instead of the local plain
 * processes: the generator's demo scenario (24 minutes of event time, replayed) is shipped,
 * windowed with alerts by streams-app and loaded into ClickHouse; the alerts there must match
 * manifest.json (raised for the below-baseline deployments, the collapse and the NCCL regression;
 * nothing for the within-noise shift, the baselines and the healthy deployments), and each
 * episode's accept length must be within tolerance of the manifest's truth, its speedup on the
 * right side of 1.
 */
@EnabledIfSystemProperty(
    named = "specwatch.demoIT",
    matches = "true",
    disabledReason =
        "WIP, excluded from the default run by e2e/pom.xml; run with -Dspecwatch.demoIT=true"
            + " -Dspecwatch.e2e.excludes=none, see the demo section of docs/DESIGN.md")
class DemoScenarioIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void demoScenarioRaisesTheManifestsAlertsAndNoOthers(@TempDir Path tmp) throws Exception {
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

    // The files are shipped one deployment after the other (the demo's tails run side by side).
    // Stream time is per partition, so every deployment gets a partition of its own: otherwise the
    // second deployment's events would arrive after the first one's had moved stream time past
    // them, and be dropped as late.
    List<String> ids = new ArrayList<>();
    manifest.path("deployments").forEach(d -> ids.add(d.path("id").asText()));
    int partitions = partitionsSeparating(ids);
    createTopics(bootstrap, List.of(events, contexts, requests), partitions, Map.of());
    createTopics(bootstrap, List.of(dlq), 1, Map.of());
    createTopics(
        bootstrap, List.of(windows, alerts), 1, Map.of("message.timestamp.type", "LogAppendTime"));

    // 2. ship every file of every deployment (what one `ingest tail` per deployment does)
    long dead = 0;
    for (JsonNode d : manifest.path("deployments")) {
      String id = d.path("id").asText();
      Integer steps =
          d.path("logFormat").asText().matches("VLLM_V1_SPEC_V[12]")
              ? d.path("draftTokens").asInt()
              : null;
      NormaliseConfig normalise =
          new NormaliseConfig(
              NormaliseConfig.DEFAULT_DECODE_LOG_INTERVAL,
              java.time.ZoneId.of("UTC"),
              NormaliseConfig.defaults().acceptRateDefinition(),
              steps,
              logYear);
      ShipConfig ship =
          new ShipConfig(
              bootstrap,
              registryUrl,
              events,
              dlq,
              id,
              d.path("host").asText(),
              normalise,
              Map.of(),
              requests,
              contexts,
              new RunContextSources(hardware(d), null));
      try (Stream<Path> files = Files.list(out.resolve(id))) {
        for (Path f : files.sorted().toList()) {
          ShipResult r = new LogFileShipper(ship).ship(f);
          dead += r.deadLettered();
        }
      }
    }
    assertThat(dead).as("dead-lettered lines of the generated logs").isZero();

    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (ClickHouseSql sql = new ClickHouseSql(clickhouse)) {
      // 3. streams-app with learned baselines and the default alert rules, until idle
      StreamsAppConfig streamsConfig =
          new StreamsAppConfig(
              bootstrap,
              registryUrl,
              SpecwatchContainers.uniqueName("demo-app"),
              tmp.resolve("state"),
              Duration.ofMinutes(1),
              Duration.ofMinutes(2),
              events,
              contexts,
              windows,
              dlq,
              staticBaselines(manifest),
              Duration.ofHours(1),
              Map.of(),
              alerts,
              AlertConfig.defaults());
      Future<Integer> streams =
          pool.submit(
              () ->
                  StreamsRunner.start(streamsConfig)
                      .awaitExit(Optional.of(Duration.ofSeconds(60))));
      assertThat(streams.get(3, TimeUnit.MINUTES)).as("streams-app exit code").isZero();

      // 4. sink: window results and alerts into ClickHouse until idle
      Migrator.withBundledMigrations(sql, database).migrate();
      Map<SinkTable, String> topics = new EnumMap<>(SinkTable.class);
      topics.put(SinkTable.WINDOW_RESULTS, windows);
      topics.put(SinkTable.ALERTS, alerts);
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
              Optional.of(Duration.ofSeconds(5)),
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

      // 5. alerts in ClickHouse against the manifest
      Set<String> raised = new TreeSet<>();
      for (List<String> row :
          rows(
              sql,
              "SELECT DISTINCT deployment_id, type FROM "
                  + database
                  + ".alerts FINAL WHERE state = 'RAISED'")) {
        raised.add(row.get(0) + " " + row.get(1));
      }
      Set<String> expected = new TreeSet<>();
      Set<String> quiet = new HashSet<>();
      Set<String> loud = new HashSet<>();
      for (JsonNode e : manifest.path("episodes")) {
        String dep = e.path("deployment").asText();
        for (JsonNode a : e.path("expectedAlerts")) {
          expected.add(dep + " " + a.asText());
          loud.add(dep);
        }
        quiet.add(dep);
      }
      quiet.removeAll(loud);
      assertThat(raised).as("alerts raised").containsAll(expected);
      assertThat(quiet)
          .as("deployments whose episodes expect no alert")
          .contains("kimi-k25-baseline");
      List<String> unexpected = new ArrayList<>();
      for (String r : raised) {
        String dep = r.substring(0, r.indexOf(' '));
        if (quiet.contains(dep) && !r.endsWith(" NO_DATA")) {
          unexpected.add(r);
        }
      }
      assertThat(unexpected)
          .as("alerts on the within-noise / healthy / baseline deployments")
          .isEmpty();

      // 6. verdict numbers per episode against the manifest's truth
      for (JsonNode e : manifest.path("episodes")) {
        String type = e.path("type").asText();
        JsonNode truth = e.path("figures");
        if (!Set.of("HEALTHY", "SPEC_BELOW_BASELINE", "ACCEPT_COLLAPSE").contains(type)
            || !truth.has("tau")) {
          continue;
        }
        String dep = e.path("deployment").asText();
        List<List<String>> m =
            rows(
                sql,
                "SELECT sum(mean_accept_length * cycles) / sum(cycles),"
                    + " sumIf(speedup * cycles, speedup IS NOT NULL)"
                    + " / sumIf(cycles, speedup IS NOT NULL)"
                    + " FROM "
                    + database
                    + ".window_results FINAL WHERE deployment_id = '"
                    + dep
                    + "' AND prompt_category = '*' AND batch_bucket = '*' AND cycles > 0"
                    + " AND window_start >= parseDateTimeBestEffort('"
                    + e.path("from").asText()
                    + "') AND window_start < parseDateTimeBestEffort('"
                    + e.path("to").asText()
                    + "')");
        assertThat(m).as("windows of episode %s", e.path("id").asText()).hasSize(1);
        double tau = Double.parseDouble(m.get(0).get(0));
        double speedup = Double.parseDouble(m.get(0).get(1));
        double trueTau = truth.path("tau").asDouble();
        assertThat(tau)
            .as("tau of %s (truth %s)", e.path("id").asText(), trueTau)
            .isBetween(trueTau * 0.93, trueTau * 1.07);
        if (type.equals("HEALTHY")) {
          assertThat(speedup).as("speedup of healthy %s", e.path("id").asText()).isGreaterThan(1);
        } else {
          assertThat(speedup).as("speedup of %s", e.path("id").asText()).isLessThan(1);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** What the operator configures on the host's shipper (no engine log prints the hardware). */
  private static ContextFields hardware(JsonNode d) {
    ContextFields.Builder b = ContextFields.builder();
    JsonNode h = d.path("hardware");
    b.hardwareClass = h.path("hardwareClass").asText();
    b.gpuModel = h.path("gpuModel").asText();
    b.gpuCount = h.path("gpuCount").asInt();
    b.interconnect = h.path("interconnect").asText();
    return b.build();
  }

  /** Configured t_AR for the speculative deployments without a plain twin (as the demo does). */
  private static StaticBaselines staticBaselines(JsonNode manifest) {
    List<String> entries = new ArrayList<>();
    for (JsonNode d : manifest.path("deployments")) {
      if (d.path("specMethod").asText().equalsIgnoreCase("none")
          || !d.path("baseline").asText("").isEmpty()) {
        continue;
      }
      for (JsonNode e : manifest.path("episodes")) {
        if (e.path("deployment").asText().equals(d.path("id").asText())
            && e.path("figures").has("tArMsBatch1")) {
          entries.add(
              d.path("model").asText()
                  + "|"
                  + d.path("hardware").path("hardwareClass").asText()
                  + "|"
                  + d.path("tp").asInt()
                  + "|*="
                  + e.path("figures").path("tArMsBatch1").asDouble());
          break;
        }
      }
    }
    return StaticBaselines.parse(entries);
  }

  private static List<List<String>> rows(ClickHouseSql sql, String select) {
    List<List<String>> t = sql.queryTsvWithNames(select);
    return t.subList(1, t.size());
  }

  /** The smallest partition count at which the default partitioner separates the keys. */
  private static int partitionsSeparating(List<String> keys) {
    for (int p = keys.size(); p <= 256; p++) {
      Set<Integer> used = new HashSet<>();
      for (String k : keys) {
        used.add(
            Utils.toPositive(Utils.murmur2(k.getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                % p);
      }
      if (used.size() == keys.size()) {
        return p;
      }
    }
    throw new IllegalStateException("no partition count up to 256 separates " + keys);
  }

  private static void createTopics(
      String bootstrap, List<String> names, int partitions, Map<String, String> configs)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      List<NewTopic> topics = new ArrayList<>();
      for (String name : names) {
        topics.add(new NewTopic(name, partitions, (short) 1).configs(configs));
      }
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    }
  }
}
