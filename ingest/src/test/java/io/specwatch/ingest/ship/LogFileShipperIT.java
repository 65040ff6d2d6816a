package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.specwatch.ingest.normalise.FileFingerprint;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.normalise.SourceContext;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.samples.SampleLogsTest;
import io.specwatch.ingest.testing.Ships;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.RequestAcceptance;
import io.specwatch.testkit.SpecwatchContainers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Ships the committed EAGLE3 sample to the real broker and registry and reads it back. */
class LogFileShipperIT {

  private static final Path SAMPLE = SampleLogsTest.DIR.resolve("kimi-eagle3.log");

  @Test
  void shipsEventsAndDeadLettersIdempotentlyIdentified() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.decode-events");
    String dlq = SpecwatchContainers.uniqueName("it.dead-letter");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(List.of(new NewTopic(topic, 3, (short) 1), new NewTopic(dlq, 1, (short) 1)))
          .all()
          .get();
    }
    ShipConfig config =
        new ShipConfig(
            bootstrap,
            registry,
            topic,
            dlq,
            "kimi-k25-eagle3",
            "gpu-node-07",
            NormaliseConfig.defaults(),
            Map.of());

    ShipResult first = Ships.shipAndClose(new LogFileShipper(config), SAMPLE);

    assertThat(first)
        .isEqualTo(
            new ShipResult(
                SampleLogsTest.EAGLE3_LINES,
                SampleLogsTest.EAGLE3_RECOGNISED + SampleLogsTest.EAGLE3_CONTEXT_LINES,
                SampleLogsTest.EAGLE3_DEAD,
                SampleLogsTest.EAGLE3_LINES
                    - SampleLogsTest.EAGLE3_RECOGNISED
                    - SampleLogsTest.EAGLE3_CONTEXT_LINES
                    - SampleLogsTest.EAGLE3_DEAD,
                0,
                SampleLogsTest.EAGLE3_CONTEXT_LINES));
    List<ConsumerRecord<String, DecodeEvent>> events =
        TopicReader.records(bootstrap, registry, topic, DecodeEvent.class, 319);
    assertThat(events).hasSize(319).allMatch(r -> r.key().equals("kimi-k25-eagle3"));
    // one key -> one partition, in file order
    assertThat(events.stream().map(ConsumerRecord::partition).distinct()).hasSize(1);
    List<DecodeEvent> values = events.stream().map(ConsumerRecord::value).toList();
    assertThat(values).extracting(DecodeEvent::getLineNumber).isSorted();

    DecodeEvent line10 = values.get(0);
    String absolute = SAMPLE.toAbsolutePath().normalize().toString();
    assertThat(line10.getLineNumber()).isEqualTo(10L);
    assertThat(line10.getSource()).isEqualTo(absolute);
    assertThat(line10.getHost()).isEqualTo("gpu-node-07");
    assertThat(line10.getEventTime()).isEqualTo(Instant.parse("2025-10-20T09:01:11Z"));
    assertThat(line10.getRank()).isEqualTo("TP0");
    assertThat(line10.getAcceptLength()).isEqualTo(1.89);
    assertThat(line10.getRawAcceptRate()).isEqualTo(0.44);
    assertThat(line10.getCycles()).isEqualTo(40L);
    assertThat(line10.getAcceptedTokens()).isEqualTo(36L); // round(0.89 * 40)
    assertThat(line10.getEmittedTokens()).isEqualTo(76L); // round(1.89 * 40)
    assertThat(line10.getGenThroughputTokS()).isEqualTo(59.71);
    assertThat(line10.getCudaGraph()).isFalse();
    assertThat(line10.getIntervalMs()).isNull();
    assertThat(values.get(1).getIntervalMs()).isEqualTo(1000.0);
    assertThat(values.get(1).getCycleMs()).isEqualTo(25.0);
    assertThat(values.subList(1, values.size()))
        .as("the SGLang events written ahead on the parse threads (all but the first)")
        .allMatch(e -> e.getFormat().equals("sglang.decode_batch"));
    assertThat(values).isEqualTo(normalisersEvents(config, values));
    String line10Text = Files.readAllLines(SAMPLE).get(9);
    // the printed fields no typed field holds (--raw-fields UNTYPED, the default): #token only
    assertThat(line10.getRawFields()).containsExactly(entry("#token", "459"));
    assertThat(line10Text).contains("#token: 459").contains("gen throughput (token/s): 59.71");

    List<ConsumerRecord<String, DeadLetter>> dead =
        TopicReader.records(bootstrap, registry, dlq, DeadLetter.class, 2);
    assertThat(dead).hasSize(2).allMatch(r -> r.key().equals(absolute));
    assertThat(dead).extracting(r -> r.value().getLineNumber()).containsExactly(70L, 206L);
    DeadLetter nan = dead.get(1).value();
    assertThat(nan.getStage()).isEqualTo("ingest.parse");
    assertThat(nan.getFormat()).isEqualTo("sglang.decode_batch");
    assertThat(nan.getErrorMessage()).isEqualTo("accept len is not a finite number: 'nan'");
    assertThat(StandardCharsets.UTF_8.decode(nan.getRaw()).toString())
        .isEqualTo(Files.readAllLines(SAMPLE).get(205));
    assertThat(nan.getOffset()).isEqualTo(byteOffsetOfLine(206));
    assertThat(dead.get(0).value().getErrorMessage())
        .isEqualTo("missing field 'gen throughput (token/s)'");

    ShipResult second = Ships.shipAndClose(new LogFileShipper(config), SAMPLE);

    assertThat(second).isEqualTo(first);
    List<DecodeEvent> both =
        TopicReader.records(bootstrap, registry, topic, DecodeEvent.class, 638).stream()
            .map(ConsumerRecord::value)
            .toList();
    assertThat(both).hasSize(638);
    Set<String> firstIds = values.stream().map(DecodeEvent::getEventId).collect(Collectors.toSet());
    Set<String> secondIds =
        both.subList(319, 638).stream().map(DecodeEvent::getEventId).collect(Collectors.toSet());
    assertThat(firstIds).hasSize(319).isEqualTo(secondIds);
  }

  /**
   * The events the normalisers' way ({@link LineIngestor} line by line, no parse threads) builds
   * for the sample, with the ingest times of {@code shipped} (the one value a second run changes).
   */
  private static List<DecodeEvent> normalisersEvents(ShipConfig config, List<DecodeEvent> shipped)
      throws Exception {
    LineIngestor ingestor =
        new LineIngestor(
            new SourceContext(
                config.deploymentId(),
                config.host(),
                SAMPLE.toAbsolutePath().normalize().toString(),
                FileFingerprint.of(SAMPLE)),
            config.normalise(),
            ParserRegistry.defaults(),
            Clock.systemUTC());
    List<DecodeEvent> events = new ArrayList<>();
    LogFileReader.forEachLine(
        SAMPLE,
        line -> {
          for (IngestOutcome part : ingestor.ingest(line).parts()) {
            if (part instanceof IngestOutcome.Event e) {
              DecodeEvent event = e.event();
              event.put("ingestTime", shipped.get(events.size()).getIngestTime());
              events.add(event);
            }
          }
        });
    return events;
  }

  @Test
  void shipsPerRequestRecordsToTheRequestTopic() throws Exception {
    Path file = Path.of("src/test/resources/requests/requests.jsonl");
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.decode-events");
    String dlq = SpecwatchContainers.uniqueName("it.dead-letter");
    String requests = SpecwatchContainers.uniqueName("it.request-acceptance");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(topic, 1, (short) 1),
                  new NewTopic(dlq, 1, (short) 1),
                  new NewTopic(requests, 3, (short) 1)))
          .all()
          .get();
    }
    ShipConfig config =
        new ShipConfig(
            bootstrap,
            registry,
            topic,
            dlq,
            "gw-a",
            "gateway-1",
            NormaliseConfig.defaults(),
            Map.of(),
            requests);

    ShipResult result = Ships.shipAndClose(new LogFileShipper(config), file);

    assertThat(result).isEqualTo(new ShipResult(6, 3, 2, 1));
    List<RequestAcceptance> values =
        TopicReader.records(bootstrap, registry, requests, RequestAcceptance.class, 3).stream()
            .peek(r -> assertThat(r.key()).isEqualTo("gw-a"))
            .map(ConsumerRecord::value)
            .toList();
    assertThat(values).hasSize(3);
    String absolute = file.toAbsolutePath().normalize().toString();
    RequestAcceptance first = values.get(0);
    assertThat(first.getRequestId()).isEqualTo("req-1");
    assertThat(first.getDeploymentId()).isEqualTo("gw-a");
    assertThat(first.getHost()).isEqualTo("gateway-1");
    assertThat(first.getSource()).isEqualTo(absolute);
    assertThat(first.getEngine()).isEqualTo(Engine.INSTRUMENTED);
    assertThat(first.getFinishedAt()).isEqualTo(Instant.parse("2026-03-01T12:00:00Z"));
    assertThat(first.getPromptHash()).isEqualTo("9f2c");
    assertThat(first.getPromptCategory()).isEqualTo("code");
    assertThat(first.getModel()).isEqualTo("kimi-k2.5");
    assertThat(first.getDraftModelVersion()).isEqualTo("eagle3-v4");
    assertThat(first.getPromptTokens()).isEqualTo(512L);
    assertThat(first.getOutputTokens()).isEqualTo(300L);
    assertThat(first.getVerifyCycles()).isEqualTo(120L);
    assertThat(first.getAcceptedTokens()).isEqualTo(180L);
    assertThat(first.getDraftedTokens()).isEqualTo(360L);
    assertThat(first.getAcceptLength()).isEqualTo(2.5);
    assertThat(first.getAcceptHistogram()).containsExactly(20L, 40L, 40L, 20L);
    assertThat(values.get(1).getFinishedAt()).isEqualTo(Instant.parse("2026-03-01T12:00:01.500Z"));
    assertThat(values.get(1).getAcceptLength()).isEqualTo(1.75);
    RequestAcceptance sglang = values.get(2);
    assertThat(sglang.getEngine()).isEqualTo(Engine.SGLANG);
    assertThat(sglang.getRequestId()).isEqualTo("a1b2");
    assertThat(sglang.getAcceptLength()).isEqualTo(3.2);
    assertThat(sglang.getRawAcceptRate()).isEqualTo(0.55);
    assertThat(sglang.getAcceptedTokens()).isEqualTo(40L);

    List<ConsumerRecord<String, DeadLetter>> dead =
        TopicReader.records(bootstrap, registry, dlq, DeadLetter.class, 2);
    assertThat(dead).extracting(r -> r.value().getLineNumber()).containsExactly(4L, 5L);
    assertThat(dead).extracting(r -> r.value().getFormat()).containsOnly("request.v1");
    assertThat(TopicReader.records(bootstrap, registry, topic, DecodeEvent.class, 0)).isEmpty();
  }

  private static long byteOffsetOfLine(int lineNumber) throws Exception {
    byte[] bytes = Files.readAllBytes(SAMPLE);
    int line = 1;
    for (int i = 0; i < bytes.length && line < lineNumber; i++) {
      if (bytes[i] == '\n') {
        line++;
        if (line == lineNumber) {
          return i + 1L;
        }
      }
    }
    throw new IllegalStateException("no line " + lineNumber);
  }
}
