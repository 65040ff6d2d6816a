package io.specwatch.ingest.cli;

import io.specwatch.ingest.ship.IngestMetrics;
import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.tail.TailConfig;
import io.specwatch.ingest.tail.Tailer;
import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.Durations;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.runtime.KafkaOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tail}: follow log files into Kafka with checkpoints until SIGTERM (exit 0 after a clean
 * shutdown) or, with {@code --exit-when-idle}, until everything is shipped.
 */
@Command(
    name = "tail",
    mixinStandardHelpOptions = true,
    description =
        "Tail log files (globs) into Kafka with crash- and rotation-safe checkpoints until SIGTERM."
            + " Exit codes: 0 clean stop, 2 bad setting or Kafka rejected a record for good.")
final class TailCommand implements Callable<Integer> {

  @Option(
      names = "--glob",
      description = "File glob, repeatable (env SPECWATCH_GLOB, comma separated).")
  List<String> globs = new ArrayList<>();

  @Option(
      names = "--checkpoint-dir",
      defaultValue = "${env:SPECWATCH_CHECKPOINT_DIR}",
      description = "Directory of checkpoint files (env SPECWATCH_CHECKPOINT_DIR).")
  Path checkpointDir;

  @Mixin KafkaOptions kafka;

  @Mixin ShipTargetOptions target;

  @Mixin HealthOptions health;

  @Mixin RunContextOptions context;

  @Option(
      names = "--poll-interval",
      defaultValue = "${env:SPECWATCH_POLL_INTERVAL:-250ms}",
      converter = Durations.Converter.class,
      description =
          "Pause when nothing is new, e.g. 250ms, 2s (env SPECWATCH_POLL_INTERVAL, default"
              + " ${DEFAULT-VALUE}).")
  Duration pollInterval;

  @Option(
      names = "--max-in-flight-lines",
      defaultValue = "${env:SPECWATCH_MAX_IN_FLIGHT_LINES:-10000}",
      description =
          "Lines read but not yet acknowledged by Kafka (env SPECWATCH_MAX_IN_FLIGHT_LINES,"
              + " default ${DEFAULT-VALUE}).")
  int maxInFlightLines;

  @Mixin ShutdownOptions shutdown;

  @Option(
      names = "--exit-when-idle",
      defaultValue = "${env:SPECWATCH_EXIT_WHEN_IDLE:-false}",
      description =
          "Exit 0 once every file is at EOF and every record acknowledged (env"
              + " SPECWATCH_EXIT_WHEN_IDLE).")
  boolean exitWhenIdle;

  @Mixin NormaliseOptions normalise;

  /** Effective config: options, then env vars for what the options left empty. */
  TailConfig toConfig() {
    List<String> effectiveGlobs = new ArrayList<>(globs);
    String envGlob = System.getenv("SPECWATCH_GLOB");
    if (effectiveGlobs.isEmpty() && envGlob != null) {
      Arrays.stream(envGlob.split(","))
          .map(String::trim)
          .filter(s -> !s.isEmpty())
          .forEach(effectiveGlobs::add);
    }
    ShipConfig ship = target.toShipConfig(kafka, normalise.toConfig(), context);
    return new TailConfig(
        ship,
        effectiveGlobs,
        checkpointDir,
        pollInterval,
        maxInFlightLines,
        exitWhenIdle,
        shutdown.timeout);
  }

  @Override
  public Integer call() throws InterruptedException {
    TailConfig config = toConfig();
    // /health/live, /health/ready and /metrics for the DaemonSet's probes (off unless a port is
    // set)
    AppRuntime runtime = AppRuntime.start("ingest-tail", health);
    Tailer[] ref = new Tailer[1];
    Tailer tailer;
    try {
      tailer =
          new Tailer(
              config,
              Clock.systemUTC(),
              new IngestMetrics(
                  runtime.registry(), () -> ref[0] == null ? 0 : ref[0].bytesBehind()));
    } catch (RuntimeException e) {
      runtime.close();
      throw e;
    }
    ref[0] = tailer;
    runtime.readiness().ready();
    AtomicBoolean done = new AtomicBoolean();
    AtomicBoolean failed = new AtomicBoolean();
    Thread hook =
        new Thread(
            () -> {
              if (done.get()) {
                return;
              }
              tailer.stop();
              try {
                tailer.awaitFinished(config.shutdownTimeout().plusSeconds(10));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              // SIGTERM after a clean shutdown is a success; halt so the signal's 143 is not used.
              // tailer.failure() is set before awaitFinished returns; `failed` may not be yet, and
              // halt cuts off the main thread's report, so the failure is printed here
              Throwable failure = tailer.failure();
              if (failure != null) {
                System.err.println("specwatch ingest tail: " + failure);
              }
              Runtime.getRuntime().halt(failure != null || failed.get() ? 2 : 0);
            },
            "specwatch-tail-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      tailer.run();
    } catch (RuntimeException e) {
      failed.set(true);
      runtime.readiness().fatal(e.toString());
      throw e;
    } finally {
      done.set(true);
      runtime.close();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // SIGTERM arrived: the hook exits
    }
    return 0;
  }
}
