package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.streams.WindowResultsComparison.Keyed;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * What {@link ScaleOutIT} reads off the real broker: committed and end offsets (read-committed or
 * not), open transactions, the default partitioner's partition of a key, and every record of a
 * topic's partitions up to their end offsets.
 */
final class ClusterProbe {
  private final String bootstrap;
  private final int partitions;
  private final Duration timeout;

  /** A probe of topics with {@code partitions} partitions; reads give up after {@code timeout}. */
  ClusterProbe(String bootstrap, int partitions, Duration timeout) {
    this.bootstrap = bootstrap;
    this.partitions = partitions;
    this.timeout = timeout;
  }

  Map<TopicPartition, Long> committedOffsets(Admin admin, String group, String topic)
      throws Exception {
    Map<TopicPartition, Long> m = new HashMap<>();
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e :
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet()) {
      if (e.getKey().topic().equals(topic) && e.getValue() != null) {
        m.put(e.getKey(), e.getValue().offset());
      }
    }
    return m;
  }

  Map<TopicPartition, Long> endOffsets(Admin admin, String topic, IsolationLevel isolation)
      throws Exception {
    Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      specs.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    Map<TopicPartition, Long> m = new HashMap<>();
    admin
        .listOffsets(specs, new ListOffsetsOptions(isolation))
        .all()
        .get()
        .forEach((tp, info) -> m.put(tp, info.offset()));
    return m;
  }

  /** Some partition has records beyond its last stable offset: an open transaction with data. */
  boolean openTransaction(Admin admin, String topic, Set<TopicPartition> inputs) throws Exception {
    Map<TopicPartition, Long> hw = endOffsets(admin, topic, IsolationLevel.READ_UNCOMMITTED);
    Map<TopicPartition, Long> lso = endOffsets(admin, topic, IsolationLevel.READ_COMMITTED);
    return inputs.stream()
        .map(tp -> new TopicPartition(topic, tp.partition()))
        .anyMatch(tp -> hw.get(tp) > lso.get(tp));
  }

  /**
   * The partition the default partitioner gives {@code key} (murmur2, as producers and Streams).
   */
  TopicPartition partitionOf(String topic, String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    return new TopicPartition(topic, Utils.toPositive(Utils.murmur2(bytes)) % partitions);
  }

  /** The partitions with an offset above 0 (a partition nobody wrote to has no commit). */
  static Map<TopicPartition, Long> nonZero(Map<TopicPartition, Long> offsets) {
    return offsets.entrySet().stream()
        .filter(e -> e.getValue() > 0)
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  static long sum(Map<TopicPartition, Long> offsets) {
    return offsets.values().stream().mapToLong(Long::longValue).sum();
  }

  long countRecords(String topic, Set<TopicPartition> inputs, IsolationLevel isolation) {
    List<TopicPartition> tps =
        inputs.stream().map(tp -> new TopicPartition(topic, tp.partition())).toList();
    return consumeAll(tps, isolation, new ByteArrayDeserializer()).size();
  }

  List<Keyed> readCommitted(Admin admin, String topic, Map<String, Object> serde) throws Exception {
    List<TopicPartition> tps =
        new ArrayList<>(endOffsets(admin, topic, IsolationLevel.READ_COMMITTED).keySet());
    return consumeAll(
            tps,
            IsolationLevel.READ_COMMITTED,
            AvroSerde.forClass(WindowResult.class, serde, false).deserializer())
        .stream()
        .map(r -> new Keyed(r.key(), r.value()))
        .toList();
  }

  /** Every record of {@code tps} up to the end offsets for {@code isolation}. */
  private <V> List<ConsumerRecord<String, V>> consumeAll(
      List<TopicPartition> tps, IsolationLevel isolation, Deserializer<V> values) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString());
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    List<ConsumerRecord<String, V>> records = new ArrayList<>();
    try (KafkaConsumer<String, V> consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), values)) {
      consumer.assign(tps);
      consumer.seekToBeginning(tps);
      Map<TopicPartition, Long> end = consumer.endOffsets(tps);
      long deadline = System.nanoTime() + timeout.toNanos();
      while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        assertThat(System.nanoTime()).as("reading %s within %s", tps, timeout).isLessThan(deadline);
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }
}
