package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * In front of the window aggregation: validates the key, and routes events later than the grace.
 *
 * <ul>
 *   <li>A tombstone (null value) is skipped and counted in {@code skipped-records-total}.
 *   <li>A key that is null or differs from the event's deploymentId throws {@link
 *       InvalidEventException}: the processing exception handler dead-letters the record.
 *   <li>An event whose every window already closed (window end &lt;= observed stream time - grace,
 *       the aggregation's own test) would be dropped by Streams. Instead it is forwarded with the
 *       observed stream time as its timestamp and {@code late=true}: it adds 1 to {@code
 *       lateEvents} of the rows it belongs to in the window open at its arrival, and nothing else,
 *       and counts in the task sensor {@code late-events-total} (group {@code
 *       stream-specwatch-metrics}, on /metrics as {@code
 *       kafka_stream_specwatch_late_events_total}).
 * </ul>
 *
 * <p>Stream time here is the highest event time this processor has seen in its task, exactly what
 * the aggregation observes (the task's own stream time would also include run-context records).
 * After a restart both start from the first record again.
 */
final class LateEventRouter implements FixedKeyProcessor<String, DecodeEvent, WindowInput> {
  private final TimeWindows windows;
  private final long graceMs;
  private FixedKeyProcessorContext<String, WindowInput> context;
  private Sensor late;
  private Sensor skipped;
  private long observedStreamTime = Long.MIN_VALUE;

  LateEventRouter(TimeWindows windows) {
    this.windows = windows;
    this.graceMs = windows.gracePeriodMs();
  }

  @Override
  public void init(FixedKeyProcessorContext<String, WindowInput> context) {
    this.context = context;
    observedStreamTime = Long.MIN_VALUE; // init() runs again on this instance after a task revive
    String task = "task-" + context.taskId();
    this.late =
        context
            .metrics()
            .addRateTotalSensor(
                TopologyNames.METRIC_SCOPE,
                task,
                TopologyNames.LATE_EVENTS_METRIC,
                Sensor.RecordingLevel.INFO);
    this.skipped =
        context
            .metrics()
            .addRateTotalSensor(
                TopologyNames.METRIC_SCOPE,
                task,
                TopologyNames.SKIPPED_METRIC,
                Sensor.RecordingLevel.INFO);
  }

  @Override
  public void process(FixedKeyRecord<String, DecodeEvent> record) {
    DecodeEvent event = record.value();
    if (event == null) {
      skipped.record();
      return;
    }
    if (record.key() == null || !record.key().equals(event.getDeploymentId())) {
      throw new InvalidEventException(
          "record key '"
              + record.key()
              + "' differs from deploymentId '"
              + event.getDeploymentId()
              + "' of event "
              + event.getEventId());
    }
    long timestamp = record.timestamp();
    observedStreamTime = Math.max(observedStreamTime, timestamp);
    long closeTime = observedStreamTime - graceMs;
    boolean isLate =
        windows.windowsFor(timestamp).values().stream().allMatch(w -> w.end() <= closeTime);
    if (isLate) {
      late.record();
      context.forward(
          record.withValue(new WindowInput(event, true)).withTimestamp(observedStreamTime));
    } else {
      context.forward(record.withValue(new WindowInput(event, false)));
    }
  }
}
