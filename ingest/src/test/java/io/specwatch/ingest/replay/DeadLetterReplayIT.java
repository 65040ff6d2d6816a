package io.specwatch.ingest.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.cli.IngestCli;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.ingest.parse.LineParser;
import io.specwatch.ingest.parse.ParseResult;
import io.specwatch.ingest.parse.ParserRegistry;
import io.specwatch.ingest.parse.sglang.SglangDecodeBatchParser;
import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipResult;
import io.specwatch.ingest.testing.Ships;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Dead letters produced for real by shipping with a buggy parser version (it rejects SGLang lines
 * with {@code cuda graph: True}), then {@code ingest replay-dead-letters} with the current parsers:
 * exactly the rejected lines come back as events with the ids the current shipper gives them.
 */
class DeadLetterReplayIT {

  private static final String LINE =
      "[2026-03-14 09:%02d:%02d TP0] Decode batch. #running-req: 4, #token: 9000, token usage:"
          + " 0.10, accept len: %s, accept rate: 0.40, cuda graph: %s, gen throughput (token/s):"
          + " 60.00, #queue-req: 0, ";

  /** The parser version with the bug: cuda graph True lines fail. */
  private static final LineParser BUGGY =
      new LineParser() {
        private final SglangDecodeBatchParser real = new SglangDecodeBatchParser();

        @Override
        public String format() {
          return real.format();
        }

        @Override
        public ParseResult parse(String line) {
          ParseResult r = real.parse(line);
          if (r instanceof ParseResult.Parsed && line.contains("cuda graph: True")) {
            return ParseResult.failed(format(), "unsupported cuda graph value 'True'");
          }
          return r;
        }
      };

  @Test
  void replaysExactlyTheRejectedLinesWithTheirDeterministicIds(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("sglang.log");
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      lines.add(
          String.format(
              LINE, i / 6, (i * 10) % 60, "1." + (50 + i), i % 3 == 0 ? "True" : "False"));
    }
    lines.add(String.format(LINE, 9, 0, "nan", "False")); // still failing after the fix
    Files.write(log, lines);
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.decode-events");
    String reference = SpecwatchContainers.uniqueName("it.decode-reference");
    String dlq = SpecwatchContainers.uniqueName("it.dead-letter");
    String requests = SpecwatchContainers.uniqueName("it.request-acceptance");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(topic, 2, (short) 1),
                  new NewTopic(reference, 1, (short) 1),
                  new NewTopic(dlq, 2, (short) 1),
                  new NewTopic(dlq + ".reference", 1, (short) 1),
                  new NewTopic(requests, 1, (short) 1)))
          .all()
          .get();
    }
    ShipResult buggy =
        Ships.shipAndClose(
            new LogFileShipper(
                config(bootstrap, registry, topic, dlq, requests),
                Clock.systemUTC(),
                new ParserRegistry(List.of(BUGGY))),
            log);
    assertThat(buggy.deadLettered()).isEqualTo(5); // i = 0, 3, 6, 9 and the nan line
    Ships.shipAndClose(
        new LogFileShipper(config(bootstrap, registry, reference, dlq + ".reference", requests)),
        log);
    Map<String, DecodeEvent> fixed =
        TopicReader.records(bootstrap, registry, reference, DecodeEvent.class, 10).stream()
            .map(ConsumerRecord::value)
            .collect(Collectors.toMap(DecodeEvent::getEventId, Function.identity()));
    assertThat(TopicReader.records(bootstrap, registry, dlq, DeadLetter.class, 5)).hasSize(5);

    String summary = replay(bootstrap, registry, topic, dlq, requests, "--from-beginning");

    assertThat(summary)
        .contains(
            "read=5 replayed=4 events=4 requests=0 still-failing=1 other-stage=0"
                + " nothing-to-publish=0");
    List<DecodeEvent> all =
        TopicReader.records(bootstrap, registry, topic, DecodeEvent.class, 10).stream()
            .map(ConsumerRecord::value)
            .toList();
    assertThat(all).hasSize(10);
    // every line once, each with the id and values the current shipper gives it
    assertThat(all.stream().map(DecodeEvent::getEventId).collect(Collectors.toSet()))
        .isEqualTo(fixed.keySet());
    List<DecodeEvent> replayed = all.stream().filter(DecodeEvent::getCudaGraph).toList();
    assertThat(replayed)
        .extracting(DecodeEvent::getLineNumber)
        .containsExactlyInAnyOrder(1L, 4L, 7L, 10L);
    for (DecodeEvent e : replayed) {
      DecodeEvent want = fixed.get(e.getEventId());
      assertThat(e.getAcceptLength()).isEqualTo(want.getAcceptLength());
      assertThat(e.getSourceOffset()).isEqualTo(want.getSourceOffset());
      assertThat(e.getEventTime()).isEqualTo(want.getEventTime());
      assertThat(e.getSource()).isEqualTo(want.getSource());
    }

    // progress is committed: the same group finds nothing new
    assertThat(replay(bootstrap, registry, topic, dlq, requests))
        .contains("read=0 replayed=0 events=0");
  }

  private static String replay(
      String bootstrap, String registry, String topic, String dlq, String requests, String... more)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "replay-dead-letters",
                "--bootstrap",
                bootstrap,
                "--registry-url",
                registry,
                "--topic",
                topic,
                "--dlq-topic",
                dlq,
                "--request-topic",
                requests,
                "--group-id",
                "it.replay-" + dlq));
    args.addAll(List.of(more));
    CommandLine cli = IngestCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int code = cli.execute(args.toArray(String[]::new));
    assertThat(code).as("exit code, stderr: %s", err).isZero();
    return out.toString();
  }

  private static ShipConfig config(
      String bootstrap, String registry, String topic, String dlq, String requests) {
    return new ShipConfig(
        bootstrap,
        registry,
        topic,
        dlq,
        "kimi-eagle3",
        "gpu-node-01",
        NormaliseConfig.defaults(),
        Map.of(),
        requests);
  }
}
