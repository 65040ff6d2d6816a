package io.specwatch.ingest.cli;

import io.specwatch.ingest.ship.ShipConfig;
import io.specwatch.ingest.tail.TailConfig;
import io.specwatch.ingest.tail.Tailer;
import io.specwatch.runtime.AppRuntime;
import io.specwatch.runtime.Durations;
import io.specwatch.runtime.HealthOptions;
import io.specwatch.runtime.KafkaOptions;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        "Tail log files (globs) into Kafka with crash- and rotation-safe checkpoints until SIGTERM.")
final class TailCommand implements Callable<Integer> {

  @Option(
      names = "--glob",
      description = "File glob, repeatable (env SPECWATCH_GLOB, comma separated).")
  List<String> globs = new ArrayList<>();

  @Option(
      names = "--deployment",
      defaultValue = "${env:SPECWATCH_DEPLOYMENT}",
      description = "Deployment id, the record key (env SPECWATCH_DEPLOYMENT).")
  String deployment;

  @Option(
      names = "--host",
      defaultValue = "${env:SPECWATCH_HOST}",
      description = "GPU host name recorded in events (env SPECWATCH_HOST, default: this host).")
  String host;

  @Option(
      names = "--checkpoint-dir",
      defaultValue = "${env:SPECWATCH_CHECKPOINT_DIR}",
      description = "Directory of checkpoint files (env SPECWATCH_CHECKPOINT_DIR).")
  Path checkpointDir;

  @Mixin KafkaOptions kafka;

  @Mixin HealthOptions health;

  @Option(
      names = "--topic",
      defaultValue = "${env:SPECWATCH_DECODE_TOPIC:-specwatch.decode-events.v1}",
      description = "Decode-events topic (env SPECWATCH_DECODE_TOPIC, default ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--dlq-topic",
      defaultValue = "${env:SPECWATCH_DLQ_TOPIC:-specwatch.dead-letter.v1}",
      description = "Dead-letter topic (env SPECWATCH_DLQ_TOPIC, default ${DEFAULT-VALUE}).")
  String dlqTopic;

  @Option(
      names = "--request-topic",
      defaultValue = "${env:SPECWATCH_REQUEST_TOPIC:-specwatch.request-acceptance.v1}",
      description =
          "Request-acceptance topic for per-request records (env SPECWATCH_REQUEST_TOPIC,"
              + " default ${DEFAULT-VALUE}).")
  String requestTopic;

  @Option(
      names = "--poll-interval",
      defaultValue = "250ms",
      converter = Durations.Converter.class,
      description = "Pause when nothing is new, e.g. 250ms, 2s (default ${DEFAULT-VALUE}).")
  Duration pollInterval;

  @Option(
      names = "--max-in-flight-lines",
      defaultValue = "10000",
      description = "Lines read but not yet acknowledged by Kafka (default ${DEFAULT-VALUE}).")
  int maxInFlightLines;

  @Option(
      names = "--shutdown-timeout",
      defaultValue = "30s",
      converter = Durations.Converter.class,
      description = "How long SIGTERM waits for acknowledgements (default ${DEFAULT-VALUE}).")
  Duration shutdownTimeout;

  @Option(
      names = "--exit-when-idle",
      description = "Exit 0 once every file is at EOF and every record acknowledged.")
  boolean exitWhenIdle;

  @Option(
      names = "--producer-property",
      description = "Raw Kafka producer setting k=v (repeatable), e.g. for SASL/TLS.")
  Map<String, String> producerProperties = Map.of();

  @Mixin NormaliseOptions normalise;

  /** Raw client settings: the properties file and -K first, --producer-property last. */
  private Map<String, String> producerProperties() {
    Map<String, String> merged = new HashMap<>(kafka.rawProperties());
    merged.putAll(producerProperties);
    return merged;
  }

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
    ShipConfig ship =
        new ShipConfig(
            kafka.bootstrap(),
            kafka.registryUrl(),
            topic,
            dlqTopic,
            deployment,
            host == null || host.isBlank() ? localHost() : host,
            normalise.toConfig(),
            producerProperties(),
            requestTopic);
    return new TailConfig(
        ship,
        effectiveGlobs,
        checkpointDir,
        pollInterval,
        maxInFlightLines,
        exitWhenIdle,
        shutdownTimeout);
  }

  @Override
  public Integer call() throws InterruptedException {
    TailConfig config = toConfig();
    Tailer tailer = new Tailer(config);
    // /health/live, /health/ready and /metrics for the DaemonSet's probes (off unless a port is
    // set)
    AppRuntime runtime = AppRuntime.start("ingest-tail", health);
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
              // SIGTERM after a clean shutdown is a success; halt so the signal's 143 is not used
              Runtime.getRuntime().halt(failed.get() ? 2 : 0);
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

  private static String localHost() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown-host";
    }
  }
}
