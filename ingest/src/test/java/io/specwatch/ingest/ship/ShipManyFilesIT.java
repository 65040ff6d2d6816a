package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.ingest.cli.IngestCli;
import io.specwatch.ingest.testing.TopicReader;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.testkit.SpecwatchContainers;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code ingest ship --file A --file B [--files-from LIST]}: one shipper ships every file in the
 * given order (the benchmark's warm-up file, then the measured one), every line of each, with one
 * summary line per file.
 */
class ShipManyFilesIT {

  @TempDir Path tmp;

  @Test
  void shipsEveryFileInTheGivenOrder() throws Exception {
    Path a = tmp.resolve("a.log");
    Path b = tmp.resolve("b.log");
    Files.write(a, lines(0, 30));
    Files.write(b, lines(30, 20));

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String topic = SpecwatchContainers.uniqueName("it.shipmany.decode");
    int exit = ship(out, err, topic, "--file", a.toString(), "--file", b.toString());
    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("shipped " + a + ": lines=30 recognised=30")
        .contains("shipped " + b + ": lines=20 recognised=20");
    assertEventsInOrder(topic, List.of(a, b), List.of(30, 20));
  }

  /**
   * {@code --files-from FIFO}: each file is shipped as its name arrives, after the {@code --file}
   * ones (the benchmark names its measured file pass by pass and runs kcat in between): c is named
   * only once b's summary is out, and the run ends when the writer closes the pipe.
   */
  @Test
  void shipsTheFilesNamedOnAPipeAsTheirNamesArrive() throws Exception {
    Path a = tmp.resolve("a.log");
    Path b = tmp.resolve("b.log");
    Path c = tmp.resolve("c.log");
    Files.write(a, lines(0, 10));
    Files.write(b, lines(10, 15));
    Files.write(c, lines(25, 5));
    Path fifo = tmp.resolve("names");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor())
        .isZero();

    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    AtomicReference<String> outBeforeC = new AtomicReference<>();
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              // opening blocks until the shipper opens the pipe, after shipping a
              try (Writer names = Files.newBufferedWriter(fifo)) {
                names.write("\n" + b + "\n");
                names.flush();
                Awaitility.await()
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> out.toString().contains("shipped " + b + ":"));
                outBeforeC.set(out.toString());
                names.write(c + "\n");
              } catch (Throwable t) {
                writerFailure.set(t);
              }
            },
            "names-writer");
    writer.start();
    String topic = SpecwatchContainers.uniqueName("it.shipmany.decode");
    int exit = ship(out, err, topic, "--file", a.toString(), "--files-from", fifo.toString());
    writer.join(Duration.ofMinutes(1).toMillis());
    assertThat(writerFailure.get()).isNull();
    assertThat(exit).as(err.toString()).isZero();
    assertThat(outBeforeC.get())
        .contains("shipped " + a + ": lines=10 recognised=10")
        .contains("shipped " + b + ": lines=15 recognised=15")
        .doesNotContain("shipped " + c);
    assertThat(out.toString()).contains("shipped " + c + ": lines=5 recognised=5");
    assertEventsInOrder(topic, List.of(a, b, c), List.of(10, 15, 5));
  }

  private static int ship(StringWriter out, StringWriter err, String topic, String... files) {
    CommandLine cli = IngestCli.newCommandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    List<String> args = new ArrayList<>(List.of("ship"));
    args.addAll(List.of(files));
    args.addAll(
        List.of(
            "--deployment",
            "many-files",
            "--bootstrap",
            SpecwatchContainers.kafkaBootstrap(),
            "--registry-url",
            SpecwatchContainers.registryUrl(),
            "--topic",
            topic,
            "--dlq-topic",
            SpecwatchContainers.uniqueName("it.shipmany.dlq"),
            "--request-topic",
            SpecwatchContainers.uniqueName("it.shipmany.requests"),
            "--run-context-topic",
            SpecwatchContainers.uniqueName("it.shipmany.context"),
            "--no-progress"));
    return cli.execute(args.toArray(new String[0]));
  }

  /** The topic holds each file's lines as events, file after file, each in line order. */
  private static void assertEventsInOrder(String topic, List<Path> files, List<Integer> counts)
      throws Exception {
    int total = counts.stream().mapToInt(Integer::intValue).sum();
    List<DecodeEvent> events =
        TopicReader.values(
            SpecwatchContainers.kafkaBootstrap(),
            SpecwatchContainers.registryUrl(),
            topic,
            DecodeEvent.class,
            total);
    assertThat(events).hasSize(total);
    // one key (the deployment), one partition: file after file, each in file order
    List<String> order = new ArrayList<>();
    events.forEach(e -> order.add(Path.of(e.getSource()).getFileName() + ":" + e.getLineNumber()));
    List<String> expected = new ArrayList<>();
    for (int f = 0; f < files.size(); f++) {
      for (int i = 1; i <= counts.get(f); i++) {
        expected.add(files.get(f).getFileName() + ":" + i);
      }
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
