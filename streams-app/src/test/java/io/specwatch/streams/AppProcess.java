package io.specwatch.streams;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The streams app's packaged jar ({@code target/specwatch-streams-app-*.jar}, built in the package
 * phase before failsafe runs) started as a separate JVM: {@code java -jar ... run ARGS}, output in
 * a log file. {@link #kill9()} is SIGKILL (no shutdown hook, no close, no LeaveGroup).
 */
final class AppProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;

  private AppProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** The packaged app jar of this module. */
  static Path appJar() throws IOException {
    Path target = Path.of(System.getProperty("basedir", ".")).resolve("target");
    try (DirectoryStream<Path> jars =
        Files.newDirectoryStream(target, "specwatch-streams-app-*.jar")) {
      for (Path jar : jars) {
        String f = jar.getFileName().toString();
        if (!f.endsWith("-tests.jar") && !f.endsWith("-sources.jar")) {
          return jar;
        }
      }
    }
    throw new IllegalStateException(
        "no packaged app jar in " + target + ": run the integration tests with mvn verify");
  }

  /**
   * The {@code run} options of a test instance: 1-minute windows with 10 s grace over {@code in},
   * results to {@code out}, {@code guarantee}, a commit every {@code commitMs} and no record cache
   * (every update goes to the changelog inside the open transaction). The run-context (input side),
   * dead-letter and alerts topics are named after {@code in} and {@code out} and created by the
   * app. Mutable: callers add their own options.
   */
  static List<String> runArgs(
      String bootstrap,
      String registry,
      String appId,
      Path stateDir,
      String in,
      String out,
      String guarantee,
      int commitMs) {
    return new ArrayList<>(
        List.of(
            "--bootstrap",
            bootstrap,
            "--registry-url",
            registry,
            "--application-id",
            appId,
            "--state-dir",
            stateDir.toString(),
            "--decode-events-topic",
            in,
            "--window-results-topic",
            out,
            "--window",
            "1m",
            "--grace",
            "10s",
            "--run-context-topic",
            in + "-run-context",
            "--dead-letter-topic",
            out + "-dead-letters",
            "--alerts-topic",
            out + "-alerts",
            "-K",
            "processing.guarantee=" + guarantee,
            "-K",
            "commit.interval.ms=" + commitMs,
            "-K",
            "statestore.cache.max.bytes=0"));
  }

  /**
   * Starts {@code java -jar <app jar> run <args>} with a small heap; SPECWATCH_* variables of this
   * JVM are not passed on, so only {@code args} configure the app. Output goes to {@code logDir}.
   */
  static AppProcess start(String name, Path logDir, List<String> args) throws IOException {
    Files.createDirectories(logDir);
    Path log = logDir.resolve(name + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // quick start on a small box: C1 only, serial GC; the heap the benches and demo give the app
    // (a restart after kill -9 restores whole window values from the changelog)
    cmd.addAll(List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    cmd.addAll(List.of("-jar", appJar().toString(), "run"));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
    pb.environment().keySet().removeIf(k -> k.startsWith("SPECWATCH_"));
    return new AppProcess(name, pb.start(), log);
  }

  String name() {
    return name;
  }

  long pid() {
    return process.pid();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path log() {
    return log;
  }

  /**
   * Throws when the process has exited, with its exit code and an excerpt of its log (the first
   * ERROR lines and the last lines), so a CI report shows why without the log file.
   */
  void assertAlive(String what) {
    if (!process.isAlive()) {
      throw new AssertionError(
          what + " exited with code " + process.exitValue() + "; log " + log + "\n" + excerpt());
    }
  }

  /** Up to 20 ERROR/FATAL lines (with the line after each) and the last 40 lines of the log. */
  String excerpt() {
    List<String> lines;
    try {
      lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    } catch (IOException | UncheckedIOException e) {
      return "(log unreadable: " + e + ")";
    }
    StringBuilder sb = new StringBuilder("--- errors:\n");
    int errors = 0;
    for (int i = 0; i < lines.size() && errors < 20; i++) {
      if (lines.get(i).contains(" ERROR ") || lines.get(i).contains("Exception in thread")) {
        sb.append(lines.get(i)).append('\n');
        if (i + 1 < lines.size()) {
          sb.append(lines.get(i + 1)).append('\n');
        }
        errors++;
      }
    }
    sb.append("--- last lines:\n");
    lines
        .subList(Math.max(0, lines.size() - 40), lines.size())
        .forEach(l -> sb.append(l).append('\n'));
    return sb.toString();
  }

  /** SIGKILL, then waits for the process to be gone; returns its exit code (137 for SIGKILL). */
  int kill9() throws InterruptedException {
    process.destroyForcibly();
    return process.waitFor();
  }

  /** SIGTERM (the app closes and commits), then waits up to {@code timeout}; the exit code. */
  int stop(Duration timeout) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(name + " did not stop within " + timeout + ", see " + log);
    }
    return process.exitValue();
  }

  /** Waits up to {@code timeout} for the process to exit by itself; the exit code. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(name + " still running after " + timeout + ", see " + log);
    }
    return process.exitValue();
  }

  /** Kills the process if it still runs (test cleanup). */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
