package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
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
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Run the app on the real broker, stop it, {@code streams reset}, run it again: the second run
 * emits exactly the windows of the first (same events, cycles, tau: nothing double counted).
 */
class StreamsResetIT {

  @TempDir Path stateDir;

  @Test
  void resetThenRerunReproducesTheSameWindows() throws Exception {
    AppTopics topics = AppTopics.create(1);
    String bootstrap = topics.bootstrap();
    String in = topics.in();
    String out = topics.out();
    String contexts = topics.contexts();
    String appId = SpecwatchContainers.uniqueName("streams-reset-it");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      StreamsAppConfig config =
          topics.config(
              appId, stateDir, Map.of("commit.interval.ms", "200", "session.timeout.ms", "6000"));
      Map<String, Object> serde = config.serdeConfig();
      try (KafkaProducer<String, DecodeEvent> producer = StreamsAppIT.producer(bootstrap, serde)) {
        producer.initTransactions();
        producer.beginTransaction();
        for (DecodeEvent e :
            List.of(
                full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1),
                full("dep-b", 20, 1, 1.5, 0, 0, 10.0, 80.0, 1000.0, 2),
                full("dep-a", 50, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 3),
                full("dep-a", 70, 10, 4.0, 30, 30, 25.0, 100.0, 2000.0, 4),
                full("dep-b", 95, 5, 2.0, 5, 10, 40.0, 50.0, 3000.0, 5),
                full("dep-a", 200, 1, 2.0, 1, 3, 10.0, 10.0, 1000.0, 1))) {
          producer.send(new ProducerRecord<>(in, e.getDeploymentId(), e));
        }
        producer.commitTransaction();
      }

      runUntilIdle(config);
      List<String> first = windows(bootstrap, out, serde, 0);
      assertThat(first).isNotEmpty();
      assertThat(Files.exists(stateDir.resolve(appId))).isTrue();

      assertThat(reset(bootstrap, appId, "--input-topics", in + "," + contexts)).isZero();
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(appId).partitionsToOffsetAndMetadata().get();
      assertThat(offsets.get(new TopicPartition(in, 0)).offset()).isZero();
      assertThat(Files.exists(stateDir.resolve(appId))).isFalse();
      assertThat(admin.listTopics().names().get())
          .noneMatch(t -> t.startsWith(appId + "-") && t.endsWith("-changelog"));

      runUntilIdle(config);
      List<String> all = windows(bootstrap, out, serde, first.size());
      assertThat(all).hasSize(2 * first.size());
      assertThat(all.subList(first.size(), all.size())).containsExactlyInAnyOrderElementsOf(first);
    }
  }

  /**
   * {@code --to-datetime} moves the event topic to the first record at or after the time, and the
   * table topic (run contexts, whose store the reset deletes) to its earliest offset: contexts
   * published before the time are read again.
   */
  @Test
  void toDatetimeMovesTheEventsButReadsTheRunContextsFromTheStart() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String in = SpecwatchContainers.uniqueName("decode-events");
    String contexts = SpecwatchContainers.uniqueName("run-context");
    String appId = SpecwatchContainers.uniqueName("streams-reset-dt-it");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(new NewTopic(in, 1, (short) 1), new NewTopic(contexts, 1, (short) 1)))
          .all()
          .get();
      long base = System.currentTimeMillis() - 60_000;
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
              new ByteArraySerializer(),
              new ByteArraySerializer())) {
        // recent times: records older than the topic's retention (7 days) may be deleted at once
        for (long t : new long[] {1_000, 2_000}) {
          producer.send(new ProducerRecord<>(contexts, 0, base + t, null, new byte[] {1})).get();
        }
        for (long t : new long[] {1_000, 5_000, 9_000}) {
          producer.send(new ProducerRecord<>(in, 0, base + t, null, new byte[] {1})).get();
        }
      }
      int code =
          reset(
              bootstrap,
              appId,
              "--input-topics",
              in + "," + contexts,
              "--table-topics",
              contexts,
              "--to-datetime",
              Instant.ofEpochMilli(base + 5_000).toString());
      assertThat(code).isZero();
      Map<TopicPartition, OffsetAndMetadata> offsets =
          admin.listConsumerGroupOffsets(appId).partitionsToOffsetAndMetadata().get();
      assertThat(offsets.get(new TopicPartition(in, 0)).offset()).as("events").isEqualTo(1);
      assertThat(offsets.get(new TopicPartition(contexts, 0)).offset()).as("contexts").isZero();
    }
  }

  /** {@code streams reset} as the CLI runs it, on this test's state dir. */
  private int reset(String bootstrap, String appId, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "reset",
                "--bootstrap",
                bootstrap,
                "--application-id",
                appId,
                "--state-dir",
                stateDir.toString()));
    args.addAll(List.of(more));
    return new CommandLine(new Main()).execute(args.toArray(String[]::new));
  }

  private static void runUntilIdle(StreamsAppConfig config) throws InterruptedException {
    try (StreamsRunner runner = StreamsRunner.start(config)) {
      assertThat(runner.awaitExit(Optional.of(Duration.ofSeconds(6)))).isZero();
    }
  }

  /** Every committed window row as a comparable string, once more than {@code atLeast} arrived. */
  private static List<String> windows(
      String bootstrap, String topic, Map<String, Object> serde, int atLeast) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, SpecwatchContainers.uniqueName("it-reader"));
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<String> rows = new ArrayList<>();
    try (KafkaConsumer<String, WindowResult> consumer =
        new KafkaConsumer<>(
            p,
            new StringDeserializer(),
            AvroSerde.forClass(WindowResult.class, serde, false).deserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      long quietSince = System.nanoTime();
      while (System.nanoTime() < deadline) {
        boolean got = false;
        for (ConsumerRecord<String, WindowResult> r : consumer.poll(Duration.ofMillis(500))) {
          WindowResult w = r.value();
          rows.add(
              w.getDeploymentId()
                  + "@"
                  + w.getWindowStart()
                  + "/"
                  + w.getBatchBucket()
                  + " events="
                  + w.getEvents()
                  + " cycles="
                  + w.getCycles()
                  + " tau="
                  + w.getMeanAcceptLength());
          got = true;
        }
        if (got) {
          quietSince = System.nanoTime();
        } else if (rows.size() > atLeast
            && System.nanoTime() - quietSince > Duration.ofSeconds(3).toNanos()) {
          break;
        }
      }
    }
    return rows;
  }
}
