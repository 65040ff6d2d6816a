package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

class ComparisonKeyPartitionerTest {
  private static final List<ComparisonKey> KIMI_BUCKETS =
      BatchBuckets.NAMES.stream().map(b -> new ComparisonKey("kimi-k2.5", "8xH100", 8, b)).toList();

  /** Kafka's default partitioner of a String key (BuiltInPartitioner.partitionForKey). */
  private static int byWholeKey(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  @Test
  void everyBucketOfOneModelHardwareAndTpGoesToOnePartition() {
    for (int n = 1; n <= 64; n++) {
      Set<Integer> used = new HashSet<>();
      for (ComparisonKey k : KIMI_BUCKETS) {
        used.add(ComparisonKeyPartitioner.partition(k.toString(), n));
      }
      assertThat(used).as("%d partitions", n).hasSize(1);
    }
  }

  @Test
  void theDefaultPartitionerScatteredThem() {
    // what the test above guards against: hashing the whole key spreads the buckets
    Set<Integer> used = new HashSet<>();
    for (ComparisonKey k : KIMI_BUCKETS) {
      used.add(byWholeKey(k.toString(), 12));
    }
    assertThat(used).hasSizeGreaterThan(1);
  }

  @Test
  void onlyTheBucketIsLeftOutAndKeysWithoutBarsHashAsKafkaDoes() {
    ComparisonKey escaped = new ComparisonKey("org|m", "a\\b", 2, "5-8");
    assertThat(ComparisonKeyPartitioner.withoutBucket(escaped.toString()))
        .isEqualTo("org\\|m|a\\\\b|2");
    assertThat(ComparisonKeyPartitioner.withoutBucket("kimi-eagle3-a")).isEqualTo("kimi-eagle3-a");
    for (String deployment : List.of("kimi-eagle3-a", "qwen-plain", "d-42", "")) {
      assertThat(ComparisonKeyPartitioner.partition(deployment, 7))
          .isEqualTo(byWholeKey(deployment, 7));
    }
    assertThat(
            new ComparisonKeyPartitioner()
                .partitions("t", "kimi|8xH100|8|1", null, new RecordHeaders(), 5)
                .orElseThrow())
        .containsExactly(byWholeKey("kimi|8xH100|8", 5));
  }

  @Test
  void modelsStillSpreadOverThePartitions() {
    Set<Integer> used = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      used.add(
          ComparisonKeyPartitioner.partition(
              new ComparisonKey("model-" + i, "8xH100", 8, "1").toString(), 8));
    }
    assertThat(used).hasSize(8);
  }
}
