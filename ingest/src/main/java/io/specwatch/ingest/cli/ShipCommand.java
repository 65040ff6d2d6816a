package io.specwatch.ingest.cli;

import io.specwatch.ingest.ship.LogFileShipper;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.ship.ShipResult;
import io.specwatch.runtime.KafkaOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ship}: one whole file to Kafka, then exit 0 (non-zero on any delivery failure). */
@Command(
    name = "ship",
    mixinStandardHelpOptions = true,
    description = "Ship a whole log file to the decode-events and dead-letter topics, then exit.")
final class ShipCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--file", required = true, description = "Log file to ship.")
  Path file;

  @Mixin KafkaOptions kafka;

  @Mixin ShipTargetOptions target;

  @Mixin NormaliseOptions normalise;

  @Override
  public Integer call() {
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException("file: cannot read '" + file + "'");
    }
    ShipConfig config = target.toShipConfig(kafka, normalise.toConfig());
    ShipResult r = new LogFileShipper(config).ship(file);
    spec.commandLine()
        .getOut()
        .printf(
            "shipped %s: lines=%d recognised=%d dead-lettered=%d unrecognised=%d%n",
            file, r.linesRead(), r.recognised(), r.deadLettered(), r.unrecognised());
    return 0;
  }
}
