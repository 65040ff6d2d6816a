package io.specwatch.ingest.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.dockerjava.api.DockerClient;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.testkit.SpecwatchContainers;
import io.specwatch.testkit.TestPorts;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The broker stopped ({@code docker stop}) for longer than the producer's delivery timeout while
 * {@code scrape} polls a vLLM endpoint whose counters keep growing, then started again on the same
 * address. The scraper must neither exit nor lose an interval: the failed round's events are sent
 * again (same ids), no new round is scraped meanwhile, and the first scrape after the outage covers
 * the gap, so the distinct events chain without a hole and their cycles add up to the counter's
 * growth.
 */
class ScrapeBrokerOutageIT {

  private static final String GROUP = "engine=0,model_name=moonshotai/Kimi-K2.5";

  @Test
  void anOutageLongerThanTheDeliveryTimeoutLosesNoIntervalAndDoesNotStopTheScraper()
      throws Exception {
    String registry = SpecwatchContainers.registryUrl(); // also fails clearly without Docker
    int kafkaPort = TestPorts.freePort();
    KafkaContainer kafka = SpecwatchContainers.newKafkaContainer();
    kafka.setPortBindings(List.of(kafkaPort + ":9092")); // the same address after the restart
    kafka.start();
    List<Long> served = new CopyOnWriteArrayList<>();
    HttpServer server = vllmServer(served);
    try (kafka) {
      String bootstrap = kafka.getBootstrapServers();
      String topic = SpecwatchContainers.uniqueName("it.scrape-outage");
      try (Admin admin =
          Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
      }
      Map<String, String> producer = new LinkedHashMap<>();
      // a delivery timeout of seconds, so that a 12 s outage outlasts it (default: 2 minutes)
      producer.put("delivery.timeout.ms", "4000");
      producer.put("request.timeout.ms", "1500");
      producer.put("max.block.ms", "2000");
      producer.put("linger.ms", "0");
      ShipConfig ship =
          new ShipConfig(
              bootstrap,
              registry,
              topic,
              "unused",
              "dep-scrape-outage",
              "gpu-outage",
              NormaliseConfig.defaults(),
              producer);
      URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
      ScrapeConfig config =
          new ScrapeConfig(
              List.of(url),
              Duration.ofMillis(300),
              ScrapeEngine.VLLM,
              ship,
              0,
              false,
              Duration.ofSeconds(30));
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      Scraper scraper = new Scraper(config, Clock.systemUTC(), meters);
      CompletableFuture<Scraper.Result> run = CompletableFuture.supplyAsync(scraper::run);

      await().atMost(Duration.ofSeconds(60)).until(() -> sent(meters) >= 3 || run.isDone());
      assertThat(run).isNotDone();
      DockerClient docker = kafka.getDockerClient();
      docker.stopContainerCmd(kafka.getContainerId()).withTimeout(10).exec();
      // at least one round fails after the delivery timeout, then rounds are skipped
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> counter(meters, "specwatch.ingest.skipped.scrapes") >= 2 || run.isDone());
      assertThat(run).as("the scraper survives the outage").isNotDone();
      int duringOutage = served.size();
      Thread.sleep(3000);
      assertThat(served.size())
          .as("no new scrape while records wait for Kafka")
          .isEqualTo(duringOutage);
      double sentBefore = sent(meters);
      docker.startContainerCmd(kafka.getContainerId()).exec();
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> sent(meters) >= sentBefore + 4 || run.isDone());
      scraper.stop();
      Scraper.Result result = run.get(60, TimeUnit.SECONDS);
      assertThat(counter(meters, "specwatch.ingest.kafka.errors")).isPositive();

      // a record whose delivery timed out may have reached the log: re-sent ones share its id
      Map<String, DecodeEvent> byId = new LinkedHashMap<>();
      TopicReader.values(bootstrap, registry, topic, DecodeEvent.class, result.events())
          .forEach(e -> byId.putIfAbsent(e.getEventId(), e));
      List<DecodeEvent> events =
          byId.values().stream().sorted(Comparator.comparing(DecodeEvent::getEventTime)).toList();
      assertThat(events).hasSizeGreaterThanOrEqualTo(7).hasSize((int) result.events());
      long cycles = 0;
      for (int i = 1; i < events.size(); i++) {
        DecodeEvent e = events.get(i);
        long previous = events.get(i - 1).getEventTime().toEpochMilli();
        assertThat(e.getEventTime().toEpochMilli() - e.getIntervalMs().longValue())
            .as("event %d starts where event %d ended: no interval lost", i, i - 1)
            .isEqualTo(previous);
      }
      for (DecodeEvent e : events) {
        cycles += e.getCycles();
        assertThat(e.getSource()).isEqualTo(url.toString());
        assertThat(e.getRawFields()).containsEntry("series", GROUP);
      }
      // the first scrape primes, every later one is an event: the deltas add up to the growth
      assertThat(cycles)
          .as("cycles of all intervals")
          .isEqualTo(served.get(served.size() - 1) - served.get(0));
      assertThat(events)
          .as("the first scrape after the outage covers it")
          .anyMatch(e -> e.getIntervalMs() > 10_000);
    } finally {
      server.stop(0);
    }
  }

  private static double sent(SimpleMeterRegistry meters) {
    var c = meters.find("specwatch.ingest.records").tag("kind", "decode_event").counter();
    return c == null ? 0 : c.count();
  }

  private static double counter(SimpleMeterRegistry meters, String name) {
    var c = meters.find(name).counter();
    return c == null ? 0 : c.count();
  }

  /**
   * A vLLM endpoint whose drafts counter grows by one per millisecond since the first request (3
   * tokens drafted, 2 accepted per draft); {@code served} holds each request's drafts value.
   */
  private static HttpServer vllmServer(List<Long> served) throws Exception {
    long start = System.currentTimeMillis();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/metrics",
        exchange -> {
          long d = System.currentTimeMillis() - start + 1;
          served.add(d);
          String labels = "{engine=\"0\",model_name=\"moonshotai/Kimi-K2.5\"";
          long p1 = 7 * d / 10;
          String body =
              "vllm:num_requests_running"
                  + labels
                  + "} 12.0\n"
                  + "vllm:spec_decode_num_drafts_total"
                  + labels
                  + "} "
                  + d
                  + ".0\n"
                  + "vllm:spec_decode_num_draft_tokens_total"
                  + labels
                  + "} "
                  + 3 * d
                  + ".0\n"
                  + "vllm:spec_decode_num_accepted_tokens_total"
                  + labels
                  + "} "
                  + 2 * d
                  + ".0\n"
                  + perPosition(labels, 0, d)
                  + perPosition(labels, 1, p1)
                  + perPosition(labels, 2, d - p1);
          byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
          exchange.sendResponseHeaders(200, bytes.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
          }
        });
    server.start();
    return server;
  }

  private static String perPosition(String labels, int position, long value) {
    return "vllm:spec_decode_num_accepted_tokens_per_pos_total"
        + labels
        + ",position=\""
        + position
        + "\"} "
        + value
        + ".0\n";
  }
}
