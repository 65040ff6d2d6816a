package io.specwatch.ingest.generate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.specwatch.ingest.cli.IngestCli;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DeadLetter;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RunContext;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Generated files shipped as the manifest says ({@code ingest ship --file F <shipArgs>}) reach the
 * real broker and registry with the run contexts the manifest names: the instrumented deployment's
 * contexts get the same ids as {@code --publish} gives them, and its events carry them.
 */
class GeneratedFilesShipIT {

  @TempDir Path tmp;

  @Test
  void shippingTheFilesWithTheirShipArgsGivesTheManifestsRunContexts() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String decode = SpecwatchContainers.uniqueName("it.genship.decode");
    String dlq = SpecwatchContainers.uniqueName("it.genship.dlq");
    String requests = SpecwatchContainers.uniqueName("it.genship.requests");
    String contexts = SpecwatchContainers.uniqueName("it.genship.context");
    Path out = tmp.resolve("gen");
    GenerateConfig config =
        new GenerateConfig(
            "demo",
            0,
            42,
            FleetGenerator.DEFAULT_START,
            Duration.ofMinutes(2),
            out,
            null,
            false,
            1,
            List.of(DemoScenario.KIMI_EAGLE3_NCCL));
    Generate.run(config, nanos -> {}, new PrintWriter(new StringWriter()));
    JsonNode d =
        new ObjectMapper().readTree(out.resolve(Manifest.FILE).toFile()).path("deployments").get(0);
    assertThat(d.path("id").asText()).isEqualTo(DemoScenario.KIMI_EAGLE3_NCCL);

    Path log = out.resolve(DemoScenario.KIMI_EAGLE3_NCCL).resolve(LineSink.ENGINE_LOG);
    List<String> args =
        new ArrayList<>(
            List.of(
                "ship",
                "--file",
                log.toString(),
                "--bootstrap",
                bootstrap,
                "--registry-url",
                registry,
                "--topic",
                decode,
                "--dlq-topic",
                dlq,
                "--request-topic",
                requests,
                "--run-context-topic",
                contexts));
    d.path("shipArgs").forEach(a -> args.add(a.asText()));
    CommandLine cli = IngestCli.newCommandLine();
    StringWriter err = new StringWriter();
    cli.setErr(new PrintWriter(err));
    cli.setOut(new PrintWriter(new StringWriter()));
    assertThat(cli.execute(args.toArray(String[]::new))).as(err.toString()).isZero();

    long lines = Files.lines(log).count();
    // each run_context line of the file, merged with what the command line states (the
    // hardware); nothing at start: observed "now", it would sort after the file's older lines
    List<RunContext> rc = TopicReader.values(bootstrap, registry, contexts, RunContext.class, 2);
    assertThat(rc).hasSize(2);
    assertThat(rc).allMatch(c -> c.getHardwareClass().equals("rtx-pro-6000x8"));
    assertThat(rc.get(0).getModel()).isNotEqualTo("unknown");
    assertThat(rc.get(0).getObservedAt())
        .isBefore(Instant.parse(d.path("segments").get(1).path("from").asText()));
    List<String> expected = new ArrayList<>();
    d.path("segments").forEach(s -> expected.add(s.path("runContextId").asText()));
    assertThat(rc).extracting(RunContext::getContextId).containsExactlyElementsOf(expected);
    assertThat(rc.get(0).getEnv()).containsKey("NCCL_PROTO");
    assertThat(rc.get(1).getEnv()).isEmpty();

    List<DecodeEvent> events =
        TopicReader.values(bootstrap, registry, decode, DecodeEvent.class, lines - 2);
    assertThat(events).hasSize((int) (lines - 2));
    // the restart's run_context line is stamped when the new segment's first cycle starts, a
    // little after the segment boundary (the last old cycle ends then)
    Instant change = Instant.parse(d.path("segments").get(1).path("from").asText());
    Instant restart = rc.get(1).getObservedAt();
    assertThat(restart).isBetween(change, change.plusMillis(100));
    for (DecodeEvent e : events) {
      if (!e.getEventTime().equals(restart)) {
        String want = e.getEventTime().isBefore(restart) ? expected.get(0) : expected.get(1);
        assertThat(e.getRunContextId()).as("event at %s", e.getEventTime()).isEqualTo(want);
      }
    }
    double before =
        events.stream()
            .filter(e -> e.getEventTime().isBefore(change))
            .mapToDouble(DecodeEvent::getVerifyMs)
            .average()
            .orElseThrow();
    double after =
        events.stream()
            .filter(e -> !e.getEventTime().isBefore(change))
            .mapToDouble(DecodeEvent::getVerifyMs)
            .average()
            .orElseThrow();
    assertThat(before).isBetween(18.0, 20.5);
    assertThat(after).isBetween(28.0, 31.0);
    assertThat(TopicReader.values(bootstrap, registry, dlq, DeadLetter.class, 0)).isEmpty();
  }
}
