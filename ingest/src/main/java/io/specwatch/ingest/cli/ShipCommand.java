package io.specwatch.ingest.cli;

import io.specwatch.ingest.ship.IngestMetrics;
import io.specwatch.ingest.ship.IngestOutcome;
import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipObserver;
import io.specwatch.ingest.ship.ShipResult;
import io.specwatch.ingest.ship.SourceLine;
import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.Durations;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.runtime.KafkaOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ship}: whole files to Kafka, one after the other, then exit 0 (non-zero on any delivery
 * failure): those of {@code --file}, then those named by {@code --files-from}, each shipped as its
 * name is read.
 */
@Command(
    name = "ship",
    mixinStandardHelpOptions = true,
    description =
        "Ship whole log files, one after the other, to the decode-events, request, run-context"
            + " and dead-letter topics, then exit. Exit codes: 0 shipped, 2 bad setting or"
            + " delivery failure.")
final class ShipCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--file",
      defaultValue = "${env:SPECWATCH_FILE}",
      description =
          "Log file to ship (env SPECWATCH_FILE); repeat for several files, shipped in the given"
              + " order by one shipper (one producer per file, one run-context tracker).")
  List<Path> files;

  @Option(
      names = "--files-from",
      defaultValue = "${env:SPECWATCH_FILES_FROM}",
      description =
          "A file naming log files, one path per line, or - for stdin (env SPECWATCH_FILES_FROM):"
              + " each is shipped as its line is read, after the --file ones, by the same shipper;"
              + " blank lines are skipped, the end of the input ends the run. A pipe or FIFO feeds"
              + " a warm shipper file by file (the ingest benchmark runs kcat between its files).")
  String filesFrom;

  @Mixin KafkaOptions kafka;

  @Mixin ShipTargetOptions target;

  @Mixin RunContextOptions context;

  @Mixin NormaliseOptions normalise;

  @Mixin HealthOptions health;

  @Option(
      names = "--no-progress",
      defaultValue = "${env:SPECWATCH_NO_PROGRESS:-false}",
      description = "No progress display on stderr (env SPECWATCH_NO_PROGRESS).")
  boolean noProgress;

  @Option(
      names = "--progress-interval",
      defaultValue = "${env:SPECWATCH_PROGRESS_INTERVAL:-5s}",
      converter = Durations.Converter.class,
      description =
          "Spacing of the progress log line when stderr is not a terminal (env"
              + " SPECWATCH_PROGRESS_INTERVAL, default ${DEFAULT-VALUE}).")
  Duration progressInterval;

  @Option(
      names = "--parse-threads",
      defaultValue = "${env:SPECWATCH_PARSE_THREADS:-1}",
      description =
          "Threads that parse the lines ahead of the one that normalises and sends them, 1 to 64"
              + " (env SPECWATCH_PARSE_THREADS, default ${DEFAULT-VALUE}; one keeps up with the"
              + " sending thread on a small host, more help where cores are spare).")
  int parseThreads;

  @Override
  public Integer call() throws IOException {
    LogFileShipper.requireParseThreads(parseThreads);
    // picocli's list (may hold null: an unset SPECWATCH_FILE default); List.of() rejects
    // contains(null)
    List<Path> given = files == null ? new ArrayList<>() : files;
    if (given.contains(null) || (given.isEmpty() && filesFrom == null)) {
      throw new IllegalArgumentException(
          "setting 'file' (SPECWATCH_FILE) or 'files-from' (SPECWATCH_FILES_FROM) is required");
    }
    for (Path file : given) {
      if (!Files.isReadable(file)) {
        throw new IllegalArgumentException(
            "setting 'file' (SPECWATCH_FILE): cannot read '" + file + "'");
      }
    }
    Path list = filesFrom == null || filesFrom.equals("-") ? null : listPath(filesFrom);
    if (list != null && !Files.isReadable(list)) {
      throw new IllegalArgumentException(
          "setting 'files-from' (SPECWATCH_FILES_FROM): cannot read '" + filesFrom + "'");
    }
    ShipConfig config = target.toShipConfig(kafka, normalise.toConfig(), context);
    try (AppRuntime runtime = AppRuntime.start("ingest-ship", health);
        LogFileShipper shipper = new LogFileShipper(config, parseThreads)) {
      runtime.readiness().ready();
      // one set of shipper metrics for the run; bytes behind counts the file being shipped
      AtomicLong size = new AtomicLong();
      AtomicLong position = new AtomicLong();
      IngestMetrics metrics =
          new IngestMetrics(runtime.registry(), () -> Math.max(0, size.get() - position.get()));
      for (Path file : given) {
        ship(shipper, metrics, size, position, file);
      }
      if (filesFrom != null) {
        // read line by line, not ahead: a writer names the next file when it wants it shipped
        try (BufferedReader names =
            new BufferedReader(
                new InputStreamReader(
                    list == null ? System.in : Files.newInputStream(list),
                    StandardCharsets.UTF_8))) {
          long n = 0;
          for (String name = names.readLine(); name != null; name = names.readLine()) {
            n++;
            if (name.isBlank()) {
              continue;
            }
            ship(shipper, metrics, size, position, listedFile(name, n));
          }
        }
      }
    }
    return 0;
  }

  private static Path listPath(String value) {
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          "setting 'files-from' (SPECWATCH_FILES_FROM): not a path: " + e.getMessage(), e);
    }
  }

  /** The file named on line {@code n} of the --files-from input; fails naming the setting. */
  private Path listedFile(String name, long n) {
    String where = "setting 'files-from' (SPECWATCH_FILES_FROM), line " + n + " of '" + filesFrom;
    Path file;
    try {
      file = Path.of(name);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(where + "': not a path: " + e.getMessage(), e);
    }
    if (!Files.isReadable(file) || Files.isDirectory(file)) {
      throw new IllegalArgumentException(where + "': cannot read '" + file + "'");
    }
    return file;
  }

  /** Ships one file; {@code size} and {@code position} (the metrics' bytes behind) start anew. */
  private void ship(
      LogFileShipper shipper,
      IngestMetrics metrics,
      AtomicLong size,
      AtomicLong position,
      Path file)
      throws IOException {
    position.set(0);
    size.set(Files.size(file));
    ShipProgress progress =
        noProgress
            ? null
            : new ShipProgress(
                spec.commandLine().getErr(),
                file.toString(),
                size.get(),
                System.console() != null,
                progressInterval,
                Clock.systemUTC());
    ShipObserver observer =
        ShipObserver.both(
            metrics,
            new ShipObserver() {
              @Override
              public void line(SourceLine line, long endOffset, IngestOutcome outcome) {
                position.set(endOffset);
              }
            });
    if (progress != null) {
      observer = ShipObserver.both(observer, progress);
    }
    ShipResult r = shipper.ship(file, observer);
    if (progress != null) {
      progress.done();
    }
    spec.commandLine()
        .getOut()
        .printf(
            "shipped %s: lines=%d recognised=%d dead-lettered=%d unrecognised=%d skipped=%d"
                + " run-contexts=%d%n",
            file,
            r.linesRead(),
            r.recognised(),
            r.deadLettered(),
            r.unrecognised(),
            r.skipped(),
            r.runContexts());
  }
}
