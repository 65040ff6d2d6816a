package io.specwatch.sink;

import java.util.Collection;
import org.apache.kafka.common.TopicPartition;

/**
 * What {@link ClickHouseSink} reports as it runs (metrics, readiness). {@link #inserted} and {@link
 * #deadLettered} may come from the insert thread; implementations must be thread-safe.
 */
public interface SinkListener {

  /** No-op listener. */
  SinkListener NONE = new SinkListener() {};

  /** The consumer group assigned these partitions (possibly none: more members than partitions). */
  default void assigned(Collection<TopicPartition> partitions) {}

  /** These partitions move away (a rebalance started). */
  default void revoked(Collection<TopicPartition> partitions) {}

  /** ClickHouse acknowledged an insert of {@code rows} rows into {@code table} in {@code nanos}. */
  default void inserted(String table, int rows, long nanos) {}

  /** A record of {@code table}'s topic went to the dead-letter topic at {@code stage}. */
  default void deadLettered(String table, String stage) {}

  /** An insert failed retriably: consumption is paused until a retry succeeds. */
  default void clickHouseUnavailable(String reason) {}

  /** A retry succeeded after {@link #clickHouseUnavailable}: consumption resumed. */
  default void clickHouseRecovered() {}

  /**
   * After every poll's flush, on the polling thread: rows buffered or being inserted over all
   * tables ({@link ClickHouseSink#bufferedRows()}) and whether consumption is paused.
   */
  default void buffered(int rows, boolean paused) {}
}
