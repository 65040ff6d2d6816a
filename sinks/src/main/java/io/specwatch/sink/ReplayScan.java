package io.specwatch.sink;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code sink replay} over the consumer's partitions: seeks each assigned partition to the
 * start of its {@link ReplayRange.Span}, remembers where it stops, and decides per scanned record
 * whether it is loaded ({@link ReplayRange#selects}), counting what it saw. Used on the polling
 * thread only (a replay encodes there too).
 */
final class ReplayScan {

  private static final Logger log = LoggerFactory.getLogger(ReplayScan.class);

  private final ReplayRange range;
  private final Map<TopicPartition, Long> stops = new HashMap<>();
  private long scanned;
  private long selected;
  private long skewExceeded;
  private long maxSkewExcessMillis;

  ReplayScan(ReplayRange range) {
    this.range = range;
  }

  ReplayRange range() {
    return range;
  }

  /** Per assigned partition, the offset its scan stops before. */
  Map<TopicPartition, Long> stops() {
    return stops;
  }

  /** Seeks {@code partitions} to their span's start and notes their stops. */
  void seek(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
    Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
    Map<TopicPartition, OffsetAndTimestamp> starts =
        consumer.offsetsForTimes(query(partitions, range.seekTimestamp()));
    OptionalLong stopAt = range.stopTimestamp();
    Map<TopicPartition, OffsetAndTimestamp> stopOffsets =
        stopAt.isPresent()
            ? consumer.offsetsForTimes(query(partitions, stopAt.getAsLong()))
            : Map.of();
    Map<TopicPartition, ReplayRange.Span> spans = new HashMap<>();
    for (TopicPartition tp : partitions) {
      ReplayRange.Span span =
          ReplayRange.span(offset(starts.get(tp)), offset(stopOffsets.get(tp)), ends.get(tp));
      consumer.seek(tp, span.start());
      stops.put(tp, span.stop());
      spans.put(tp, span);
    }
    log.info("Replay {}: offsets [start, stop) {}", range, spans);
  }

  /**
   * Whether {@code record} is loaded, its event time being {@code eventTime} (null: unknown, the
   * record timestamp decides); counts it.
   */
  boolean select(ConsumerRecord<?, ?> record, Instant eventTime) {
    scanned++;
    long excess = range.skewExcessMillis(record.timestamp(), eventTime);
    if (excess > 0) {
      skewExceeded++;
      maxSkewExcessMillis = Math.max(maxSkewExcessMillis, excess);
    }
    boolean in = range.selects(record.timestamp(), eventTime);
    if (in) {
      selected++;
    }
    return in;
  }

  /** What the scan saw so far. */
  ReplayStats stats() {
    return new ReplayStats(
        scanned,
        selected,
        skewExceeded,
        skewExceeded == 0 ? Duration.ZERO : range.maxClockSkew().plusMillis(maxSkewExcessMillis));
  }

  /** Logs the outcome: a warning when records ran further ahead of their stamps than allowed. */
  void logSummary() {
    ReplayStats s = stats();
    log.info("Replay {}: {} records scanned, {} in range loaded", range, s.scanned(), s.selected());
    if (s.skewExceeded() > 0) {
      log.warn(
          "Replay {}: {} records carry an event time up to {} after their Kafka timestamp, more"
              + " than --max-clock-skew {}: records of the range may lie before the offsets the"
              + " replay started at; replay again with --max-clock-skew {} or more",
          range,
          s.skewExceeded(),
          s.largestLead(),
          range.maxClockSkew(),
          s.largestLead());
    }
  }

  private static Map<TopicPartition, Long> query(Collection<TopicPartition> partitions, long ts) {
    Map<TopicPartition, Long> q = new HashMap<>();
    for (TopicPartition tp : partitions) {
      q.put(tp, ts);
    }
    return q;
  }

  private static Long offset(OffsetAndTimestamp at) {
    return at == null ? null : at.offset();
  }
}
