package io.specwatch.ingest.scrape;

import static io.specwatch.ingest.scrape.PromTextParserTest.resource;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.specwatch.ingest.cli.IngestCli;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RunContext;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Scrapes a real HTTP server serving changing metric text into the real broker and registry. */
class ScraperIT {

  private static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  private final List<HttpServer> servers = new ArrayList<>();

  @AfterEach
  void stopServers() {
    servers.forEach(s -> s.stop(0));
  }

  /** Serves bodies[i] to the i-th request, the last one from then on. */
  private URI serve(String... bodies) throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    AtomicInteger requests = new AtomicInteger();
    server.createContext(
        "/metrics",
        exchange -> {
          int i = Math.min(requests.getAndIncrement(), bodies.length - 1);
          byte[] body = bodies[i].getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    servers.add(server);
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
  }

  /** Each instant() is 10 s after the previous one; millis() does not advance. */
  private static final class SteppingClock extends Clock {
    private long now = T0.toEpochMilli();

    @Override
    public synchronized Instant instant() {
      now += 10_000;
      return Instant.ofEpochMilli(now);
    }

    @Override
    public synchronized long millis() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }

  private static String topic() throws Exception {
    String topic = SpecwatchContainers.uniqueName("it.scrape");
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                SpecwatchContainers.kafkaBootstrap()))) {
      admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
    }
    return topic;
  }

  @Test
  void scrapesVllmAndSglangIntoExactIntervalEvents() throws Exception {
    String sglang = resource("sglang-metrics.txt");
    URI vllmUrl =
        serve(
            resource("vllm-metrics-1.txt"),
            resource("vllm-metrics-2.txt"),
            resource("vllm-metrics-1.txt"));
    URI sglangUrl =
        serve(
            sglang, sglang.replace("} 5000.0", "} 5600.0"), sglang.replace("} 5000.0", "} 250.0"));
    String topic = topic();
    ShipConfig ship =
        new ShipConfig(
            SpecwatchContainers.kafkaBootstrap(),
            SpecwatchContainers.registryUrl(),
            topic,
            "unused",
            "kimi-k25-mixed",
            "gpu-node-07",
            NormaliseConfig.defaults(),
            Map.of());
    ScrapeConfig config =
        new ScrapeConfig(
            List.of(vllmUrl, sglangUrl),
            Duration.ofMillis(100),
            ScrapeEngine.AUTO,
            ship,
            3,
            false,
            Duration.ofSeconds(30));

    Scraper.Result result = new Scraper(config, new SteppingClock()).run();

    assertThat(result).isEqualTo(new Scraper.Result(3, 4, 0));
    List<ConsumerRecord<String, DecodeEvent>> records = consume(topic, 4);
    assertThat(records).hasSize(4).allMatch(r -> r.key().equals("kimi-k25-mixed"));
    List<DecodeEvent> events =
        records.stream()
            .map(ConsumerRecord::value)
            .sorted(Comparator.comparing(DecodeEvent::getEventTime))
            .toList();
    // round 1 primes at +10 s (vLLM) and +20 s (SGLang); round 2 at +30/+40 s; round 3 at +50/+60 s
    DecodeEvent v = events.get(0);
    assertThat(v.getEngine()).isEqualTo(Engine.VLLM);
    assertThat(v.getSource()).isEqualTo(vllmUrl.toString());
    assertThat(v.getHost()).isEqualTo("gpu-node-07");
    assertThat(v.getEventTime()).isEqualTo(T0.plusSeconds(30));
    assertThat(v.getIntervalMs()).isEqualTo(20_000.0);
    assertThat(v.getCycles()).isEqualTo(400L);
    assertThat(v.getDraftedTokens()).isEqualTo(1200L);
    assertThat(v.getAcceptedTokens()).isEqualTo(700L);
    assertThat(v.getAcceptLength()).isEqualTo(2.75);
    assertThat(v.getPerPositionAccepted()).containsExactly(300L, 240L, 160L);
    assertThat(v.getPerPositionAcceptance()).containsExactly(0.75, 0.6, 0.4);
    assertThat(v.getRunningRequests()).isEqualTo(9);
    assertThat(v.getEventId())
        .isEqualTo(
            ScrapeEventIds.of(
                vllmUrl.toString(),
                "engine=0,model_name=moonshotai/Kimi-K2.5",
                T0.plusSeconds(30).toEpochMilli()));

    DecodeEvent s = events.get(1);
    assertThat(s.getEngine()).isEqualTo(Engine.SGLANG);
    assertThat(s.getEventTime()).isEqualTo(T0.plusSeconds(40));
    assertThat(s.getDecodePasses()).isEqualTo(600L);
    assertThat(s.getAcceptLength()).isEqualTo(2.85);
    assertThat(s.getAcceptRate()).isEqualTo(0.617);
    assertThat(s.getGenThroughputTokS()).isEqualTo(1234.5);

    DecodeEvent vReset = events.get(2);
    assertThat(vReset.getEventTime()).isEqualTo(T0.plusSeconds(50));
    assertThat(vReset.getCycles()).isEqualTo(1000L);
    assertThat(vReset.getAcceptRate()).isEqualTo(0.6);
    assertThat(vReset.getRawFields()).containsEntry("counter_reset", "true");
    assertThat(events.get(3).getDecodePasses()).isEqualTo(250L);
  }

  @Test
  void commandRunsUntilMaxScrapesAndSkipsAFailedScrape() throws Exception {
    URI url =
        serve(
            resource("vllm-metrics-1.txt"),
            "this is { not metrics",
            resource("vllm-metrics-2.txt"));
    String topic = topic();
    String contextTopic = topic();
    StringWriter out = new StringWriter();
    CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(out));

    int code =
        cli.execute(
            "scrape",
            "--url",
            url.toString(),
            "--interval",
            "200ms",
            "--engine",
            "vllm",
            "--deployment",
            "kimi-cli",
            "--host",
            "gpu-node-09",
            "--bootstrap",
            SpecwatchContainers.kafkaBootstrap(),
            "--registry-url",
            SpecwatchContainers.registryUrl(),
            "--topic",
            topic,
            "--run-context-topic",
            contextTopic,
            "--model",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--spec-method",
            "eagle3",
            "--tp",
            "2",
            "--max-scrapes",
            "3");

    assertThat(code).isZero();
    assertThat(out.toString()).contains("scraped: rounds=3 events=1 failed-scrapes=1");
    DecodeEvent e = consume(topic, 1).get(0).value();
    assertThat(e.getDeploymentId()).isEqualTo("kimi-cli");
    assertThat(e.getHost()).isEqualTo("gpu-node-09");
    assertThat(e.getFormat()).isEqualTo("prometheus.vllm");
    assertThat(e.getCycles()).isEqualTo(400L);
    assertThat(e.getAcceptedTokens()).isEqualTo(700L);
    // the failed scrape left the state alone: the interval spans two scrape spacings
    assertThat(e.getIntervalMs()).isGreaterThanOrEqualTo(300.0);
    // the CLI run context was published before the event and stamped on it
    List<ConsumerRecord<String, RunContext>> ctx = consume(contextTopic, RunContext.class, 1);
    assertThat(ctx).hasSize(1);
    assertThat(ctx.get(0).key()).isEqualTo("kimi-cli");
    assertThat(ctx.get(0).value().getSpecMethod()).isEqualTo("EAGLE3");
    assertThat(ctx.get(0).value().getTp()).isEqualTo(2);
    assertThat(e.getRunContextId()).isEqualTo(ctx.get(0).value().getContextId());
  }

  private static List<ConsumerRecord<String, DecodeEvent>> consume(String topic, int expected) {
    return consume(topic, DecodeEvent.class, expected);
  }

  private static <T extends org.apache.avro.specific.SpecificRecord>
      List<ConsumerRecord<String, T>> consume(String topic, Class<T> type, int expected) {
    return TopicReader.records(
        SpecwatchContainers.kafkaBootstrap(),
        SpecwatchContainers.registryUrl(),
        topic,
        type,
        expected);
  }
}
