package io.specwatch.ingest.tail;

import io.specwatch.testkit.TestPorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ingest tail} as its own JVM, started from the module's packaged jar (built in the {@code
 * package} phase, before failsafe runs; its path comes from the {@code specwatch.ingest.jar} system
 * property the pom sets), with {@code /health} on a free port. Output goes to a file for the
 * failure message.
 */
final class ShipperProcess implements AutoCloseable {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  final Process process;
  final int healthPort;
  final Path output;

  private ShipperProcess(Process process, int healthPort, Path output) {
    this.process = process;
    this.healthPort = healthPort;
    this.output = output;
  }

  /** The packaged ingest jar; fails (never skips) when it was not built. */
  static Path jar() {
    String configured = System.getProperty("specwatch.ingest.jar");
    Path jar =
        configured != null
            ? Path.of(configured)
            : Path.of("target", "specwatch-ingest-0.1.0-SNAPSHOT.jar").toAbsolutePath();
    if (!Files.isRegularFile(jar) || !Files.isDirectory(jar.resolveSibling("lib"))) {
      throw new IllegalStateException(
          "the ingest jar "
              + jar
              + " (and its lib/) is missing: run the ITs through `mvn verify` (package phase first)");
    }
    return jar;
  }

  /** Starts {@code java -jar ingest.jar tail ARGS --health-port P}, output to outputFile. */
  static ShipperProcess startTail(List<String> args, Path outputFile) throws IOException {
    int port = TestPorts.freePort();
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-jar");
    cmd.add(jar().toString());
    cmd.add("tail");
    cmd.addAll(args);
    cmd.add("--health-port");
    cmd.add(Integer.toString(port));
    cmd.add("--health-bind");
    cmd.add("127.0.0.1");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile()));
    pb.environment().keySet().removeIf(k -> k.startsWith("SPECWATCH_"));
    return new ShipperProcess(pb.start(), port, outputFile);
  }

  /** HTTP status of {@code GET /health/<what>}, -1 when nothing answers. */
  int health(String what) {
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + healthPort + "/health/" + what))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Null while the process runs, else its exit code and output (for {@link EventTopic}). */
  String deathNotice() {
    return process.isAlive()
        ? null
        : "shipper exited with " + process.exitValue() + "; output:\n" + output();
  }

  /** The process output so far, for assertion messages. */
  String output() {
    try {
      return Files.readString(output);
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  /** Waits for the exit; returns the exit code. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError("shipper did not exit within " + timeout + "; output:\n" + output());
    }
    return process.exitValue();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
