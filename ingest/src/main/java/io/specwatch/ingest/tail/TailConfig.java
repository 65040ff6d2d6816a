package io.specwatch.ingest.tail;

import io.specwatch.ingest.ship.ShipConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Validated settings of the tailer.
 *
 * @param ship Kafka, topics, deployment, host, normalisation
 * @param globs file globs, e.g. {@code /var/log/sglang/*.log}
 * @param checkpointDir where checkpoints live
 * @param pollInterval pause when no file has new complete lines
 * @param maxInFlightLines lines read but not yet acknowledged, across all files (memory bound)
 * @param exitWhenIdle stop once every file is at EOF and every record acknowledged
 * @param shutdownTimeout how long a clean shutdown waits for outstanding acknowledgements
 */
public record TailConfig(
    ShipConfig ship,
    List<String> globs,
    Path checkpointDir,
    Duration pollInterval,
    int maxInFlightLines,
    boolean exitWhenIdle,
    Duration shutdownTimeout) {

  public TailConfig {
    Objects.requireNonNull(ship, "ship");
    globs = List.copyOf(globs == null ? List.of() : globs);
    if (globs.isEmpty() || globs.stream().anyMatch(g -> g == null || g.isBlank())) {
      throw new IllegalArgumentException("setting 'glob' (SPECWATCH_GLOB) is required");
    }
    Objects.requireNonNull(checkpointDir, "setting 'checkpoint-dir' (SPECWATCH_CHECKPOINT_DIR)");
    if (pollInterval == null || pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("setting 'poll-interval' must be > 0");
    }
    if (maxInFlightLines < 1) {
      throw new IllegalArgumentException(
          "setting 'max-in-flight-lines' must be >= 1, was " + maxInFlightLines);
    }
    if (shutdownTimeout == null || shutdownTimeout.isNegative()) {
      throw new IllegalArgumentException(
          "setting 'shutdown-timeout' (SPECWATCH_SHUTDOWN_TIMEOUT) must be >= 0, was "
              + shutdownTimeout);
    }
  }

  /**
   * The shipper's producer settings, with retries bounded by nothing but shutdown: a record is
   * never given up while the broker is away (backpressure stops reading instead).
   */
  public Properties producerProperties() {
    Properties p = ship.producerProperties();
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "specwatch-tail-" + ship.deploymentId());
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.toString(Integer.MAX_VALUE));
    p.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000");
    return p;
  }
}
