package io.specwatch.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipResult;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.AvroDeserializer;
import io.specwatch.serde.HttpSchemaRegistryClient;
import io.specwatch.serde.RegistryConfig;
import io.specwatch.serde.SchemaRegistryClient;
import io.specwatch.serde.SchemaRegistryException;
import io.specwatch.serde.WireFormat;
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
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Schema evolution against the real registry (Apicurio, global rule BACKWARD) and the real broker
 * and ClickHouse. v2 of {@code DecodeEvent} is v1 plus one optional field with a default ({@code
 * gpuSku}, test-only, built from the generated v1 schema); it is registered next to v1 under the
 * topic's subject.
 *
 * <ul>
 *   <li>(a) v1 producer, v2 consumer: the current shipper writes v1 (before and after v2 is
 *       registered); a consumer built for v2 (reader schema v2, writer schema by the record's id,
 *       Avro resolution, as {@code AvroDeserializer} does) loads every event into ClickHouse,
 *       committing after the insert; every new field reads as its default.
 *   <li>(b) v2 producer, v1 consumers: a GenericRecord producer writes the same events as v2 (new
 *       field set) under the v2 schema id; the current streams-app windows them and the current
 *       sink loads decode events and windows into ClickHouse.
 * </ul>
 *
 * In both, ClickHouse holds every event id that went in exactly once (no id missing, none twice,
 * none extra) and nothing is dead-lettered. Negative controls: an incompatible v3 (a new required
 * field without default) is rejected by the registry with an error naming the subject; the oracle
 * reports a dropped and a duplicated id.
 */
class SchemaEvolutionFaultIT {

  static final String NEW_FIELD = "gpuSku";

  private static ExecutorService pool;
  private static SchemaRegistryClient registry;
  private static Admin admin;
  private static String bootstrap;
  private static String registryUrl;

