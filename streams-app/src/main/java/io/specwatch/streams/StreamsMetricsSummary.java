package io.specwatch.streams;

import java.util.Map;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * The few Streams metrics an operator of this app watches, summed over tasks and threads.
 *
 * @param consumed records consumed by the main consumer(s)
 * @param processed records the stream threads processed ({@code stream-thread-metrics /
 *     process-total}); below {@code consumed} while fetched records wait in the buffers
 * @param dropped records dropped by Streams ({@code stream-task-metrics / dropped-records-total});
 *     late events are not among them any more, see {@code lateEvents}
 * @param lateEvents events later than the grace, counted in the lateEvents of the open window
 *     ({@code stream-specwatch-metrics / late-events-total})
 * @param skipped tombstones on the input ({@code skipped-records-total})
 * @param duplicates events dropped because their event id was seen before ({@code
 *     duplicate-events-total})
 */
public record StreamsMetricsSummary(
    long consumed, long processed, long dropped, long lateEvents, long skipped, long duplicates) {

  /** Sums the relevant metrics of a KafkaStreams or TopologyTestDriver metrics map. */
  public static StreamsMetricsSummary of(Map<MetricName, ? extends Metric> metrics) {
    long consumed = 0;
    long processed = 0;
    long dropped = 0;
    long late = 0;
    long skipped = 0;
    long duplicates = 0;
    for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
      MetricName n = e.getKey();
      if (n.name().equals("records-consumed-total")
          && n.group().equals("consumer-fetch-manager-metrics")
          && !n.tags().containsKey("topic")
          && n.tags().getOrDefault("client-id", "").endsWith("-consumer")
          && !n.tags().getOrDefault("client-id", "").endsWith("restore-consumer")) {
        consumed += asLong(e.getValue());
      } else if (n.name().equals("process-total") && n.group().equals("stream-thread-metrics")) {
        processed += asLong(e.getValue());
      } else if (n.name().equals("dropped-records-total")
          && n.group().equals("stream-task-metrics")) {
        dropped += asLong(e.getValue());
      } else if (n.name().equals(TopologyNames.LATE_EVENTS_METRIC + "-total")) {
        late += asLong(e.getValue());
      } else if (n.name().equals(TopologyNames.SKIPPED_METRIC + "-total")) {
        skipped += asLong(e.getValue());
      } else if (n.name().equals(TopologyNames.DUPLICATE_EVENTS_METRIC + "-total")) {
        duplicates += asLong(e.getValue());
      }
    }
    return new StreamsMetricsSummary(consumed, processed, dropped, late, skipped, duplicates);
  }

  private static long asLong(Metric metric) {
    Object v = metric.metricValue();
    return v instanceof Number number ? (long) number.doubleValue() : 0L;
  }
}
