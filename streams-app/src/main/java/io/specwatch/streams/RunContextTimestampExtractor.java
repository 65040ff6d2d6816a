package io.specwatch.streams;

import io.specwatch.schemas.RunContext;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Event time of a run context: {@link RunContext#getObservedAt()}. Streams orders the run-context
 * table's updates against the decode events by these timestamps, so in a replay a context observed
 * at the log's start is in the table before the windows of that log close (the producer's wall
 * clock would put it after all of them). A tombstone keeps the partition time.
 */
public final class RunContextTimestampExtractor implements TimestampExtractor {

  @Override
  public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
    if (record.value() instanceof RunContext context && context.getObservedAt() != null) {
      return context.getObservedAt().toEpochMilli();
    }
    return partitionTime >= 0 ? partitionTime : record.timestamp();
  }
}
