package io.specwatch.streams;

import io.specwatch.schemas.WindowResult;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StreamPartitioner;

/**
 * Partitions the {@code baseline-by-key} repartition topic by the comparison key without its batch
 * bucket ({@code model|hardwareClass|tp}), hashed as Kafka's default partitioner hashes a key
 * (murmur2 of its UTF-8 bytes).
 *
 * <p>Why not the whole key: a deployment's total row ({@code *} bucket) takes the bucket of its
 * mean batch size, so with the default partitioner its windows landed on different partitions when
 * the batch size moved between buckets, reached the baseline join in different tasks, and could
 * reach {@code alert-evaluator} out of window order in a catch-up or after a failover (hysteresis
 * and the regression test then saw another sequence than the deployment's). Without the bucket,
 * every row of a deployment under one run context goes to one partition, is joined by one task in
 * the order the window aggregator emitted it, and keeps that order on to the alert repartition. The
 * baseline store is still keyed by the whole comparison key: a learned t_AR and the speculative
 * rows that meet it share model, hardware and TP, hence a partition.
 *
 * <p>Rows that carry no comparison key (keyed by deploymentId, {@code none:...}) are hashed by
 * their key alike; a deployment whose rows switch between the two (no batch size in one window, a
 * run context arriving late) can still see one window overtake another at that switch.
 */
final class ComparisonKeyPartitioner implements StreamPartitioner<String, WindowResult> {

  @Override
  public Optional<Set<Integer>> partitions(
      String topic, String key, WindowResult value, Headers headers, int numPartitions) {
    return Optional.of(Set.of(partition(key, numPartitions)));
  }

  /** The abstract form Kafka 4.x still declares (deprecated there for the one with headers). */
  @Override
  @SuppressWarnings("removal")
  public Optional<Set<Integer>> partitions(
      String topic, String key, WindowResult value, int numPartitions) {
    return Optional.of(Set.of(partition(key, numPartitions)));
  }

  /** The partition of {@code key} among {@code numPartitions}. */
  static int partition(String key, int numPartitions) {
    String routed = key == null ? "" : withoutBucket(key);
    return Utils.toPositive(Utils.murmur2(routed.getBytes(StandardCharsets.UTF_8))) % numPartitions;
  }

  /**
   * {@code key} up to its last {@code |}: the comparison key without its bucket (bucket names hold
   * no {@code |}, and a {@code |} inside a model or hardware class is escaped, see {@link
   * ComparisonKey}); a key without {@code |} as it is.
   */
  static String withoutBucket(String key) {
    int bar = key.lastIndexOf('|');
    return bar < 0 ? key : key.substring(0, bar);
  }
}
