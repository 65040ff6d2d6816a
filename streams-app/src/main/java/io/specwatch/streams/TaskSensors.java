package io.specwatch.streams;

import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.StreamsMetrics;
import org.apache.kafka.streams.processor.TaskId;

/** The topology's own task-level sensors (group {@code stream-specwatch-metrics}). */
public final class TaskSensors {
  private TaskSensors() {}

  /**
   * A rate + total sensor {@code <operation>-rate} / {@code <operation>-total} of {@code task}, in
   * scope {@link TopologyNames#METRIC_SCOPE}, recorded at INFO.
   */
  public static Sensor rateTotal(StreamsMetrics metrics, TaskId task, String operation) {
    return metrics.addRateTotalSensor(
        TopologyNames.METRIC_SCOPE, "task-" + task, operation, Sensor.RecordingLevel.INFO);
  }
}
