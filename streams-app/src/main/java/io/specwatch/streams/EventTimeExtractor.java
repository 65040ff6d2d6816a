package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Event time from the payload: {@link DecodeEvent#getEventTime()}. A record that is not a
 * DecodeEvent (a tombstone) keeps the partition time, so it cannot move stream time.
 */
public final class EventTimeExtractor implements TimestampExtractor {

  @Override
  public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
    if (record.value() instanceof DecodeEvent event && event.getEventTime() != null) {
      return event.getEventTime().toEpochMilli();
    }
    return partitionTime >= 0 ? partitionTime : record.timestamp();
  }
}
