package io.specwatch.ingest.generate;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
 * @param only deployment ids to keep (empty: all); the others are not simulated
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
    double speed,
    List<String> only) {

  public GenerateConfig {
    only = only == null ? List.of() : List.copyOf(only);
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
  /** Settings for all deployments of the scenario. */
  public GenerateConfig(
      String scenario,
      int deployments,
      long seed,
      Instant start,
      Duration duration,
      Path out,
      KafkaOutput.Target kafka,
      boolean realtime,
      double speed) {
    this(scenario, deployments, seed, start, duration, out, kafka, realtime, speed, List.of());
  }

  /**
   * The scenario these settings describe; with {@code only}, just those deployments and their
   * episodes (each deployment's output does not depend on the others).
   *
   * @throws IllegalArgumentException naming {@code --only} for an unknown id
   */
  public Scenario buildScenario() {
    Scenario s =
        scenario.equals("demo")
            ? DemoScenario.build(seed, start, duration)
            : FleetScenario.build(seed, start, duration, deployments);
    if (only.isEmpty()) {
      return s;
    }
    Set<String> known = new HashSet<>();
    s.deployments().forEach(d -> known.add(d.id()));
    for (String id : only) {
      if (!known.contains(id)) {
        throw new IllegalArgumentException(
            "--only: no deployment '"
                + id
                + "' in scenario "
                + scenario
                + " (known: "
                + known
                + ")");
      }
    }
    Set<String> keep = new HashSet<>(only);
    return new Scenario(
        s.name(),
        s.seed(),
        s.start(),
        s.end(),
        s.deployments().stream().filter(d -> keep.contains(d.id())).toList(),
        s.episodes().stream().filter(e -> keep.contains(e.deploymentId())).toList());
  }
}
