package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;
import org.apache.kafka.streams.state.WindowStore;

/**
 * In front of the window aggregation: validates the key, and routes events later than the grace.
 *
 * <ul>
 *   <li>A tombstone (null value) is skipped and counted in {@code skipped-records-total}.
 *   <li>A key that is null or differs from the event's deploymentId throws {@link
 *       InvalidEventException}: the processing exception handler dead-letters the record.
 *   <li>With dedup on, an event whose eventId was seen before at the same event time (a line the
 *       shipper re-sent after a crash: same id, same time) is dropped and counted in {@code
 *       duplicate-events-total}. Ids are remembered in {@code event-id-store}, a window store keyed
 *       by eventId at the event time, for the dedup retention of stream time (changelogged, so a
 *       restart keeps them).
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
  private Sensor duplicates;
  private final long dedupRetentionMs;
  private WindowStore<String, byte[]> eventIds;
  private long observedStreamTime = Long.MIN_VALUE;

  private static final byte[] SEEN = {1};

  /**
   * With a positive {@code dedupRetention} the processor needs {@link TopologyNames#EVENT_ID_STORE}
   * (that retention); zero: no dedup.
   */
  LateEventRouter(TimeWindows windows, java.time.Duration dedupRetention) {
    this.windows = windows;
    this.graceMs = windows.gracePeriodMs();
    this.dedupRetentionMs = dedupRetention.toMillis();
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
    this.duplicates =
        context
            .metrics()
            .addRateTotalSensor(
                TopologyNames.METRIC_SCOPE,
                task,
                TopologyNames.DUPLICATE_EVENTS_METRIC,
                Sensor.RecordingLevel.INFO);
    this.eventIds =
        dedupRetentionMs > 0 ? context.getStateStore(TopologyNames.EVENT_ID_STORE) : null;
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
    if (eventIds != null && isDuplicate(event.getEventId(), timestamp)) {
      duplicates.record();
      return;
    }
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

  /** Whether {@code eventId} was seen at {@code timestamp}; remembers it if not. */
  private boolean isDuplicate(String eventId, long timestamp) {
    if (eventId == null || eventId.isEmpty()) {
      return false;
    }
    if (observedStreamTime != Long.MIN_VALUE
        && timestamp <= observedStreamTime - dedupRetentionMs) {
      // older than the ids kept: late for its window anyway (retention >= window + grace), and the
      // store would drop the put with a warning per record
      return false;
    }
    if (eventIds.fetch(eventId, timestamp) != null) {
      return true;
    }
    eventIds.put(eventId, SEEN, timestamp);
    return false;
  }
}
