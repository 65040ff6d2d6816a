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
 * Everything {@link TopologyFactory#build} needs: topic names, window settings and value serdes.
 * Keys are plain UTF-8 strings (deploymentId).
 *
 * @param decodeEventsTopic input topic of DecodeEvent values
 * @param windowResultsTopic output topic of WindowResult values
 * @param windowSize tumbling window size
 * @param grace how long after a window's end late events are still accepted
 * @param decodeEventSerde value serde of the input topic (also used for no repartition)
 * @param windowResultSerde value serde of the output topic
 * @param runContextTopic compacted input topic of RunContext values (the run-context table)
 * @param alertsTopic output topic of Alert values
 * @param runContextSerde value serde of the run-context topic
 * @param alertSerde value serde of the alerts topic
 * @param alerts alert rules
 */
public record TopologyInputs(
    String decodeEventsTopic,
    String windowResultsTopic,
    Duration windowSize,
    Duration grace,
    Serde<DecodeEvent> decodeEventSerde,
    Serde<WindowResult> windowResultSerde,
    String runContextTopic,
    String alertsTopic,
    Serde<RunContext> runContextSerde,
    Serde<Alert> alertSerde,
    AlertConfig alerts) {

  public TopologyInputs {
    requireName(decodeEventsTopic, "decodeEventsTopic");
    requireName(windowResultsTopic, "windowResultsTopic");
    Objects.requireNonNull(windowSize, "windowSize");
    Objects.requireNonNull(grace, "grace");
    if (windowSize.isZero() || windowSize.isNegative()) {
      throw new IllegalArgumentException("windowSize must be positive, got " + windowSize);
    }
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace must not be negative, got " + grace);
    }
    Objects.requireNonNull(decodeEventSerde, "decodeEventSerde");
    Objects.requireNonNull(windowResultSerde, "windowResultSerde");
    requireName(runContextTopic, "runContextTopic");
    requireName(alertsTopic, "alertsTopic");
    Objects.requireNonNull(runContextSerde, "runContextSerde");
    Objects.requireNonNull(alertSerde, "alertSerde");
    Objects.requireNonNull(alerts, "alerts");
  }

  private static void requireName(String name, String setting) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(setting + " must not be blank");
    }
  }
}
