package io.specwatch.ingest.generate;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Validated settings of {@code generate}.
 *
 * @param scenario {@code demo} or {@code fleet}
 * @param deployments fleet size (fleet only)
 * @param seed random seed
 * @param start event-time start
 * @param duration event-time span
 * @param out output directory, or null (publish only)
 * @param kafka Kafka target, or null (files only)
 * @param realtime write at wall-clock pace
 * @param speed realtime speed-up factor
 */
public record GenerateConfig(
    String scenario,
    int deployments,
    long seed,
    Instant start,
    Duration duration,
    Path out,
    KafkaOutput.Target kafka,
    boolean realtime,
    double speed) {

  public GenerateConfig {
    if (!scenario.equals("demo") && !scenario.equals("fleet")) {
      throw new IllegalArgumentException(
          "--scenario must be demo or fleet, was '" + scenario + "'");
    }
    if (scenario.equals("fleet") && deployments < 1) {
      throw new IllegalArgumentException("--deployments must be >= 1, was " + deployments);
    }
    if (duration == null || duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("--duration must be positive, was " + duration);
    }
    if (out == null && kafka == null) {
      throw new IllegalArgumentException("give --out DIR, --publish, or both");
    }
    if (!(speed > 0) || Double.isInfinite(speed)) {
      throw new IllegalArgumentException("--speed must be a positive number, was " + speed);
    }
  }

  /** The scenario these settings describe. */
  public Scenario buildScenario() {
    return scenario.equals("demo")
        ? DemoScenario.build(seed, start, duration)
        : FleetScenario.build(seed, start, duration, deployments);
  }
}
