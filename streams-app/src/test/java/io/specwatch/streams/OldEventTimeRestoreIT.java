package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Events whose event time is months old (a replayed log; every test's 2026-03 data) and a restart
 * after kill -9 that restores an open window from the window store's changelog, after the broker's
 * time retention has run (the test broker applies it within a second or two, see {@link
 * SpecwatchContainers#newKafkaContainer()}).
 *
 * <p>Negative control first: a topic with the changelog's cleanup policy and retention whose
 * records carry those old timestamps loses them to the broker within the test. Streams stamps
 * changelog records with event time, so with CreateTime the restored window would be empty and the
 * result would count only the events after the restart (ScaleOutIT once reported 1 event of 4 that
 * way).
 */
class OldEventTimeRestoreIT {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final String DEPLOYMENT = SyntheticDecodeEvents.deployment(7);

  @TempDir Path tmp;

  private final String bootstrap = SpecwatchContainers.kafkaBootstrap();
  private final String registry = SpecwatchContainers.registryUrl();
  private final Path logDir =
      Path.of(System.getProperty("basedir", "."), "target", "old-event-time-restore-it");

  @Test
  void anOpenWindowSurvivesRetentionAndARestartAfterKillNine() throws Exception {
    String probe = SpecwatchContainers.uniqueName("old-stamped-probe");
    String in = SpecwatchContainers.uniqueName("old-decode-events");
    String out = SpecwatchContainers.uniqueName("old-window-results");
    Map<String, Object> serde = Map.of("schema.registry.url", registry);
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      // negative control: what Streams would create for the changelog, with CreateTime
      admin
          .createTopics(
              List.of(
                  new NewTopic(probe, 1, (short) 1)
                      .configs(
                          Map.of(
                              TopicConfig.CLEANUP_POLICY_CONFIG,
                              "compact,delete",
                              TopicConfig.RETENTION_MS_CONFIG,
                              Long.toString(Duration.ofDays(1).plusSeconds(70).toMillis())))))
          .all()
          .get();
      try (KafkaProducer<byte[], byte[]> p =
          new KafkaProducer<>(
              Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
              new ByteArraySerializer(),
              new ByteArraySerializer())) {
        for (int i = 0; i < 3; i++) {
          p.send(
              new ProducerRecord<>(
                  probe, 0, T0.toEpochMilli() + i, new byte[] {(byte) i}, new byte[] {1}));
        }
        p.flush();
      }
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .untilAsserted(
              () ->
                  assertThat(offset(admin, probe, OffsetSpec.earliest()))
                      .as("the broker deleted records stamped %s from %s", T0, probe)
                      .isEqualTo(3));

      admin
          .createTopics(
              List.of(
                  new NewTopic(in, 1, (short) 1),
                  new NewTopic(out, 1, (short) 1).configs(TopicBootstrap.OUTPUT_TOPIC_CONFIG)))
          .all()
          .get();
      String appId = SpecwatchContainers.uniqueName("old-restore");
      String changelog = appId + "-" + TopologyNames.OPEN_WINDOW_STORE + "-changelog";
      List<String> args = args(appId, in, out);
      SyntheticDecodeEvents gen = new SyntheticDecodeEvents(11);
      List<DecodeEvent> before =
          List.of(
              gen.next(DEPLOYMENT, T0.plusSeconds(5)),
              gen.next(DEPLOYMENT, T0.plusSeconds(20)),
              gen.next(DEPLOYMENT, T0.plusSeconds(35)));
      DecodeEvent after = gen.next(DEPLOYMENT, T0.plusSeconds(50));
      // closes [0, 60) (end + 10 s grace) and opens the next window
      DecodeEvent closer = gen.next(DEPLOYMENT, T0.plusSeconds(85));

      try (AppProcess app = AppProcess.start("first", logDir, args)) {
        produce(in, serde, before);
        await()
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(250))
            .failFast(() -> app.assertAlive("app"))
            .until(() -> committed(admin, appId, in) == before.size());
        assertThat(topicConfig(admin, changelog, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG))
            .as("timestamp type of %s", changelog)
            .isEqualTo("LogAppendTime");
        assertThat(offset(admin, changelog, OffsetSpec.latest())).isPositive();
        // the probe lost its records within seconds; the changelog keeps its own through several
        // more passes of the broker's retention
        await()
            .during(Duration.ofSeconds(6))
            .atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(500))
            .until(() -> offset(admin, changelog, OffsetSpec.earliest()) == 0);
        assertThat(app.kill9()).as("exit code of SIGKILL").isEqualTo(137);
      }

      try (AppProcess again = AppProcess.start("restarted", logDir, args)) {
        produce(in, serde, List.of(after, closer));
        List<WindowResult> total = new ArrayList<>();
        await()
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(500))
            .failFast(() -> again.assertAlive("restarted app"))
            .until(
                () -> {
                  total.clear();
                  total.addAll(totalRows(out, serde));
                  return !total.isEmpty();
                });
        long cycles = 0;
        for (DecodeEvent e : before) {
          cycles += e.getCycles();
        }
        cycles += after.getCycles();
        assertThat(total).as("the total row of window [0, 60) of %s", DEPLOYMENT).hasSize(1);
        assertThat(total.get(0).getEvents())
            .as("events in the window: 3 before the kill, restored, and 1 after")
            .isEqualTo(4);
        assertThat(total.get(0).getCycles()).isEqualTo(cycles);
        again.stop(TIMEOUT);
      }
    }
  }

  private List<String> args(String appId, String in, String out) {
    return AppProcess.runArgs(
        bootstrap, registry, appId, tmp.resolve(appId), in, out, "exactly_once_v2", 500);
  }

  private void produce(String topic, Map<String, Object> serde, List<DecodeEvent> events) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, DecodeEvent> producer =
        new KafkaProducer<>(
            p,
            new StringSerializer(),
            AvroSerde.forClass(DecodeEvent.class, serde, false).serializer())) {
      for (DecodeEvent e : events) {
        producer.send(new ProducerRecord<>(topic, e.getDeploymentId(), e));
      }
      producer.flush();
    }
  }

  /** The committed rows of {@code topic} for the whole deployment (no category or batch bucket). */
  private List<WindowResult> totalRows(String topic, Map<String, Object> serde) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    TopicPartition tp = new TopicPartition(topic, 0);
    List<WindowResult> rows = new ArrayList<>();
    try (KafkaConsumer<String, WindowResult> consumer =
        new KafkaConsumer<>(
            p,
            new StringDeserializer(),
            AvroSerde.forClass(WindowResult.class, serde, false).deserializer())) {
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
      long end = consumer.endOffsets(List.of(tp)).get(tp);
      while (consumer.position(tp) < end) {
        consumer
            .poll(Duration.ofMillis(200))
            .forEach(
                r -> {
                  WindowResult w = r.value();
                  if (w.getDeploymentId().equals(DEPLOYMENT)
                      && w.getWindowStart().equals(T0)
                      && w.getPromptCategory().equals("*")
                      && w.getBatchBucket().equals("*")) {
                    rows.add(w);
                  }
                });
      }
    }
    return rows;
  }

  private static long offset(Admin admin, String topic, OffsetSpec spec) throws Exception {
    TopicPartition tp = new TopicPartition(topic, 0);
    ListOffsetsResultInfo info = admin.listOffsets(Map.of(tp, spec)).partitionResult(tp).get();
    return info.offset();
  }

  private static long committed(Admin admin, String group, String topic) throws Exception {
    OffsetAndMetadata o =
        admin
            .listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata()
            .get()
            .get(new TopicPartition(topic, 0));
    return o == null ? -1 : o.offset();
  }

  private static String topicConfig(Admin admin, String topic, String name) throws Exception {
    ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config c = admin.describeConfigs(List.of(r)).all().get().get(r);
    return c.get(name).value();
  }
}
