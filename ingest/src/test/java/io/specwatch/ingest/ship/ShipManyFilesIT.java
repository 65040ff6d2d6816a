package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.cli.IngestCli;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ingest ship --file A --file B}: one shipper ships both files in the given order (the
 * benchmark's warm-up file, then the measured one), every line of each, with one summary line per
 * file.
 */
class ShipManyFilesIT {

  @TempDir Path tmp;

  @Test
  void shipsEveryFileInTheGivenOrder() throws Exception {
    String bootstrap = SpecwatchContainers.kafkaBootstrap();
    String registry = SpecwatchContainers.registryUrl();
    String topic = SpecwatchContainers.uniqueName("it.shipmany.decode");
    Path a = tmp.resolve("a.log");
    Path b = tmp.resolve("b.log");
    Files.write(a, lines(0, 30));
    Files.write(b, lines(30, 20));

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit =
        cli.execute(
            "ship",
            "--file",
            a.toString(),
            "--file",
            b.toString(),
            "--deployment",
            "many-files",
            "--bootstrap",
            bootstrap,
            "--registry-url",
            registry,
            "--topic",
            topic,
            "--dlq-topic",
            SpecwatchContainers.uniqueName("it.shipmany.dlq"),
            "--request-topic",
            SpecwatchContainers.uniqueName("it.shipmany.requests"),
            "--run-context-topic",
            SpecwatchContainers.uniqueName("it.shipmany.context"),
            "--no-progress");
    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("shipped " + a + ": lines=30 recognised=30")
        .contains("shipped " + b + ": lines=20 recognised=20");

    List<DecodeEvent> events =
        TopicReader.values(bootstrap, registry, topic, DecodeEvent.class, 50);
    assertThat(events).hasSize(50);
    // one key (the deployment), one partition: a's 30 lines, then b's 20, each in file order
    List<String> order = new ArrayList<>();
    events.forEach(e -> order.add(Path.of(e.getSource()).getFileName() + ":" + e.getLineNumber()));
    List<String> expected = new ArrayList<>();
    for (int i = 1; i <= 30; i++) {
      expected.add("a.log:" + i);
    }
    for (int i = 1; i <= 20; i++) {
      expected.add("b.log:" + i);
    }
    assertThat(order).containsExactlyElementsOf(expected);
    assertThat(events).extracting(DecodeEvent::getAcceptLength).doesNotContainNull();
  }

  private static List<String> lines(int from, int n) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(
          String.format(
              "[2025-10-20 09:%02d:%02d TP0] Decode batch. #running-req: 2, #token: 1000, token"
                  + " usage: 0.05, accept len: 2.%02d, cuda graph: True, gen throughput (token/s):"
                  + " 80.00, #queue-req: 0, ",
              i / 60, i % 60, i % 100));
    }
    return out;
  }
}
