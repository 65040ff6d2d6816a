package io.specwatch.sink;

import static io.specwatch.sink.SinkItSupport.committed;
import static io.specwatch.sink.SinkItSupport.number;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.sink.cli.SinkCli;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import io.specwatch.sink.migrate.Migrator;
import io.specwatch.sink.rows.RowMappingsTest;
import io.specwatch.testkit.SpecwatchContainers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.IntStream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code sink replay --from --to} selects by event time on the real broker, registry and
 * ClickHouse.
 *
 * <p>Window results on a topic created as streams-app creates it ({@code LogAppendTime}): windows
 * of March 2026 appended now, so their record time says nothing about the range. The replay of
 * [09:10, 09:20) loads exactly the windows starting then, also those appended after out-of-range
 * ones (windows recomputed later); a second replay adds no visible row; the live group's offsets
 * stay as they were; a replay by record time selects by append time instead.
 *
 * <p>Decode events on a CreateTime topic stamped by the shipper at send time: an old log shipped
 * hours later lands after out-of-range events and is loaded; an event stamped before {@code --from}
 * by a clock running behind is loaded thanks to {@code --max-clock-skew}, and reported when it runs
 * ahead by more than that.
 */
class ReplayRangeIT {

  private static final Instant T0 = Instant.parse("2026-03-14T09:00:00Z");
  private static final Instant FROM = T0.plusSeconds(600);
  private static final Instant TO = T0.plusSeconds(1200);

