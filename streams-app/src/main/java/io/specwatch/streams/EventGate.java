package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import java.time.Duration;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * In front of the window aggregation: validates the key and the event time.
 *
 * <ul>
 *   <li>A tombstone (null value) is skipped and counted in {@code skipped-records-total}.
 *   <li>A key that is null or differs from the event's deploymentId, or a blank deploymentId,
 *       throws {@link InvalidEventException}: the processing exception handler dead-letters the
 *       record. A blank id would make a window store key of the bare 9-byte prefix, which no
 *       deployment's windows can be told apart from.
 *   <li>An event whose time lies more than {@code maxAheadMs} ahead of its ingest time ({@link
 *       EventTimeExtractor#tooFarAhead}: a wrong {@code --log-zone} on its shipper, a clock set
 *       ahead) throws {@link InvalidEventException} and is dead-lettered; the extractor has already
 *       kept it from moving stream time.
 * </ul>
 *
 * <p>Late events and re-sent event ids are the aggregation's business ({@link WindowAggregator}).
 */
final class EventGate implements FixedKeyProcessor<String, DecodeEvent, DecodeEvent> {
  private final long maxAheadMs;
  private FixedKeyProcessorContext<String, DecodeEvent> context;
  private Sensor skipped;

  /** {@code maxAheadMs}: as the input's {@link EventTimeExtractor}; 0 switches the check off. */
  EventGate(long maxAheadMs) {
    this.maxAheadMs = maxAheadMs;
  }

  @Override
  public void init(FixedKeyProcessorContext<String, DecodeEvent> context) {
    this.context = context;
    this.skipped =
        TaskSensors.rateTotal(context.metrics(), context.taskId(), TopologyNames.SKIPPED_METRIC);
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
    if (record.key().isBlank()) {
      throw new InvalidEventException(
          "blank deploymentId '" + record.key() + "' of event " + event.getEventId());
    }
    if (EventTimeExtractor.tooFarAhead(event, maxAheadMs)) {
      throw new InvalidEventException(
          "eventTime "
              + event.getEventTime()
              + " of event "
              + event.getEventId()
              + " lies "
              + Duration.ofMillis(
                  event.getEventTime().toEpochMilli() - event.getIngestTime().toEpochMilli())
              + " ahead of its ingestTime "
              + event.getIngestTime()
              + ", more than max-event-ahead "
              + Duration.ofMillis(maxAheadMs)
              + " (a wrong --log-zone or clock on host '"
              + event.getHost()
              + "'?): not counted, so that it cannot close its partition's open windows");
    }
    context.forward(record);
  }
}
