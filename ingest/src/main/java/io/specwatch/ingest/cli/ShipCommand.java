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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ship}: one whole file to Kafka, then exit 0 (non-zero on any delivery failure). */
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

  @Override
  public Integer call() throws IOException {
    if (files == null || files.isEmpty() || files.contains(null)) {
      throw new IllegalArgumentException("setting 'file' (SPECWATCH_FILE) is required");
    }
    for (Path file : files) {
      if (!Files.isReadable(file)) {
        throw new IllegalArgumentException(
            "setting 'file' (SPECWATCH_FILE): cannot read '" + file + "'");
      }
    }
    ShipConfig config = target.toShipConfig(kafka, normalise.toConfig(), context);
    try (AppRuntime runtime = AppRuntime.start("ingest-ship", health);
        LogFileShipper shipper = new LogFileShipper(config)) {
      runtime.readiness().ready();
      // one set of shipper metrics for the run; bytes behind counts the file being shipped
      AtomicLong size = new AtomicLong();
      AtomicLong position = new AtomicLong();
      IngestMetrics metrics =
          new IngestMetrics(runtime.registry(), () -> Math.max(0, size.get() - position.get()));
      for (Path file : files) {
        position.set(0);
        size.set(Files.size(file));
        ship(shipper, metrics, position, file, size.get());
      }
    }
    return 0;
  }

  private void ship(
      LogFileShipper shipper, IngestMetrics metrics, AtomicLong position, Path file, long size) {
    ShipProgress progress =
        noProgress
            ? null
            : new ShipProgress(
                spec.commandLine().getErr(),
                file.toString(),
                size,
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