  @Test
  void replaysTheWindowsOfAnEventTimeRangeFromALogAppendTimeTopic() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.replay.window-results");
    String dlq = SpecwatchContainers.uniqueName("it.replay.dead-letter");
    String db = SpecwatchContainers.uniqueName("it_replay");
    String byRecordDb = SpecwatchContainers.uniqueName("it_replay_rt");
    String group = SpecwatchContainers.uniqueName("it-live");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  // as streams-app's TopicBootstrap creates result topics (default retention)
                  new NewTopic(topic, 2, (short) 1)
                      .configs(Map.of("message.timestamp.type", "LogAppendTime")),
                  new NewTopic(dlq, 1, (short) 1)))
          .all()
          .get();
      Instant appendedAfter = Instant.now().minusSeconds(1);
      // windows 0..29 of dep-a (09:00..09:29), alternating partitions, stamped like Streams does
      // (window end) and re-stamped by the broker with the append time
      List<ProducerRecord<String, WindowResult>> first = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        first.add(windowRecord(topic, i % 2, window("dep-a", i)));
      }
      send(bootstrap, registry, WindowResult.class, first);
      // later: windows recomputed after a reset, out of range (dep-b 09:30..09:39) then in range
      // (dep-c 09:12, 09:13, 09:19, 09:20): in-range records after out-of-range ones
      List<ProducerRecord<String, WindowResult>> later = new ArrayList<>();
      for (int i = 30; i < 40; i++) {
        later.add(windowRecord(topic, i % 2, window("dep-b", i)));
      }
      for (int i : new int[] {12, 13, 19, 20}) {
        later.add(windowRecord(topic, i % 2, window("dep-c", i)));
      }
      send(bootstrap, registry, WindowResult.class, later);
      assertAppendedAfter(bootstrap, topic, appendedAfter, 44);

      // the live sink's group has positions of its own
      Map<TopicPartition, OffsetAndMetadata> live =
          Map.of(
              new TopicPartition(topic, 0), new OffsetAndMetadata(3),
              new TopicPartition(topic, 1), new OffsetAndMetadata(4));
      admin.alterConsumerGroupOffsets(group, live).all().get();

      String[] args = args(topic, dlq, group, bootstrap, registry, db, FROM, TO, "event-time");
      assertThat(SinkCli.execute(args)).isZero();

      ClickHouseConfig ch =
          ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
      List<String> expected = new ArrayList<>();
      IntStream.range(10, 20).forEach(i -> expected.add(key("dep-a", i)));
      expected.add(key("dep-c", 12));
      expected.add(key("dep-c", 13));
      expected.add(key("dep-c", 19));
      String keys =
          "SELECT concat(deployment_id, '@', toString(window_start)) AS k FROM "
              + db
              + ".window_results FINAL ORDER BY k";
      try (ClickHouseSql sql = new ClickHouseSql(ch)) {
        String table = db + ".window_results";
        // exactly these rows, none other inserted (count without FINAL)
        assertThat(number(sql, "SELECT count() FROM " + table)).isEqualTo(13);
        assertThat(column(sql, keys)).containsExactlyElementsOf(sorted(expected));

        assertThat(SinkCli.execute(args)).isZero();

        assertThat(number(sql, "SELECT count() FROM " + table + " FINAL")).isEqualTo(13);
        assertThat(column(sql, keys)).containsExactlyElementsOf(sorted(expected));
        assertThat(number(sql, "SELECT sum(events) FROM " + table + " FINAL"))
            .isEqualTo(IntStream.range(10, 20).sum() + 12 + 13 + 19);
      }
      assertThat(committed(admin, group))
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(new TopicPartition(topic, 0), 3L, new TopicPartition(topic, 1), 4L));
      // the replay group read to the end offsets seen at assignment (22 records per partition)
      assertThat(committed(admin, group + "-replay"))
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(new TopicPartition(topic, 0), 22L, new TopicPartition(topic, 1), 22L));

      // by record time the same range holds nothing (everything was appended now), while the
      // range around now holds every record
      String[] march =
          args(topic, dlq, group, bootstrap, registry, byRecordDb, FROM, TO, "record-time");
      assertThat(SinkCli.execute(march)).isZero();
      String[] now =
          args(
              topic,
              dlq,
              group,
              bootstrap,
              registry,
              byRecordDb,
              appendedAfter,
              Instant.now().plusSeconds(60),
              "record-time");
      ClickHouseConfig rt =
          ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", byRecordDb);
      try (ClickHouseSql sql = new ClickHouseSql(rt)) {
        String table = byRecordDb + ".window_results";
        assertThat(number(sql, "SELECT count() FROM " + table)).isZero();
        assertThat(SinkCli.execute(now)).isZero();
        assertThat(number(sql, "SELECT count() FROM " + table + " FINAL")).isEqualTo(44);
      }
    }
  }

  @Test
  void replaysDecodeEventsShippedLateOrStampedEarlyFromACreateTimeTopic() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.replay.decode-events");
    String dlq = SpecwatchContainers.uniqueName("it.replay.dead-letter");
    String db = SpecwatchContainers.uniqueName("it_replay_ev");
    String group = SpecwatchContainers.uniqueName("it-replay-ev");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  // CreateTime, as the shipper's topics; March 2026 stamps: keep them
                  new NewTopic(topic, 1, (short) 1).configs(Map.of("retention.ms", "-1")),
                  new NewTopic(dlq, 1, (short) 1)))
          .all()
          .get();
      List<ProducerRecord<String, DecodeEvent>> records = new ArrayList<>();
      // events e0..e29 at 09:00..09:29, each shipped 5 s after it happened
      for (int i = 0; i < 10; i++) {
        records.add(eventRecord(topic, "e" + i, T0.plusSeconds(60L * i), 5));
      }
      // 09:10:30 stamped at 09:08:30: the shipper's clock 2 min behind the engine's (offset 10,
      // before the first record stamped at or after 09:10)
      records.add(eventRecord(topic, "skewed", FROM.plusSeconds(30), -120));
      for (int i = 10; i < 30; i++) {
        records.add(eventRecord(topic, "e" + i, T0.plusSeconds(60L * i), 5));
      }
      // at 11:00 an out-of-range log (09:40..09:44), then an old log of the range (09:15..09:17)
      // shipped from 12:00
      for (int i = 40; i < 45; i++) {
        records.add(eventRecord(topic, "late-out" + i, T0.plusSeconds(60L * i), 7200));
      }
      for (int i = 15; i < 18; i++) {
        records.add(eventRecord(topic, "late-in" + i, T0.plusSeconds(60L * i), 10800));
      }
      send(bootstrap, registry, DecodeEvent.class, records);

      ClickHouseConfig ch =
          ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", db);
      List<String> expected = new ArrayList<>(List.of("skewed", "late-in15", "late-in16"));
      expected.add("late-in17");
      IntStream.range(10, 20).forEach(i -> expected.add("e" + i));
      try (ClickHouseSql sql = new ClickHouseSql(ch)) {
        Migrator.withBundledMigrations(sql, db).migrate();
        ReplayStats stats = replay(bootstrap, registry, topic, dlq, group, ch, sql, null);
        // default --max-clock-skew (1 h): the scan starts at offset 0, reads all 39 records
        assertThat(stats).isEqualTo(new ReplayStats(39, 14, 0, Duration.ZERO));
        String ids = "SELECT event_id FROM " + db + ".decode_events FINAL ORDER BY event_id";
        assertThat(number(sql, "SELECT count() FROM " + db + ".decode_events")).isEqualTo(14);
        assertThat(column(sql, ids)).containsExactlyElementsOf(sorted(expected));

        // --max-clock-skew 1m: starts at 09:09 (e9, offset 9), still reads the skewed event (2
        // min ahead of its stamp) and reports it; loads nothing new
        ReplayStats narrow =
            replay(bootstrap, registry, topic, dlq, group, ch, sql, Duration.ofMinutes(1));
        assertThat(narrow).isEqualTo(new ReplayStats(30, 14, 1, Duration.ofMinutes(2)));
        assertThat(number(sql, "SELECT count() FROM " + db + ".decode_events FINAL")).isEqualTo(14);
        assertThat(column(sql, ids)).containsExactlyElementsOf(sorted(expected));
      }
    }
  }

  private static ReplayStats replay(
      String bootstrap,
      String registry,
      String topic,
      String dlq,
      String group,
      ClickHouseConfig ch,
      ClickHouseSql sql,
      Duration maxClockSkew) {
    ReplayRange range =
        maxClockSkew == null
            ? ReplayRange.eventTime(FROM, TO)
            : new ReplayRange(FROM, TO, ReplayRange.By.EVENT_TIME, maxClockSkew, Optional.empty());
    SinkConfig config =
        ClickHouseSinkIT.config(
            bootstrap, registry, Map.of(SinkTable.DECODE_EVENTS, topic), dlq, group, ch);
    try (ClickHouseSink sink = new ClickHouseSink(config, sql, SinkListener.NONE, range)) {
      SinkStats stats = sink.run();
      assertThat(stats.deadLetters()).isZero();
      return sink.replayStats().orElseThrow();
    }
  }

  private static String[] args(
      String topic,
      String dlq,
      String group,
      String bootstrap,
      String registry,
      String db,
      Instant from,
      Instant to,
      String by) {
    return new String[] {
      "replay",
      "--from",
      from.toString(),
      "--to",
      to.toString(),
      "--by",
      by,
      "--tables",
      "window_results",
      "--window-results-topic",
      topic,
      "--dead-letter-topic",
      dlq,
      "--group-id",
      group,
      "--bootstrap",
      bootstrap,
      "--registry-url",
      registry,
      "--clickhouse-url",
      SpecwatchContainers.clickhouseHttpUrl(),
      "--database",
      db,
      "--health-port",
      "-1"
    };
  }

  private static WindowResult window(String deployment, int minute) {
    Instant start = T0.plusSeconds(60L * minute);
    return WindowResult.newBuilder(ClickHouseSinkIT.window(0))
        .setDeploymentId(deployment)
        .setWindowStart(start)
        .setWindowEnd(start.plusSeconds(60))
        .setEvents(minute)
        .build();
  }

  private static String key(String deployment, int minute) {
    // ClickHouse's toString(DateTime) in the server's zone (UTC in the test image)
    return deployment
        + "@"
        + T0.plusSeconds(60L * minute).toString().replace('T', ' ').replace("Z", "");
  }

  private static ProducerRecord<String, WindowResult> windowRecord(
      String topic, int partition, WindowResult w) {
    return new ProducerRecord<>(
        topic, partition, w.getWindowEnd().toEpochMilli(), w.getDeploymentId(), w);
  }

  private static ProducerRecord<String, DecodeEvent> eventRecord(
      String topic, String id, Instant eventTime, long shippedAfterSeconds) {
    DecodeEvent e = RowMappingsTest.decodeEvent(id, eventTime);
    return new ProducerRecord<>(
        topic,
        0,
        eventTime.plusSeconds(shippedAfterSeconds).toEpochMilli(),
        e.getDeploymentId(),
        e);
  }

  private static <V extends SpecificRecord> void send(
      String bootstrap, String registry, Class<V> type, List<ProducerRecord<String, V>> records) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1); // keep the order
    try (KafkaProducer<String, V> producer =
        new KafkaProducer<>(
            p,
            new StringSerializer(),
            AvroSerde.forClass(type, Map.of("schema.registry.url", registry), false)
                .serializer())) {
      for (ProducerRecord<String, V> r : records) {
        producer.send(r);
      }
      producer.flush();
    }
  }

  /** The topic's records carry append times, not the window ends the producer stamped. */
  private static void assertAppendedAfter(
      String bootstrap, String topic, Instant after, int count) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> tps =
          List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
      consumer.assign(tps);
      consumer.seekToBeginning(tps);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (read.size() < count && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(read::add);
      }
    }
    assertThat(read).hasSize(count);
    assertThat(read)
        .allSatisfy(
            r -> {
              assertThat(r.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
              assertThat(r.timestamp()).isGreaterThanOrEqualTo(after.toEpochMilli());
            });
  }

  private static List<String> column(ClickHouseSql sql, String select) {
    List<List<String>> rows = sql.queryTsvWithNames(select);
    return rows.subList(1, rows.size()).stream().map(r -> r.get(0)).toList();
  }

  private static List<String> sorted(List<String> values) {
    return values.stream().sorted().toList();
  }
}
