package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.TestPorts;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The dead-letter handlers and the fatal exit on the real broker and registry: poison records (not
 * Avro, an unknown schema id, a key that is not the deploymentId) end up as DeadLetter records with
 * their context while the good records around them still make windows; a registry that cannot be
 * reached is not the records' fault, so the app fails and {@code run} exits 1.
 */
class DeadLetterIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  @TempDir Path stateDir;

  @Test
  void poisonRecordsBecomeDeadLettersAndGoodRecordsStillMakeWindows() throws Exception {
    AppTopics topics = AppTopics.create(1);
    String bootstrap = topics.bootstrap();
    String in = topics.in();
    String out = topics.out();
    String dlq = topics.dlq();
    StreamsAppConfig config =
        topics.config(
            SpecwatchContainers.uniqueName("dlq-it"),
            stateDir,
            Map.of("commit.interval.ms", "200"));
    Map<String, Object> serde = config.serdeConfig();
    AvroSerde<DecodeEvent> events = AvroSerde.forClass(DecodeEvent.class, serde, false);
    byte[] garbage = "Decode batch. #running-req: 4".getBytes(StandardCharsets.UTF_8);
    byte[] unknownSchema = ByteBuffer.allocate(9).put((byte) 0).putInt(987_654).putInt(7).array();
    DecodeEvent foreign = full("dep-b", 20, 5, 3.0, 10, 15, 20.0, 1.0, 1.0, 1);

    try (StreamsRunner runner = StreamsRunner.start(config);
        KafkaProducer<String, byte[]> producer = producer(bootstrap)) {
      producer.send(
          record(in, "dep-a", events, full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1)));
      producer.send(new ProducerRecord<>(in, "dep-a", garbage)); // offset 1
      producer.send(new ProducerRecord<>(in, "dep-a", unknownSchema)); // offset 2
      producer.send(record(in, "not-dep-b", events, foreign)); // offset 3
      producer.send(
          record(
              in, "dep-a", events, full("dep-a", 50, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 1)));
      producer.send(
          record(in, "dep-a", events, full("dep-a", 95, 1, 2.0, 1, 3, 10.0, 10.0, 1000.0, 1)));
      producer.flush();

      List<DeadLetter> letters =
          read(
              bootstrap, dlq, AvroSerde.forClass(DeadLetter.class, serde, false).deserializer(), 3);
      assertThat(letters).extracting(DeadLetter::getOffset).containsExactly(1L, 2L, 3L);
      assertThat(letters)
          .extracting(DeadLetter::getStage)
          .containsExactly("streams.deserialize", "streams.deserialize", "streams.process");
      assertThat(letters).allSatisfy(d -> assertThat(d.getTopic()).isEqualTo(in));
      assertThat(letters).allSatisfy(d -> assertThat(d.getPartition()).isZero());
      assertThat(raw(letters.get(0))).isEqualTo(garbage);
      assertThat(letters.get(0).getErrorMessage()).contains("magic byte");
      assertThat(raw(letters.get(1))).isEqualTo(unknownSchema);
      assertThat(letters.get(1).getErrorMessage()).contains("987654");
      assertThat(letters.get(2).getErrorClass()).isEqualTo(InvalidEventException.class.getName());
      assertThat(letters.get(2).getContext()).containsEntry("processor", TopologyNames.EVENT_GATE);
      assertThat(events.deserializer().deserialize(in, raw(letters.get(2)))).isEqualTo(foreign);

      List<WindowResult> rows =
          read(
              bootstrap,
              out,
              AvroSerde.forClass(WindowResult.class, serde, false).deserializer(),
              2);
      WindowResult total =
          rows.stream().filter(r -> r.getBatchBucket().equals("*")).findFirst().orElseThrow();
      assertThat(total.getWindowStart()).isEqualTo(T0);
      assertThat(total.getEvents()).as("the two good events of [0s, 60s)").isEqualTo(2);
      assertThat(total.getCycles()).isEqualTo(160);
      assertThat(runner.state()).isEqualTo(org.apache.kafka.streams.KafkaStreams.State.RUNNING);
    }
  }

  @Test
  void unreachableRegistryFailsTheAppAndRunExitsNonZero() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String in = SpecwatchContainers.uniqueName("decode-events");
    int closedPort = TestPorts.freePort(); // nothing listens there
    try (KafkaProducer<String, byte[]> producer = producer(bootstrap)) {
      createTopics(bootstrap, in);
      producer.send(
          new ProducerRecord<>(
              in, "dep-a", ByteBuffer.allocate(9).put((byte) 0).putInt(1).putInt(7).array()));
      producer.flush();
    }
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> exit =
          pool.submit(
              () ->
                  new CommandLine(new Main())
                      .execute(
                          "run",
                          "--bootstrap",
                          bootstrap,
                          "--registry-url",
                          "http://127.0.0.1:" + closedPort + "/apis/ccompat/v7",
                          "--application-id",
                          SpecwatchContainers.uniqueName("fatal-it"),
                          "--state-dir",
                          stateDir.toString(),
                          "--decode-events-topic",
                          in,
                          "--run-context-topic",
                          SpecwatchContainers.uniqueName("run-context"),
                          "--window-results-topic",
                          SpecwatchContainers.uniqueName("window-results"),
                          "--dead-letter-topic",
                          SpecwatchContainers.uniqueName("dead-letter"),
                          "-K",
                          "max.retries=0"));
      assertThat(exit.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
          .as("exit code after the stream thread failed (state ERROR)")
          .isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  private static ProducerRecord<String, byte[]> record(
      String topic, String key, AvroSerde<DecodeEvent> serde, DecodeEvent e) {
    return new ProducerRecord<>(topic, key, serde.serializer().serialize(topic, e));
  }

  private static byte[] raw(DeadLetter d) {
    byte[] b = new byte[d.getRaw().remaining()];
    d.getRaw().duplicate().get(b);
    return b;
  }

  private static void createTopics(String bootstrap, String... names) throws Exception {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      List<NewTopic> topics = new ArrayList<>();
      for (String n : names) {
        // results and dead letters as the app creates them (TopicBootstrap): with CreateTime the
        // broker's time retention deletes rows stamped with 2026-01 event times within seconds
        topics.add(
            n.startsWith("window-results") || n.startsWith("dead-letter")
                ? new NewTopic(n, 1, (short) 1).configs(TopicBootstrap.OUTPUT_TOPIC_CONFIG)
                : new NewTopic(n, 1, (short) 1));
      }
      admin.createTopics(topics).all().get();
    }
  }

  private static KafkaProducer<String, byte[]> producer(String bootstrap) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
  }

  /** Reads exactly {@code expected} records with read_committed within the timeout. */
  private static <T> List<T> read(
      String bootstrap, String topic, Deserializer<T> deserializer, int expected) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, SpecwatchContainers.uniqueName("it-reader"));
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<T> values = new ArrayList<>();
    try (KafkaConsumer<String, T> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), deserializer)) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (values.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(500))) {
          values.add(r.value());
        }
      }
    }
    assertThat(values).as("%s records on %s within %s", expected, topic, TIMEOUT).hasSize(expected);
    return values;
  }
}
