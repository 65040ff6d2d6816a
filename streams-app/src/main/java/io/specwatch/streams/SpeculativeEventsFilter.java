package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessor;
import org.apache.kafka.streams.processor.api.FixedKeyProcessorContext;
import org.apache.kafka.streams.processor.api.FixedKeyRecord;

/**
 * Forwards speculative events (specEnabled=true) with a deployment key; counts the others in the
 * task-level sensor {@code non-speculative-skipped-total} (group {@code stream-specwatch-metrics}).
 */
final class SpeculativeEventsFilter implements FixedKeyProcessor<String, DecodeEvent, DecodeEvent> {
  private FixedKeyProcessorContext<String, DecodeEvent> context;
  private Sensor skipped;

  @Override
  public void init(FixedKeyProcessorContext<String, DecodeEvent> context) {
    this.context = context;
    this.skipped =
        context
            .metrics()
            .addRateTotalSensor(
                TopologyNames.METRIC_SCOPE,
                "task-" + context.taskId(),
                TopologyNames.NON_SPECULATIVE_METRIC,
                Sensor.RecordingLevel.INFO);
  }

  @Override
  public void process(FixedKeyRecord<String, DecodeEvent> record) {
    DecodeEvent event = record.value();
    if (event != null && event.getSpecEnabled() && record.key() != null) {
      context.forward(record);
    } else {
      skipped.record();
    }
  }
}
