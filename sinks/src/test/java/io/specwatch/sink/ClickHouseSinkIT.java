package io.specwatch.sink;

import static io.specwatch.sink.SinkItSupport.committed;
import static io.specwatch.sink.SinkItSupport.endOffsets;
import static io.specwatch.sink.SinkItSupport.number;
import static io.specwatch.sink.SinkItSupport.produce;
import static io.specwatch.sink.SinkItSupport.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.sink.rows.RowMappingsTest;
import io.specwatch.testkit.SpecwatchContainers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Real broker, registry and ClickHouse: all five tables loaded with exact counts and values, an
 * aborted transaction never shows, a poison row is dead-lettered while its batch-mates land, and a
 * replay of the same offsets adds no visible rows.
 */
class ClickHouseSinkIT {

  private static final Instant BASE = Instant.parse("2026-03-14T02:00:00Z");
  private static final int WINDOWS = 60;
  private static final int EVENTS = 400;
  private static final int REQUESTS = 40;
  private static final int ALERTS = 10;
  private static final int CONTEXTS = 5;

  @Test
  void loadsEveryTableExactlyAndAReplayAddsNoVisibleRows() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String prefix = SpecwatchContainers.uniqueName("it.sink");
    String db = SpecwatchContainers.uniqueName("it_sink");
    ClickHouseConfig ch =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    Map<SinkTable, String> topics = new EnumMap<>(SinkTable.class);
    Map<String, Integer> partitions = new java.util.HashMap<>();
    for (SinkTable t : SinkTable.values()) {
      topics.put(t, prefix + "." + t.table());
      partitions.put(prefix + "." + t.table(), t == SinkTable.RUN_CONTEXTS ? 1 : 3);
    }
    String dlq = prefix + ".dead-letter";
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        ClickHouseSql sql = new ClickHouseSql(ch)) {
      List<NewTopic> newTopics = new ArrayList<>();
      partitions.forEach((t, n) -> newTopics.add(new NewTopic(t, n, (short) 1)));
      newTopics.add(new NewTopic(dlq, 1, (short) 1));
      admin.createTopics(newTopics).all().get();
      Migrator.withBundledMigrations(sql, db).migrate();
      // A server-side rule that rejects one row, like a constraint: the row is poison, its batch
      // (one insert of up to 64 rows) is otherwise fine.
      sql.execute(
          "ALTER TABLE "
              + db
              + ".decode_events ADD COLUMN poison_guard UInt8"
              + " MATERIALIZED throwIf(deployment_id = 'poison')");

      List<DecodeEvent> events = new ArrayList<>();
      for (int i = 0; i < EVENTS; i++) {
        events.add(event(i, "dep-" + (i % 4)));
      }
      events.add(EVENTS / 2, event(EVENTS + 1, "poison"));
      events.add(
          EVENTS / 3,
          DecodeEvent.newBuilder(event(EVENTS + 2, "dep-0"))
              .setEventTime(Instant.parse("2200-01-01T00:00:00Z"))
              .build());
      produce(
          bootstrap,
          registry,
          topics.get(SinkTable.DECODE_EVENTS),
          events,
          DecodeEvent::getDeploymentId,
          List.of(event(9_999, "aborted")));
      List<WindowResult> windows = new ArrayList<>();
      for (int i = 0; i < WINDOWS; i++) {
        windows.add(window(i));
      }
      produce(
          bootstrap,
          registry,
          topics.get(SinkTable.WINDOW_RESULTS),
          windows,
          WindowResult::getDeploymentId,
          List.of());
      List<RequestAcceptance> requests = new ArrayList<>();
      for (int i = 0; i < REQUESTS; i++) {
        requests.add(RowMappingsTest.request("r" + i));
      }
      produce(
          bootstrap,
          registry,
          topics.get(SinkTable.REQUEST_ACCEPTANCE),
          requests,
          RequestAcceptance::getDeploymentId,
          List.of());
      List<Alert> alerts = new ArrayList<>();
      for (int i = 0; i < ALERTS; i++) {
        alerts.add(
            Alert.newBuilder(RowMappingsTest.alert("a" + i))
                .setWindowStart(BASE.plusSeconds(60L * i))
                .build());
      }
      produce(
          bootstrap,
          registry,
          topics.get(SinkTable.ALERTS),
          alerts,
          Alert::getDeploymentId,
          List.of());
      List<RunContext> contexts = new ArrayList<>();
      for (int i = 0; i < CONTEXTS; i++) {
        contexts.add(RowMappingsTest.context("c" + i));
      }
      contexts.add(RowMappingsTest.context("c0")); // the same context published twice
      produce(
          bootstrap,
          registry,
          topics.get(SinkTable.RUN_CONTEXTS),
          contexts,
          RunContext::getDeploymentId,
          List.of());

      String group = SpecwatchContainers.uniqueName("it-sink");
      SinkStats first = run(config(bootstrap, registry, topics, dlq, group, ch), sql);
      assertThat(first.deadLetters()).isEqualTo(2);
      assertThat(first.rowsByTable())
          .containsEntry("decode_events", (long) EVENTS)
          .containsEntry("window_results", (long) WINDOWS)
          .containsEntry("request_acceptance", (long) REQUESTS)
          .containsEntry("alerts", (long) ALERTS)
          .containsEntry("run_contexts", (long) CONTEXTS + 1);
      assertTables(sql, db);
      assertValues(sql, db);
      assertThat(committed(admin, group)).isEqualTo(endOffsets(admin, partitions));

      List<DeadLetter> letters = deadLetters(bootstrap, registry, dlq, 2);
      assertThat(letters)
          .extracting(DeadLetter::getStage)
          .containsExactlyInAnyOrder("sink.insert", "sink.map");
      DeadLetter poison =
          letters.stream()
              .filter(l -> l.getStage().equals("sink.insert"))
              .findFirst()
              .orElseThrow();
      assertThat(poison.getTopic()).isEqualTo(topics.get(SinkTable.DECODE_EVENTS));
      assertThat(poison.getErrorClass()).contains("395");
      assertThat(poison.getContext())
          .containsEntry("table", db + ".decode_events")
          .containsEntry("clickhouse_code", "395")
          .containsEntry("key", "poison")
          .containsKey("batch_id");
      DecodeEvent back =
          AvroSerde.forClass(DecodeEvent.class, Map.of("schema.registry.url", registry), false)
              .deserializer()
              .deserialize(poison.getTopic(), poison.getRaw().array());
      assertThat(back.getDeploymentId()).isEqualTo("poison");
      DeadLetter map =
          letters.stream().filter(l -> l.getStage().equals("sink.map")).findFirst().orElseThrow();
      assertThat(map.getErrorMessage()).contains("event_time").contains("2200-01-01");

      // Replay the same offsets with a new group: rows are written again, readers (FINAL) and
      // uniqExact on the natural keys still see each key once.
      String replay = SpecwatchContainers.uniqueName("it-sink-replay");
      SinkStats again = run(config(bootstrap, registry, topics, dlq, replay, ch), sql);
      assertThat(again.rowsInserted()).isEqualTo(first.rowsInserted());
      assertTables(sql, db);
      assertValues(sql, db);
      assertThat(number(sql, "SELECT count() FROM " + db + ".decode_events"))
          .isBetween((long) EVENTS, 2L * EVENTS);
      assertThat(committed(admin, replay)).isEqualTo(endOffsets(admin, partitions));
    }
  }

  private static void assertTables(ClickHouseSql sql, String db) {
    assertCounts(sql, db + ".decode_events", "event_id", EVENTS);
    assertCounts(
        sql,
        db + ".window_results",
        "deployment_id, prompt_category, batch_bucket, spec_enabled, window_start",
        WINDOWS);
    assertCounts(sql, db + ".request_acceptance", "event_id", REQUESTS);
    assertCounts(sql, db + ".alerts", "alert_id", ALERTS);
    assertCounts(sql, db + ".run_contexts", "context_id", CONTEXTS);
    assertThat(
            number(
                sql,
                "SELECT count() FROM "
                    + db
                    + ".decode_events WHERE deployment_id IN ('poison', 'aborted')"))
        .isZero();
  }

  private static void assertCounts(ClickHouseSql sql, String table, String key, long expected) {
    assertThat(number(sql, "SELECT count() FROM " + table + " FINAL"))
        .as(table)
        .isEqualTo(expected);
    assertThat(number(sql, "SELECT uniqExact(" + key + ") FROM " + table))
        .as(table + " distinct keys")
        .isEqualTo(expected);
  }

  private static void assertValues(ClickHouseSql sql, String db) {
    Map<String, String> e =
        row(sql, "SELECT * FROM " + db + ".decode_events FINAL WHERE event_id = 'ev-7'");
    assertThat(e)
        .containsEntry("deployment_id", "dep-3")
        .containsEntry("engine", "SGLANG")
        .containsEntry("kind", "INTERVAL")
        .containsEntry("event_time", "2026-03-14 02:00:07")
        .containsEntry("event_time_ms", Long.toString(BASE.plusMillis(7250).toEpochMilli()))
        .containsEntry("source_offset", "1024")
        .containsEntry("cycles", "480")
        .containsEntry("accept_length", "2")
        .containsEntry("verify_ms", "28.96")
        .containsEntry("cuda_graph", "1")
        .containsEntry("accept_rate", null)
        .containsEntry("per_position_acceptance", "[0.7,0.3]")
        .containsEntry("per_position_accepted", "[7,3]")
        .containsEntry("raw_fields_keys", "['#running-req','accept len']")
        .containsEntry("raw_fields_values", "['12','2.00']");
    Map<String, String> w =
        row(
            sql,
            "SELECT * FROM "
                + db
                + ".window_results FINAL WHERE window_start = toDateTime('2026-03-14 02:03:00', 'UTC')");
    assertThat(w)
        .containsEntry("deployment_id", "dep-3")
        .containsEntry("prompt_category", "code")
        .containsEntry("events", "13")
        .containsEntry("mean_accept_length", "2.25")
        .containsEntry("accept_rate", null)
        .containsEntry("per_position_acceptance", "[0.75,0.5]")
        .containsEntry("baseline_source", "static:it");
    Map<String, String> r =
        row(sql, "SELECT * FROM " + db + ".request_acceptance FINAL WHERE event_id = 'r3'");
    assertThat(r)
        .containsEntry("request_id", "req-r3")
        .containsEntry("prompt_category", "code")
        .containsEntry("draft_model_version", "eagle3-v2")
        .containsEntry("accept_length", "2")
        .containsEntry("accept_histogram", "[30,40,30]")
        .containsEntry("prompt_ref", null);
    Map<String, String> a = row(sql, "SELECT * FROM " + db + ".alerts FINAL WHERE alert_id = 'a2'");
    assertThat(a)
        .containsEntry("type", "SPEC_BELOW_BASELINE")
        .containsEntry("state", "RAISED")
        .containsEntry("window_start", "2026-03-14 02:02:00")
        .containsEntry("observed", "0.73")
        .containsEntry("evidence_keys", "['tau','tau_star']");
    Map<String, String> c =
        row(sql, "SELECT * FROM " + db + ".run_contexts FINAL WHERE context_id = 'c0'");
    assertThat(c)
        .containsEntry("spec_method", "EAGLE3")
        .containsEntry("tp", "8")
        .containsEntry("cuda_graph", "0")
        .containsEntry("env_keys", "['NCCL_IB_DISABLE','NCCL_P2P_LEVEL']")
        .containsEntry("env_values", "['1','NVL']");
  }

  static DecodeEvent event(int i, String deployment) {
    return DecodeEvent.newBuilder(
            RowMappingsTest.decodeEvent("ev-" + i, BASE.plusMillis(1000L * i + 250)))
        .setDeploymentId(deployment)
        .build();
  }

  static WindowResult window(int i) {
    return WindowResult.newBuilder()
        .setDeploymentId("dep-" + (i % 4))
        .setPromptCategory(i % 2 == 0 ? "chat" : "code")
        .setBatchBucket("*")
        .setWindowStart(BASE.plusSeconds(60L * i))
        .setWindowEnd(BASE.plusSeconds(60L * i + 60))
        .setEvents(10 + i)
        .setCycles(100 + i)
        .setMeanAcceptLength(1.5 + i * 0.25)
        .setAcceptRate(i % 3 == 0 ? null : 0.25)
        .setPerPositionAcceptance(List.of(0.75, 0.5))
        .setSpeedup(0.8)
        .setBaselineSource("static:it")
        .build();
  }

  static SinkConfig config(
      String bootstrap,
      String registry,
      Map<SinkTable, String> topics,
      String dlq,
      String group,
      ClickHouseConfig ch) {
    return new SinkConfig(
        bootstrap,
        registry,
        topics,
        dlq,
        group,
        ch,
        64, // several size-triggered batches per table
        Duration.ofMillis(500),
        Optional.of(Duration.ofSeconds(4)),
        Backoff.DEFAULT,
        InsertFormat.ROW_BINARY,
        Map.of());
  }

  private static SinkStats run(SinkConfig config, ClickHouseSql sql) {
    try (ClickHouseSink sink = new ClickHouseSink(config, sql)) {
      return sink.run();
    }
  }

  static List<DeadLetter> deadLetters(
      String bootstrap, String registry, String topic, int atLeast) {
    Map<String, Object> p =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG,
            SpecwatchContainers.uniqueName("it-dlq"),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest");
    List<DeadLetter> out = new ArrayList<>();
    try (KafkaConsumer<String, DeadLetter> consumer =
        new KafkaConsumer<>(
            p,
            new StringDeserializer(),
            AvroSerde.forClass(DeadLetter.class, Map.of("schema.registry.url", registry), false)
                .deserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (out.size() < atLeast && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, DeadLetter> r : consumer.poll(Duration.ofMillis(500))) {
          out.add(r.value());
        }
      }
    }
    return out;
  }
}
