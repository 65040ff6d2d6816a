package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static io.specwatch.streams.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RunContext;
import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerts on the real broker and registry: decode events and run contexts on 3-partition topics; the
 * window rows, partitioned by comparison key after the baseline join, and the run contexts meet in
 * the alert task through the two repartition topics. A 19 -> 29 ms verify shift after an NCCL env
 * change comes out as one REGRESSION raise, attributed, read with read_committed.
 */
class AlertsIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final double[] NOISE = {0.0, 0.3, -0.2, 0.1, -0.3, 0.2, -0.1};

  @TempDir Path stateDir;

  @Test
  void verifyShiftRaisesOneAttributedRegression() throws Exception {
    AppTopics topics = AppTopics.create(3);
    String bootstrap = topics.bootstrap();
    String in = topics.in();
    String out = topics.out();
    String contexts = topics.contexts();
    String alerts = topics.alerts();
    StreamsAppConfig config =
        topics.config(
            SpecwatchContainers.uniqueName("alerts-it"),
            stateDir,
            Map.of("commit.interval.ms", "200"));
    Map<String, Object> serde = config.serdeConfig();

    try (StreamsRunner runner = StreamsRunner.start(config)) {
      try (KafkaProducer<String, RunContext> p =
          producer(bootstrap, AvroSerde.forClass(RunContext.class, serde, false).serializer())) {
        send(p, contexts, context("ctx-tuned", T0.minusSeconds(3600), Map.of("NCCL_PROTO", "LL")));
        send(p, contexts, context("ctx-untuned", T0.plusSeconds(20 * 60 - 20), Map.of()));
      }
      try (KafkaProducer<String, DecodeEvent> p =
          producer(bootstrap, AvroSerde.forClass(DecodeEvent.class, serde, false).serializer())) {
        for (int i = 0; i <= 28; i++) {
          double verify = i < 20 ? 19.0 + NOISE[i % 7] : 28.95 + NOISE[i % 7] / 10;
          double other = i < 20 ? 2.3 : 4.4;
          DecodeEvent e =
              event("kimi", 60L * i + 10)
                  .setCycles(300L)
                  .setAcceptLength(2.0)
                  .setVerifyMs(verify)
                  .setCycleMs(verify + other)
                  .build();
          p.send(new ProducerRecord<>(in, "kimi", e));
        }
      }
      List<Alert> raised = readCommitted(bootstrap, alerts, serde, 1);
      Alert a = raised.get(0);
      assertThat(a.getType()).isEqualTo(AlertType.REGRESSION);
      assertThat(a.getState()).isEqualTo(AlertState.RAISED);
      assertThat(a.getWindowStart()).isEqualTo(T0.plusSeconds(26 * 60));
      assertThat(a.getAttributedChange()).isEqualTo("env.NCCL_PROTO: LL -> (unset)");
      assertThat(a.getEvidence()).containsEntry("verifyMsP50.breach", "true");
      assertThat(runner.state()).isEqualTo(org.apache.kafka.streams.KafkaStreams.State.RUNNING);
    }
  }

  private static RunContext context(String id, Instant observedAt, Map<String, String> env) {
    return RunContext.newBuilder()
        .setContextId(id)
        .setDeploymentId("kimi")
        .setObservedAt(observedAt)
        .setEngine(Engine.SGLANG)
        .setModel("moonshotai/Kimi-K2.5")
        .setSpecMethod("EAGLE3")
        .setEnv(env)
        .build();
  }

  private static void send(KafkaProducer<String, RunContext> p, String topic, RunContext c) {
    p.send(
        new ProducerRecord<>(
            topic, null, c.getObservedAt().toEpochMilli(), c.getDeploymentId(), c));
  }

  private static <V> KafkaProducer<String, V> producer(String bootstrap, Serializer<V> values) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(p, new StringSerializer(), values);
  }

  private static List<Alert> readCommitted(
      String bootstrap, String topic, Map<String, Object> serde, int expected) {
    return CommittedReader.readExactly(
        bootstrap, topic, serde, Alert.class, Alert::getDeploymentId, expected, TIMEOUT, "alerts");
  }
}
