package io.specwatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipResult;
import io.specwatch.sink.Backoff;
import io.specwatch.sink.ClickHouseSink;
import io.specwatch.sink.SinkConfig;
import io.specwatch.sink.SinkStats;
import io.specwatch.sink.WindowQueries;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.dashboard.DashboardServer;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.streams.StaticBaselines;
import io.specwatch.streams.StreamsAppConfig;
import io.specwatch.streams.StreamsRunner;
import io.specwatch.streams.alert.AlertConfig;
import io.specwatch.testkit.SpecwatchContainers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walking skeleton end to end on real services (Testcontainers): an SGLang log file is shipped
 * by ingest to Kafka, windowed by streams-app under exactly_once_v2, written by the sink to
 * ClickHouse, and read back. Expected window values are computed by hand from the log lines below.
 */
class PipelineIT {

  private static final String DEPLOYMENT = "e2e-eagle3";

  /*
   * SGLang prints one line per 40 decode passes; cycles of a line = 40 x #running-req, and cycle ms =
   * (seconds since the previous line of the same rank) / 40.
   *
   * window 02:00 : L1 tau 2.0 x 160 cycles (no previous line: no cycle ms)
   *                L2 tau 3.0 x 160 cycles, 1 s after L1 -> 25 ms
   *                L3 tau 2.0 x  80 cycles, 2 s after L2 -> 50 ms
   *   mean tau   = (2*160 + 3*160 + 2*80) / 400 = 2.4
   *   cycle ms   = (25*160 + 50*80) / 240       = 33.333...
   *   tok/s/req  = 1000 * 2.4 / 33.333          = 72.0
   * window 02:01 : L4 tau 1.5 x 160 cycles, 2 s after L3 -> 50 ms
   *                L5 tau 2.0 x 320 cycles, 1 s after L4 -> 25 ms
   *   mean tau   = (1.5*160 + 2*320) / 480      = 1.8333...
   *   cycle ms   = (50*160 + 25*320) / 480      = 33.333...
   *   tok/s/req  = 1000 * 1.8333 / 33.333       = 55.0
   * L8 at 02:02:40 advances stream time past 02:02:00 + 30 s grace and closes window 02:01; its own
   * window stays open, so exactly two windows are emitted, each as its total row plus one row per
   * batch-size bucket seen (02:00: 2-4; 02:01: 2-4 and 5-8).
   */
  private static final List<String> LOG =
      List.of(
          "[2025-03-14 02:00:56 TP0] Decode batch. #running-req: 4, #token: 1200, token usage: 0.02,"
              + " accept len: 2.00, gen throughput (token/s): 240.00, #queue-req: 0, ",
          "[2025-03-14 02:00:57 TP0] Decode batch. #running-req: 4, #token: 1300, token usage: 0.02,"
              + " accept len: 3.00, gen throughput (token/s): 480.00, #queue-req: 0, ",
          "127.0.0.1:51234 - \"POST /generate HTTP/1.1\" 200 OK",
          "[2025-03-14 02:00:59 TP0] Decode batch. #running-req: 2, #token: 700, token usage: 0.01,"
              + " accept len: 2.00, gen throughput (token/s): 80.00, #queue-req: 0, ",
          "[2025-03-14 02:01:01 TP0] Decode batch. #running-req: 4, #token: 1400, token usage: 0.02,"
              + " accept len: 1.50, gen throughput (token/s): 120.00, #queue-req: 0, ",
          "[2025-03-14 02:01:02 TP0] Decode batch. #running-req: 8, #token: 2800, token usage: 0.04,"
              + " accept len: 2.00, gen throughput (token/s): 640.00, #queue-req: 1, ",
          "$ python -m sglang.launch_server --model-path /models/Kimi-K2.5 --tp 8",
          "[2025-03-14 02:02:40 TP0] Decode batch. #running-req: 4, #token: 1500, token usage: 0.02,"
              + " accept len: 2.00, gen throughput (token/s): 240.00, #queue-req: 0, ");

