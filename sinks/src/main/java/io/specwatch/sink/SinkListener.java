package io.specwatch.sink;

import java.util.Collection;
import org.apache.kafka.common.TopicPartition;

/** What {@link WindowResultSink} reports as it runs (metrics, readiness). Called on its thread. */
public interface SinkListener {

  /** No-op listener. */
  SinkListener NONE = new SinkListener() {};

  /** The consumer group assigned these partitions (possibly none: more members than partitions). */
  default void assigned(Collection<TopicPartition> partitions) {}

  /** These partitions move away (a rebalance started). */
  default void revoked(Collection<TopicPartition> partitions) {}

  /**
   * ClickHouse acknowledged a batch of {@code rows} rows after {@code nanos} (retries included).
   */
  default void inserted(int rows, long nanos) {}

  /** An undecodable record went to the dead-letter topic. */
  default void deadLettered() {}
}
