package io.specwatch.streams;

import static io.specwatch.streams.TestEvents.T0;
import static io.specwatch.streams.TestEvents.full;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.specwatch.runtime.HealthServer;
import io.specwatch.runtime.Metrics;
import io.specwatch.runtime.Readiness;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The app with exactly_once_v2 against the real broker and registry: events from a transactional
 * producer (one aborted transaction that must not count) come out as exactly the expected
 * WindowResults, read with read_committed; the late event is counted, not aggregated. The health
 * endpoints turn ready once the app runs, and /metrics exposes the Kafka Streams metrics.
 */
class StreamsAppIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path stateDir;

  @Test
  void windowsFromTransactionalInputAreReadCommittedExactlyOnce() throws Exception {
    AppTopics topics = AppTopics.create(1);
    String bootstrap = topics.bootstrap();
    String in = topics.in();
    String out = topics.out();
    StreamsAppConfig config =
        topics.config(
            SpecwatchContainers.uniqueName("streams-it"),
            stateDir,
            Map.of("commit.interval.ms", "200"));
    Map<String, Object> serde = config.serdeConfig();
    Readiness readiness = new Readiness();

    PrometheusMeterRegistry meters = Metrics.newRegistry("streams-app");
    try (HealthServer health = HealthServer.start("127.0.0.1", 0, readiness, meters)) {
      assertThat(get(health, "/health/ready").statusCode())
          .as("not ready before start")
          .isEqualTo(503);
      try (StreamsRunner runner = StreamsRunner.start(config, readiness, meters)) {
        await()
            .atMost(TIMEOUT)
            .untilAsserted(
                () -> assertThat(get(health, "/health/ready").statusCode()).isEqualTo(200));
        assertThat(runner.state()).isEqualTo(KafkaStreams.State.RUNNING);
        assertThat(get(health, "/health/live").statusCode()).isEqualTo(200);
        assertWindows(runner, bootstrap, in, out, serde);
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () -> {
                  String metrics = get(health, "/metrics").body();
                  assertThat(metrics)
                      .containsPattern("(?m)^kafka_stream_thread_process_total\\{.* [1-9]");
                  assertThat(metrics)
                      .as("late-events-total of the late event on /metrics")
                      .containsPattern("(?m)^kafka_stream_specwatch_late_events_total\\{.* 1\\.0$");
                });
      }
      assertThat(get(health, "/health/ready").statusCode())
          .as("not ready after close")
          .isEqualTo(503);
      assertThat(get(health, "/health/live").statusCode())
          .as("a clean stop is not fatal")
          .isEqualTo(200);
    } finally {
      meters.close();
    }
  }

  private static HttpResponse<String> get(HealthServer health, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + health.port() + path))
            .timeout(Duration.ofSeconds(5))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void assertWindows(
      StreamsRunner runner, String bootstrap, String in, String out, Map<String, Object> serde) {
    try (KafkaProducer<String, DecodeEvent> producer = producer(bootstrap, serde)) {
      producer.initTransactions();
      producer.beginTransaction();
      send(producer, in, full("dep-a", 30, 9999, 9.0, 9999, 9999, 1.0, 1.0, 1.0, 99));
      producer.flush();
      producer.abortTransaction();

      producer.beginTransaction();
      send(producer, in, full("dep-a", 10, 40, 2.0, 40, 120, 30.0, 60.0, 4000.0, 1));
      send(producer, in, full("dep-b", 20, 1, 1.5, 0, 0, 10.0, 80.0, 1000.0, 2));
      send(producer, in, full("dep-a", 50, 120, 3.0, 240, 360, 20.0, 150.0, 1000.0, 3));
      send(producer, in, full("dep-a", 70, 10, 4.0, 30, 30, 25.0, 100.0, 2000.0, 4));
      send(producer, in, full("dep-b", 95, 5, 2.0, 5, 10, 40.0, 50.0, 3000.0, 5)); // closes [0,60)
      send(producer, in, full("dep-a", 55, 1000, 9.0, 1000, 1000, 1.0, 1.0, 1.0, 1)); // late
      send(
          producer, in, full("dep-a", 200, 1, 2.0, 1, 3, 10.0, 10.0, 1000.0, 1)); // closes [60,120)
      producer.commitTransaction();

      // rows: dep-a@0 total, 1, 2-4; dep-b@0 total, 2-4; dep-a@60 total, 2-4, 1 (late only);
      // dep-b@60 total, 5-8
      List<WindowResult> results = readCommitted(bootstrap, out, serde, 10);
      assertThat(runner.state()).isEqualTo(KafkaStreams.State.RUNNING);

      Map<String, WindowResult> byKey =
          results.stream()
              .filter(r -> r.getBatchBucket().equals("*"))
              .collect(
                  Collectors.toMap(
                      r ->
                          r.getDeploymentId()
                              + "@"
                              + (r.getWindowStart().getEpochSecond() - T0.getEpochSecond()),
                      r -> r));
      assertThat(byKey).containsOnlyKeys("dep-a@0", "dep-b@0", "dep-a@60", "dep-b@60");
      WindowResult a = byKey.get("dep-a@0");
      assertThat(a.getEvents()).isEqualTo(2);
      assertThat(a.getCycles()).isEqualTo(160);
      assertThat(a.getMeanAcceptLength()).isCloseTo((2.0 * 40 + 3.0 * 120) / 160, within(1e-9));
      assertThat(a.getAcceptRate()).isCloseTo(280.0 / 480, within(1e-9));
      assertThat(a.getMeanCycleMs()).isCloseTo(3600.0 / 160, within(1e-9));
      assertThat(a.getBatchTokS()).isCloseTo(390000.0 / 5000, within(1e-9));
      assertThat(byKey.get("dep-a@60").getEvents()).as("late event not counted").isEqualTo(1);
      assertThat(byKey.get("dep-a@60").getLateEvents()).as("late event counted").isEqualTo(1);
      assertThat(byKey.get("dep-b@0").getMeanAcceptLength()).isEqualTo(1.5);
      assertThat(byKey.get("dep-b@60").getMeanCycleMs()).isEqualTo(40.0);
      assertThat(runner.metrics().lateEvents()).as("late-events-total").isEqualTo(1);
      assertThat(runner.metrics().dropped()).as("dropped-records-total").isZero();
    }
  }

  private static void send(KafkaProducer<String, DecodeEvent> p, String topic, DecodeEvent e) {
    p.send(new ProducerRecord<>(topic, e.getDeploymentId(), e));
  }

  static KafkaProducer<String, DecodeEvent> producer(String bootstrap, Map<String, Object> serde) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, SpecwatchContainers.uniqueName("it-producer"));
    return new KafkaProducer<>(
        p,
        new StringSerializer(),
        AvroSerde.forClass(DecodeEvent.class, serde, false).serializer());
  }

  private static List<WindowResult> readCommitted(
      String bootstrap, String topic, Map<String, Object> serde, int expected) {
    return CommittedReader.readExactly(
        bootstrap,
        topic,
        serde,
        WindowResult.class,
        WindowResult::getDeploymentId,
        expected,
        TIMEOUT,
        "results");
  }
}
