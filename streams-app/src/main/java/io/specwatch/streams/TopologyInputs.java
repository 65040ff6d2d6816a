package io.specwatch.streams;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.alert.AlertConfig;
import java.time.Duration;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;

/**
 * Everything {@link TopologyFactory#build} needs: topic names, window and baseline settings and
 * value serdes. Keys are plain UTF-8 strings (deploymentId).
 *
 * @param decodeEventsTopic input topic of DecodeEvent values
 * @param runContextTopic compacted topic of RunContext values, co-partitioned with the input
 * @param windowResultsTopic output topic of WindowResult values
 * @param windowSize tumbling window size
 * @param grace how long after a window's end late events are still accepted
 * @param staticBaselines configured t_AR per comparison key
 * @param baselineMaxAge how much older than a speculative window a learned baseline may be
 * @param decodeEventSerde value serde of the input topic
 * @param runContextSerde value serde of the run-context topic and store
 * @param windowResultSerde value serde of the output topic and the baseline repartition topic
 * @param alertsTopic output topic of Alert values
 * @param alertSerde value serde of the alerts topic
 * @param alerts alert rules
 */
public record TopologyInputs(
    String decodeEventsTopic,
    String runContextTopic,
    String windowResultsTopic,
    Duration windowSize,
    Duration grace,
    StaticBaselines staticBaselines,
    Duration baselineMaxAge,
    Serde<DecodeEvent> decodeEventSerde,
    Serde<RunContext> runContextSerde,
    Serde<WindowResult> windowResultSerde,
    String alertsTopic,
    Serde<Alert> alertSerde,
    AlertConfig alerts) {

  public TopologyInputs {
    requireName(decodeEventsTopic, "decodeEventsTopic");
    requireName(runContextTopic, "runContextTopic");
    requireName(windowResultsTopic, "windowResultsTopic");
    Objects.requireNonNull(windowSize, "windowSize");
    Objects.requireNonNull(grace, "grace");
    if (windowSize.isZero() || windowSize.isNegative()) {
      throw new IllegalArgumentException("windowSize must be positive, got " + windowSize);
    }
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace must not be negative, got " + grace);
    }
    Objects.requireNonNull(staticBaselines, "staticBaselines");
    Objects.requireNonNull(baselineMaxAge, "baselineMaxAge");
    if (baselineMaxAge.isNegative()) {
      throw new IllegalArgumentException(
          "baselineMaxAge must not be negative, got " + baselineMaxAge);
    }
    Objects.requireNonNull(decodeEventSerde, "decodeEventSerde");
    Objects.requireNonNull(runContextSerde, "runContextSerde");
    Objects.requireNonNull(windowResultSerde, "windowResultSerde");
    requireName(alertsTopic, "alertsTopic");
    Objects.requireNonNull(alertSerde, "alertSerde");
    Objects.requireNonNull(alerts, "alerts");
  }

  private static void requireName(String name, String setting) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(setting + " must not be blank");
    }
  }
}