  private static String bootstrap;
  private static String registryUrl;
  private static ClickHouseConfig clickhouse;
  private static ClickHouseSql sql;
  private static ExecutorService pool;

  @BeforeAll
  static void services() {
    bootstrap = SpecwatchContainers.kafkaBootstrap();
    registryUrl = SpecwatchContainers.registryUrl();
    String database = SpecwatchContainers.uniqueName("e2e").replace('-', '_');
    clickhouse =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", database);
    sql = new ClickHouseSql(clickhouse);
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
    if (sql != null) {
      sql.close();
    }
  }

  @Test
  void logLinesBecomeWindowRowsInClickHouse(@TempDir Path tmp) throws Exception {
    String events = SpecwatchContainers.uniqueName("decode-events");
    String windows = SpecwatchContainers.uniqueName("window-results");
    String dlq = SpecwatchContainers.uniqueName("dead-letter");
    String contexts = SpecwatchContainers.uniqueName("run-context");
    String alerts = SpecwatchContainers.uniqueName("alerts");
    // run-context: co-partitioned with the events (3 partitions each)
    createTopics(List.of(events, dlq, contexts), Map.of());
    // result records carry old event times: append time keeps retention from deleting them
    createTopics(List.of(windows, alerts), Map.of("message.timestamp.type", "LogAppendTime"));

    Path logFile = tmp.resolve("sglang.log");
    Files.write(logFile, LOG, StandardCharsets.UTF_8);

    // 1. ingest
    ShipConfig ship =
        new ShipConfig(
            bootstrap,
            registryUrl,
            events,
            dlq,
            DEPLOYMENT,
            "gpu-host-1",
            NormaliseConfig.defaults(),
            Map.of());
    ShipResult shipped = new LogFileShipper(ship).ship(logFile);
    assertThat(shipped.linesRead()).isEqualTo(LOG.size());
    assertThat(shipped.recognised()).isEqualTo(6);
    assertThat(shipped.deadLettered()).isZero();

    // 2. streams-app (exactly_once_v2) until idle
    StreamsAppConfig streamsConfig =
        new StreamsAppConfig(
            bootstrap,
            registryUrl,
            SpecwatchContainers.uniqueName("e2e-app"),
            tmp.resolve("state"),
            Duration.ofMinutes(1),
            Duration.ofSeconds(30),
            events,
            contexts,
            windows,
            dlq,
            StaticBaselines.none(),
            Duration.ofHours(1),
            Map.of(),
            alerts,
            AlertConfig.defaults());
    Future<Integer> streams =
        pool.submit(
            () -> StreamsRunner.start(streamsConfig).awaitExit(Optional.of(Duration.ofSeconds(8))));

    // the windows are in the topic once streams-app has committed; then the sink takes them
    assertThat(streams.get(3, TimeUnit.MINUTES)).as("streams-app exit code").isZero();
    // 02:00: total and bucket 2-4 (running 4, 4, 2); 02:01: total, 2-4 (4) and 5-8 (8)
    assertThat(committedRecords(windows)).as("committed window results").isEqualTo(5);

    // 3. sink: migrations, then consume until idle
    Migrator.withBundledMigrations(sql, clickhouse.database()).migrate();
    SinkConfig sinkConfig =
        new SinkConfig(
            bootstrap,
            registryUrl,
            windows,
            SpecwatchContainers.uniqueName("e2e-sink"),
            clickhouse,
            10_000,
            Duration.ofSeconds(1),
            Optional.of(Duration.ofSeconds(5)),
            Backoff.DEFAULT,
            Map.of());
    Future<SinkStats> sink =
        pool.submit(
            () -> {
              try (ClickHouseSink s = new ClickHouseSink(sinkConfig, sql)) {
                return s.run();
              }
            });

    SinkStats sinkStats = sink.get(3, TimeUnit.MINUTES);
    assertThat(sinkStats.rowsInserted()).isEqualTo(5);

    // 4. read back from ClickHouse: the two total rows (batch bucket '*')
    WindowQueries queries = new WindowQueries(sql, clickhouse.database());
    List<Map<String, String>> all = asMaps(queries.allColumns(Optional.of(DEPLOYMENT)));
    assertThat(all).hasSize(5);
    assertThat(queries.countFinal()).isEqualTo(5);
    List<Map<String, String>> rows =
        all.stream().filter(r -> r.get("batch_bucket").equals("*")).toList();
    assertThat(rows).hasSize(2);

    Map<String, String> w1 = rows.get(0);
    assertThat(w1.get("window_start")).isEqualTo("2025-03-14 02:00:00");
    assertThat(Long.parseLong(w1.get("events"))).isEqualTo(3);
    assertThat(Long.parseLong(w1.get("cycles"))).isEqualTo(400);
    assertThat(Double.parseDouble(w1.get("mean_accept_length"))).isCloseTo(2.4, within(1e-9));
    assertThat(Double.parseDouble(w1.get("mean_cycle_ms"))).isCloseTo(100.0 / 3, within(1e-9));
    assertThat(Double.parseDouble(w1.get("effective_tok_s_per_request")))
        .isCloseTo(72.0, within(1e-9));

    Map<String, String> w2 = rows.get(1);
    assertThat(w2.get("window_start")).isEqualTo("2025-03-14 02:01:00");
    assertThat(Long.parseLong(w2.get("events"))).isEqualTo(2);
    assertThat(Long.parseLong(w2.get("cycles"))).isEqualTo(480);
    assertThat(Double.parseDouble(w2.get("mean_accept_length"))).isCloseTo(11.0 / 6, within(1e-9));
    assertThat(Double.parseDouble(w2.get("mean_cycle_ms"))).isCloseTo(100.0 / 3, within(1e-9));
    assertThat(Double.parseDouble(w2.get("effective_tok_s_per_request")))
        .isCloseTo(55.0, within(1e-9));

    // 5. the dashboard over what the pipeline wrote: each window is its total row, cycle-weighted
    // tau (2.4 * 400 + 11/6 * 480) / 880 = 2.0909, tok/s (72 * 400 + 55 * 480) / 880 = 62.7273;
    // no baseline configured, so no verdict either way
    try (DashboardServer dashboard =
        DashboardServer.start(sql, clickhouse.database(), "127.0.0.1", 0)) {
      HttpResponse<String> api =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "http://127.0.0.1:"
                                  + dashboard.port()
                                  + "/api/windows?deployment="
                                  + DEPLOYMENT))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(api.statusCode()).isEqualTo(200);
      assertThat(api.body())
          .contains(
              "\"summary\":{\"windows\":2,\"cycles\":880,\"tau\":2.0909,\"tau_star\":null,"
                  + "\"effective_tok_s\":62.7273,\"baseline_tok_s\":null,\"speedup\":null,"
                  + "\"verdict\":\"unknown\"");
    }
  }

  private static long committedRecords(String topic) {
    Map<String, Object> props = new HashMap<>();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic).stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long count = 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < deadline
          && !partitions.stream().allMatch(tp -> atEnd(consumer, tp))) {
        count += consumer.poll(Duration.ofMillis(500)).count();
      }
      return count;
    }
  }

  private static boolean atEnd(KafkaConsumer<byte[], byte[]> consumer, TopicPartition tp) {
    return consumer.position(tp) >= consumer.endOffsets(List.of(tp)).get(tp);
  }

  private static void createTopics(List<String> names, Map<String, String> configs)
      throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      List<NewTopic> topics = new ArrayList<>();
      for (String name : names) {
        topics.add(new NewTopic(name, 3, (short) 1).configs(configs));
      }
      admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
    }
  }

  private static List<Map<String, String>> asMaps(List<List<String>> table) {
    List<String> header = table.get(0);
    List<Map<String, String>> rows = new ArrayList<>();
    for (List<String> row : table.subList(1, table.size())) {
      Map<String, String> m = new HashMap<>();
      for (int i = 0; i < header.size(); i++) {
        m.put(header.get(i), row.get(i));
      }
      rows.add(m);
    }
    return rows;
  }
}
