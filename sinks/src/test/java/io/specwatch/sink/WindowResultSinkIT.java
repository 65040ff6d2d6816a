package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.testkit.SpecwatchContainers;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Real broker, registry and ClickHouse: exact rows, idempotent replay, committed offsets. */
class WindowResultSinkIT {

  private static final int N = 60;
  private static final int PARTITIONS = 3;
  private static final Instant BASE = Instant.parse("2026-03-14T02:00:00Z");

  @Test
  void insertsExactlyTheCommittedRecordsAndAReplayAddsNoVisibleRows() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.window-results");
    String db = SpecwatchContainers.uniqueName("it_sink");
    ClickHouseConfig ch =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
      produce(bootstrap, registry, topic);

      try (ClickHouseSql sql = new ClickHouseSql(ch)) {
        Migrator.withBundledMigrations(sql, db).migrate();
        WindowQueries queries = new WindowQueries(sql, db);

        String group = SpecwatchContainers.uniqueName("it-sink");
        SinkStats first = runUntilIdle(config(bootstrap, registry, topic, group, ch), sql);
        assertThat(first.rowsInserted()).isEqualTo(N);
        assertThat(first.deadLetters()).isZero();
        assertThat(queries.countRaw()).isEqualTo(N);
        assertThat(queries.countFinal()).isEqualTo(N);
        assertThat(queries.distinctKeys()).isEqualTo(N);
        assertRowValues(queries);
        assertThat(committed(admin, group)).isEqualTo(endOffsets(admin, topic));

        // Same group again: everything is committed, nothing is read or inserted.
        SinkStats again = runUntilIdle(config(bootstrap, registry, topic, group, ch), sql);
        assertThat(again.recordsPolled()).isZero();
        assertThat(queries.countRaw()).isEqualTo(N);

        // Replay the same offsets from the beginning with a new group: rows are written again,
        // readers (FINAL) still see each natural key once.
        String replayGroup = SpecwatchContainers.uniqueName("it-sink-replay");
        SinkStats replay = runUntilIdle(config(bootstrap, registry, topic, replayGroup, ch), sql);
        assertThat(replay.rowsInserted()).isEqualTo(N);
        assertThat(queries.countFinal()).isEqualTo(N);
        assertThat(queries.distinctKeys()).isEqualTo(N);
        assertThat(queries.countRaw()).isBetween((long) N, 2L * N);
        assertRowValues(queries);
        assertThat(committed(admin, replayGroup)).isEqualTo(endOffsets(admin, topic));
      }
    }
  }

  private static SinkConfig config(
      String bootstrap, String registry, String topic, String group, ClickHouseConfig ch) {
    return new SinkConfig(
        bootstrap,
        registry,
        topic,
        group,
        ch,
        25, // several size-triggered batches
        Duration.ofMillis(500),
        Optional.of(Duration.ofSeconds(4)),
        Backoff.DEFAULT,
        Map.of());
  }

  private static SinkStats runUntilIdle(SinkConfig config, ClickHouseSql sql) {
    try (WindowResultSink sink = new WindowResultSink(config, sql)) {
      return sink.run();
    }
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

  /** N committed records over two transactions, plus an aborted one that must never show up. */
  private static void produce(String bootstrap, String registry, String topic) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-producer");
    try (KafkaProducer<String, WindowResult> producer =
        new KafkaProducer<>(
            p,
            new StringSerializer(),
            AvroSerde.forClass(WindowResult.class, Map.of("schema.registry.url", registry), false)
                .serializer())) {
      producer.initTransactions();
      producer.beginTransaction();
      for (int i = 0; i < N / 2; i++) {
        send(producer, topic, window(i));
      }
      producer.commitTransaction();
      producer.beginTransaction();
      for (int i = 0; i < 5; i++) {
        send(
            producer,
            topic,
            WindowResult.newBuilder(window(i)).setDeploymentId("aborted-" + i).build());
      }
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      for (int i = N / 2; i < N; i++) {
        send(producer, topic, window(i));
      }
      producer.commitTransaction();
    }
  }

  private static void send(
      KafkaProducer<String, WindowResult> producer, String topic, WindowResult w) {
    producer.send(new ProducerRecord<>(topic, w.getDeploymentId(), w));
  }

  private static void assertRowValues(WindowQueries queries) {
    List<List<String>> rows = queries.allColumns(Optional.of("dep-3"));
    List<String> header = rows.get(0);
    assertThat(rows).hasSize(1 + N / 4);
    List<String> first = rows.get(1); // window(3): dep-3, code, minute 3
    Map<String, String> row = new HashMap<>();
    for (int c = 0; c < header.size(); c++) {
      row.put(header.get(c), first.get(c));
    }
    assertThat(row)
        .containsEntry("deployment_id", "dep-3")
        .containsEntry("prompt_category", "code")
        .containsEntry("batch_bucket", "*")
        .containsEntry("window_start", "2026-03-14 02:03:00")
        .containsEntry("window_end", "2026-03-14 02:04:00")
        .containsEntry("events", "13")
        .containsEntry("cycles", "103")
        .containsEntry("spec_enabled", "1")
        .containsEntry("mean_accept_length", "2.25")
        .containsEntry("accept_rate", null)
        .containsEntry("per_position_acceptance", "[0.75,0.5]")
        .containsEntry("speedup", "0.8")
        .containsEntry("baseline_source", "static:it")
        .containsEntry("run_context_id", null);
    assertThat(row.get("kafka_topic")).startsWith("it.window-results");
    assertThat(rows.subList(1, rows.size()))
        .extracting(r -> r.get(0))
        .allMatch(d -> d.equals("dep-3"));
  }

  private static Map<TopicPartition, Long> committed(Admin admin, String group) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return offsets.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
  }

  private static Map<TopicPartition, Long> endOffsets(Admin admin, String topic) throws Exception {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (int p = 0; p < PARTITIONS; p++) {
      request.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
        admin.listOffsets(request).all().get();
    return result.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
  }
}