  @BeforeAll
  static void services() {
    bootstrap = SpecwatchContainers.kafkaBootstrap();
    registryUrl = SpecwatchContainers.registryUrl();
    SpecwatchContainers.clickhouse();
    registry =
        new HttpSchemaRegistryClient(
            RegistryConfig.from(Map.of("schema.registry.url", registryUrl)));
    admin = Admin.create(Map.of("bootstrap.servers", bootstrap));
    pool = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void close() {
    if (pool != null) {
      pool.shutdownNow();
    }
    if (admin != null) {
      admin.close();
    }
    if (registry != null) {
      registry.close();
    }
  }

  /** v1 plus an optional string with default null, appended last. */
  static Schema v2() {
    return withField(
        new Schema.Field(
            NEW_FIELD,
            Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING)),
            "GPU model of the host (v2, test-only); null when the producer did not know it.",
            Schema.Field.NULL_DEFAULT_VALUE));
  }

  /** v1 plus a required string without a default: old data cannot be read with it. */
  static Schema v3Incompatible() {
    return withField(
        new Schema.Field(
            "requiredNewField",
            Schema.create(Schema.Type.STRING),
            "required, no default (incompatible)"));
  }

  private static Schema withField(Schema.Field added) {
    Schema v1 = DecodeEvent.getClassSchema();
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field f : v1.getFields()) {
      fields.add(new Schema.Field(f, f.schema()));
    }
    fields.add(added);
    Schema s = Schema.createRecord(v1.getName(), v1.getDoc(), v1.getNamespace(), false, fields);
    v1.getObjectProps().forEach(s::addProp);
    return s;
  }

  /** {@code n} SGLang decode lines, one per second from {@code start}: several closed windows. */
  static List<String> log(LocalDateTime start, int n) {
    DateTimeFormatter f = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int running = 2 + (i % 7);
      lines.add(
          "["
              + f.format(start.plusSeconds(i))
              + " TP0] Decode batch. #running-req: "
              + running
              + ", #token: "
              + (300 * running + i)
              + ", token usage: 0.02, accept len: "
              + String.format(java.util.Locale.ROOT, "%.2f", 1.5 + (i % 5) * 0.25)
              + ", gen throughput (token/s): "
              + (100 + (i % 11) * 20)
              + ".00, #queue-req: 0, ");
    }
    return lines;
  }

  /**
   * The zero-loss oracle: what is wrong with what arrived, by event id. Empty when every id that
   * went in arrived exactly once and nothing else arrived.
   */
  static List<String> problems(Set<String> wentIn, Map<String, Long> arrivedCounts) {
    List<String> problems = new ArrayList<>();
    for (String id : wentIn) {
      long n = arrivedCounts.getOrDefault(id, 0L);
      if (n != 1) {
        problems.add(id + (n == 0 ? " missing" : " arrived " + n + " times"));
      }
    }
    for (String id : arrivedCounts.keySet()) {
      if (!wentIn.contains(id)) {
        problems.add(id + " arrived but never went in");
      }
    }
    return problems;
  }

  /** event_id -> rows, without FINAL: a duplicate the table would merge away still counts. */
  static Map<String, Long> arrived(ClickHouseSql sql, String qualifiedTable) {
    Map<String, Long> counts = new TreeMap<>();
    List<List<String>> rows =
        sql.queryTsvWithNames(
            "SELECT event_id, count() AS n FROM " + qualifiedTable + " GROUP BY event_id");
    for (List<String> row : rows.subList(1, rows.size())) {
      counts.put(row.get(0), Long.parseLong(row.get(1)));
    }
    return counts;
  }

  private static void createTopics(String... names) throws Exception {
    List<NewTopic> topics = new ArrayList<>();
    for (String t : names) {
      topics.add(
          t.contains("windows")
              ? new NewTopic(t, 3, (short) 1)
                  .configs(Map.of("message.timestamp.type", "LogAppendTime"))
              : new NewTopic(t, 3, (short) 1));
    }
    admin.createTopics(topics).all().get(30, TimeUnit.SECONDS);
  }

  /**
   * The committed records of a topic, read from the start to its current end (end offsets count
   * transaction markers too, so they are not a record count).
   */
  private static long records(String topic) {
    Map<String, Object> props = new HashMap<>();
    props.put("bootstrap.servers", bootstrap);
    props.put("isolation.level", "read_committed");
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      c.partitionsFor(topic).forEach(p -> parts.add(new TopicPartition(topic, p.partition())));
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long n = 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
        assertThat(System.nanoTime()).as("reading " + topic + " to its end").isLessThan(deadline);
        n += c.poll(Duration.ofMillis(200)).count();
      }
      return n;
    }
  }

  /** Every committed record of a topic, raw, until {@code expected} are read (or 60 s pass). */
  private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic, long expected) {
    Map<String, Object> props = new HashMap<>();
    props.put("bootstrap.servers", bootstrap);
    props.put("isolation.level", "read_committed");
    props.put("auto.offset.reset", "earliest");
    props.put("group.id", SpecwatchContainers.uniqueName("evolution-reader"));
    props.put("enable.auto.commit", "false");
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(List.of(topic));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (out.size() < expected && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(500)).forEach(out::add);
      }
    }
    return out;
  }

  private static Path ship(Path dir, String name, List<String> lines, String topic, String dlq)
      throws Exception {
    Path file = Files.write(dir.resolve(name), lines, StandardCharsets.UTF_8);
    ShipResult shipped =
        new LogFileShipper(
                new ShipConfig(
                    bootstrap,
                    registryUrl,
                    topic,
                    dlq,
                    "evolution",
                    "gpu-host-1",
                    NormaliseConfig.defaults(),
                    Map.of()))
            .ship(file);
    assertThat(shipped.recognised()).isEqualTo(lines.size());
    assertThat(shipped.deadLettered()).isZero();
    return file;
  }

  @Test
  void v1ProducerWithV2ConsumerLosesAndDuplicatesNothing(@TempDir Path tmp) throws Exception {
    String events = SpecwatchContainers.uniqueName("evo-a-events");
    String dlq = SpecwatchContainers.uniqueName("evo-a-dlq");
    createTopics(events, dlq);
    String subject = events + "-value";
    LocalDateTime t0 = LocalDateTime.of(2025, 3, 14, 2, 0, 0);

    // the current shipper writes v1 (registering it), then v2 is registered next to it (consumers
    // upgrade first under BACKWARD) and the shipper keeps writing v1
    ship(tmp, "before.log", log(t0, 60), events, dlq);
    int v1Id = registry.lookup(subject, DecodeEvent.getClassSchema()).id();
    int v2Id = registry.register(subject, v2());
    assertThat(v2Id).isNotEqualTo(v1Id);
    ship(tmp, "after.log", log(t0.plusMinutes(1), 60), events, dlq);

    // what went in: every committed record, read with the current (v1) deserializer
    Set<String> wentIn = new TreeSet<>();
    try (AvroDeserializer<DecodeEvent> v1 = new AvroDeserializer<>(DecodeEvent.class, registry)) {
      for (ConsumerRecord<byte[], byte[]> r : readAll(events, 120)) {
        wentIn.add(v1.deserialize(events, r.value()).getEventId().toString());
      }
    }
    assertThat(wentIn).hasSize(120);

    // the v2 consumer: reader schema v2, loads (event_id, gpu_sku) into ClickHouse, commits after
    String database = SpecwatchContainers.uniqueName("evo_a").replace('-', '_');
    ClickHouseConfig clickhouse =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", database);
    try (ClickHouseSql sql = new ClickHouseSql(clickhouse)) {
      sql.execute("CREATE DATABASE IF NOT EXISTS " + database);
      sql.execute(
          "CREATE TABLE "
              + database
              + ".decode_events_v2 (event_id String, gpu_sku Nullable(String), schema_id UInt32)"
              + " ENGINE = MergeTree ORDER BY event_id");
      int loaded = runV2Consumer(events, sql, database + ".decode_events_v2", 120);
      assertThat(loaded).isEqualTo(120);

      Map<String, Long> arrived = arrived(sql, database + ".decode_events_v2");
      assertThat(problems(wentIn, arrived)).as("lost, duplicated or extra event ids").isEmpty();
      // v1 data read with v2: the new field is its default, and both writer ids were seen
      List<List<String>> defaults =
          sql.queryTsvWithNames(
              "SELECT countIf(gpu_sku IS NULL) AS nulls, uniqExact(schema_id) AS ids FROM "
                  + database
                  + ".decode_events_v2");
      assertThat(defaults.get(1)).containsExactly("120", "1");
    }
    assertThat(records(dlq)).as("dead-lettered").isZero();
  }

  /** A consumer built for v2: the writer schema by id, resolved to the v2 reader schema. */
  private static int runV2Consumer(String topic, ClickHouseSql sql, String table, int expected) {
    Schema reader = v2();
    Map<Integer, GenericDatumReader<GenericRecord>> readers = new HashMap<>();
    Map<String, Object> props = new HashMap<>();
    props.put("bootstrap.servers", bootstrap);
    props.put("isolation.level", "read_committed");
    props.put("auto.offset.reset", "earliest");
    props.put("group.id", SpecwatchContainers.uniqueName("evo-v2-consumer"));
    props.put("enable.auto.commit", "false");
    props.put("max.poll.records", "50");
    int loaded = 0;
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      c.subscribe(List.of(topic));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (loaded < expected && System.nanoTime() < deadline) {
        StringBuilder json = new StringBuilder();
        int batch = 0;
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
          ByteBuffer buffer = ByteBuffer.wrap(r.value());
          int id = WireFormat.readSchemaId(topic, buffer);
          GenericDatumReader<GenericRecord> datumReader =
              readers.computeIfAbsent(
                  id, i -> new GenericDatumReader<>(registry.getSchemaById(i), reader));
          GenericRecord e;
          try {
            e =
                datumReader.read(
                    null,
                    DecoderFactory.get()
                        .binaryDecoder(r.value(), buffer.position(), buffer.remaining(), null));
          } catch (java.io.IOException ex) {
            throw new IllegalStateException("v2 consumer cannot read " + r, ex);
          }
          Object sku = e.get(NEW_FIELD);
          json.append("{\"event_id\":\"")
              .append(e.get("eventId"))
              .append("\",\"gpu_sku\":")
              .append(sku == null ? "null" : "\"" + sku + "\"")
              .append(",\"schema_id\":")
              .append(id)
              .append("}\n");
          batch++;
        }
        if (batch > 0) {
          sql.insertJsonEachRow(table, json.toString().getBytes(StandardCharsets.UTF_8));
          c.commitSync();
          loaded += batch;
        }
      }
    }
    return loaded;
  }

  @Test
  void v2ProducerWithTheCurrentStreamsAppAndSinkLosesAndDuplicatesNothing(@TempDir Path tmp)
      throws Exception {
    // the v1 events to re-publish as v2: shipped by the current shipper to a scratch topic
    String scratch = SpecwatchContainers.uniqueName("evo-b-scratch");
    String events = SpecwatchContainers.uniqueName("evo-b-events");
    String windows = SpecwatchContainers.uniqueName("evo-b-windows");
    String dlq = SpecwatchContainers.uniqueName("evo-b-dlq");
    String contexts = SpecwatchContainers.uniqueName("evo-b-context");
    String alerts = SpecwatchContainers.uniqueName("evo-b-alerts");
    createTopics(scratch, events, windows, dlq, contexts, alerts);
    ship(tmp, "v1.log", log(LocalDateTime.of(2025, 3, 14, 2, 0, 0), 180), scratch, dlq);
    List<ConsumerRecord<byte[], byte[]>> source = readAll(scratch, 180);
    assertThat(source).hasSize(180);

    // v1 then v2 under the events topic's subject; the producer writes with v2's id
    String subject = events + "-value";
    Schema v1Schema = DecodeEvent.getClassSchema();
    Schema v2Schema = v2();
    registry.register(subject, v1Schema);
    int v2Id = registry.register(subject, v2Schema);

    Set<String> wentIn = new TreeSet<>();
    Map<String, Object> producerProps = new HashMap<>();
    producerProps.put("bootstrap.servers", bootstrap);
    producerProps.put("acks", "all");
    producerProps.put("enable.idempotence", "true");
    try (AvroDeserializer<DecodeEvent> v1 = new AvroDeserializer<>(DecodeEvent.class, registry);
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(
                producerProps, new ByteArraySerializer(), new ByteArraySerializer())) {
      GenericDatumWriter<GenericRecord> writer = new GenericDatumWriter<>(v2Schema);
      for (ConsumerRecord<byte[], byte[]> r : source) {
        GenericRecord e = toV2(v1.deserialize(scratch, r.value()), v1Schema, v2Schema);
        e.put(NEW_FIELD, "H100-SXM");
        wentIn.add(e.get("eventId").toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(WireFormat.MAGIC_BYTE);
        out.write(ByteBuffer.allocate(4).putInt(v2Id).array());
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        writer.write(e, encoder);
        encoder.flush();
        producer.send(new ProducerRecord<>(events, r.key(), out.toByteArray())).get();
      }
    }
    assertThat(wentIn).hasSize(180);

    // the current streams-app (v1 reader) windows the v2 events
    StreamsAppConfig streamsConfig =
        new StreamsAppConfig(
            bootstrap,
            registryUrl,
            SpecwatchContainers.uniqueName("evo-app"),
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
            () -> StreamsRunner.start(streamsConfig).awaitExit(Optional.of(Duration.ofSeconds(6))));
    assertThat(streams.get(2, TimeUnit.MINUTES)).as("streams-app exit code").isZero();
    long windowRecords = records(windows);
    assertThat(windowRecords).as("window results").isPositive();

    // the current sink (v1 reader) loads decode events and windows
    String database = SpecwatchContainers.uniqueName("evo_b").replace('-', '_');
    ClickHouseConfig clickhouse =
        ClickHouseConfig.of(SpecwatchContainers.clickhouseHttpUrl(), "default", "", database);
    try (ClickHouseSql sql = new ClickHouseSql(clickhouse)) {
      Migrator.withBundledMigrations(sql, database).migrate();
      Map<SinkTable, String> topics = new EnumMap<>(SinkTable.class);
      topics.put(SinkTable.DECODE_EVENTS, events);
      topics.put(SinkTable.WINDOW_RESULTS, windows);
      SinkConfig sinkConfig =
          new SinkConfig(
              bootstrap,
              registryUrl,
              topics,
              dlq,
              SpecwatchContainers.uniqueName("evo-sink"),
              clickhouse,
              10_000,
              Duration.ofSeconds(1),
              Optional.of(Duration.ofSeconds(4)),
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
      assertThat(sink.get(2, TimeUnit.MINUTES).rowsInserted()).isEqualTo(180 + windowRecords);

      Map<String, Long> arrived = arrived(sql, database + ".decode_events");
      assertThat(problems(wentIn, arrived)).as("lost, duplicated or extra event ids").isEmpty();
      List<List<String>> windowRows =
          sql.queryTsvWithNames("SELECT count() AS n FROM " + database + ".window_results");
      assertThat(Long.parseLong(windowRows.get(1).get(0))).isEqualTo(windowRecords);
    }
    assertThat(records(dlq)).as("dead-lettered").isZero();
  }

  /** A v1 record as a v2 GenericRecord (new field at its default), by Avro schema resolution. */
  private static GenericRecord toV2(DecodeEvent e, Schema v1, Schema v2) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<DecodeEvent>(v1).write(e, encoder);
    encoder.flush();
    GenericRecord r =
        new GenericDatumReader<GenericRecord>(v1, v2, GenericData.get())
            .read(null, DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
    assertThat(r.get(NEW_FIELD)).isNull();
    return r;
  }

  @Test
  void incompatibleV3IsRejectedNamingTheSubject() {
    String subject = SpecwatchContainers.uniqueName("evo-c-events") + "-value";
    registry.register(subject, DecodeEvent.getClassSchema());
    registry.register(subject, v2());
    assertThat(registry.testCompatibility(subject, v3Incompatible())).isFalse();
    assertThatThrownBy(() -> registry.register(subject, v3Incompatible()))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining(subject)
        .satisfies(
            e ->
                assertThat(((SchemaRegistryException) e).httpStatus())
                    .as(e.getMessage())
                    .isEqualTo(409));
  }

  @Test
  void theOracleReportsALostAndADuplicatedEvent() {
    Set<String> wentIn = new TreeSet<>(List.of("a", "b", "c"));
    Map<String, Long> arrived = new LinkedHashMap<>(Map.of("a", 1L, "c", 2L, "x", 1L));
    assertThat(problems(wentIn, arrived))
        .containsExactlyInAnyOrder("b missing", "c arrived 2 times", "x arrived but never went in");
    assertThat(problems(wentIn, Map.of("a", 1L, "b", 1L, "c", 1L))).isEmpty();
  }
}
