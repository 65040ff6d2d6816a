package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.streams.processor.TimestampExtractor;

/**
 * Event time from the payload: {@link DecodeEvent#getEventTime()}. A record that is not a
 * DecodeEvent (a tombstone), or an event whose time lies more than {@code maxAheadMs} ahead of its
 * ingest time ({@link #tooFarAhead}), keeps the partition time, so it cannot move Kafka Streams'
 * partition and task time (by which a task picks its next record among its partitions, the
 * run-context partition among them). {@link EventGate} dead-letters such an event before it reaches
 * the window aggregator, whose own clock would otherwise jump ahead and close every open window of
 * the partition, every deployment's, making their next events late.
 */
public final class EventTimeExtractor implements TimestampExtractor {
  private final long maxAheadMs;

  /** Without the event-time check (benchmarks that measure Kafka Streams itself). */
  public EventTimeExtractor() {
    this(0);
  }

  /** {@code maxAheadMs}: see {@link #tooFarAhead}; 0 switches the check off. */
  public EventTimeExtractor(long maxAheadMs) {
    if (maxAheadMs < 0) {
      throw new IllegalArgumentException("maxAheadMs must be 0 (off) or positive: " + maxAheadMs);
    }
    this.maxAheadMs = maxAheadMs;
  }

  @Override
  public long extract(ConsumerRecord<Object, Object> record, long partitionTime) {
    if (record.value() instanceof DecodeEvent event
        && event.getEventTime() != null
        && !tooFarAhead(event, maxAheadMs)) {
      return event.getEventTime().toEpochMilli();
    }
    return partitionTime >= 0 ? partitionTime : record.timestamp();
  }

  /**
   * Whether {@code event}'s time lies more than {@code maxAheadMs} (0: never) ahead of its ingest
   * time.
   */
  static boolean tooFarAhead(DecodeEvent event, long maxAheadMs) {
    if (maxAheadMs <= 0 || event.getEventTime() == null || event.getIngestTime() == null) {
      return false;
    }
    long ahead = event.getEventTime().toEpochMilli() - event.getIngestTime().toEpochMilli();
    return ahead > maxAheadMs;
  }
}
