package io.specwatch.e2e.faults;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One pipeline app (ingest tail, streams-app, sink) as its own JVM, started from this test JVM's
 * class path with the app's main class (the same code the packaged jars run), SPECWATCH_* variables
 * removed so only {@code args} configure it, output appended to {@code <logDir>/<name>.log}. {@link
 * #kill9()} is SIGKILL: no shutdown hook, no close, no final commit or checkpoint.
 */
final class JvmProcess implements AutoCloseable {

  /** Linux reports a process killed by signal N as exit code 128 + N. */
  static final int SIGKILL_EXIT = 128 + 9;

  private final String name;
  private final Process process;
  private final Path log;

  private JvmProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  static JvmProcess start(String name, String mainClass, List<String> args, Path logDir)
      throws IOException {
    return start(name, mainClass, args, logDir, null);
  }

  /**
   * As {@link #start(String, String, List, Path)} with {@code classesFirst} (when not null) ahead
   * of the class path: classes there shadow the app's own (a schema-evolution scenario's v2 record
   * class).
   */
  static JvmProcess start(
      String name, String mainClass, List<String> args, Path logDir, Path classesFirst)
      throws IOException {
    Files.createDirectories(logDir);
    Path log = logDir.resolve(name + ".log");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // small heap, quick start on a small shared machine: C1 only, serial GC
    cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    String cp = classPath();
    if (classesFirst != null) {
      cp = classesFirst + File.pathSeparator + cp;
    }
    cmd.addAll(List.of("-cp", cp, mainClass));
    cmd.addAll(args);
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().keySet().removeIf(k -> k.startsWith("SPECWATCH_"));
    return new JvmProcess(name, pb.start(), log);
  }

  /** The test class path (failsafe sets java.class.path to it in the forked JVM). */
  private static String classPath() {
    String cp = System.getProperty("java.class.path");
    for (String entry : cp.split(File.pathSeparator)) {
      if (entry.contains("specwatch-ingest")
          || entry.contains("ingest" + File.separator + "target")) {
        return cp;
      }
    }
    throw new IllegalStateException(
        "java.class.path does not hold the ingest module (" + cp + "): run through mvn verify");
  }

  String name() {
    return name;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  Path log() {
    return log;
  }

  /** The last {@code max} characters of the output, for failure messages. */
  String tail(int max) {
    try {
      String s = Files.readString(log);
      return s.length() <= max ? s : "..." + s.substring(s.length() - max);
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  /** SIGKILL; waits until it is gone and returns the exit code (137). */
  int kill9() throws InterruptedException {
    process.destroyForcibly();
    return process.waitFor();
  }

  /** SIGTERM, then waits up to {@code timeout}; the exit code. */
  int stop(Duration timeout) throws InterruptedException {
    process.destroy();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException(
          name + " did not stop within " + timeout + ":\n" + tail(4000));
    }
    return process.exitValue();
  }

  /** Waits up to {@code timeout} for the process to exit by itself; the exit code. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(
          name + " still running after " + timeout + ":\n" + tail(4000));
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
