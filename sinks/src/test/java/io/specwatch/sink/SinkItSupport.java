package io.specwatch.sink;

import io.specwatch.serde.AvroSerde;
import io.specwatch.sink.clickhouse.ClickHouseSql;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/** Producing, offsets and counting helpers shared by the sink ITs. */
final class SinkItSupport {

  private SinkItSupport() {}

  /** Sends {@code values} in one committed transaction (and, if asked, an aborted one first). */
  @SuppressWarnings("unchecked")
  static <V extends SpecificRecord> void produce(
      String bootstrap,
      String registry,
      String topic,
      List<V> values,
      Function<V, String> key,
      List<V> aborted) {
    if (values.isEmpty() && aborted.isEmpty()) {
      return;
    }
    Class<V> type = (Class<V>) (values.isEmpty() ? aborted : values).get(0).getClass();
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-" + System.nanoTime());
    try (KafkaProducer<String, V> producer =
        new KafkaProducer<>(
            p,
            new StringSerializer(),
            AvroSerde.forClass(type, Map.of("schema.registry.url", registry), false)
                .serializer())) {
      producer.initTransactions();
      if (!aborted.isEmpty()) {
        producer.beginTransaction();
        for (V v : aborted) {
          producer.send(new ProducerRecord<>(topic, key.apply(v), v));
        }
        producer.flush();
        producer.abortTransaction();
      }
      producer.beginTransaction();
      for (V v : values) {
        producer.send(new ProducerRecord<>(topic, key.apply(v), v));
      }
      producer.commitTransaction();
    }
  }

  static Map<TopicPartition, Long> committed(Admin admin, String group) throws Exception {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
    return offsets.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
  }

  static Map<TopicPartition, Long> endOffsets(Admin admin, Map<String, Integer> partitions)
      throws Exception {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    partitions.forEach(
        (topic, n) -> {
          for (int p = 0; p < n; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
          }
        });
    Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
        admin.listOffsets(request).all().get();
    return result.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
  }

  static long number(ClickHouseSql sql, String select) {
    return Long.parseLong(sql.queryTsvWithNames(select).get(1).get(0));
  }

  /** One row (FINAL) as column name to text value. */
  static Map<String, String> row(ClickHouseSql sql, String select) {
    List<List<String>> rows = sql.queryTsvWithNames(select);
    if (rows.size() != 2) {
      throw new AssertionError("expected one row from [" + select + "], got " + (rows.size() - 1));
    }
    Map<String, String> row = new HashMap<>();
    for (int c = 0; c < rows.get(0).size(); c++) {
      row.put(rows.get(0).get(c), rows.get(1).get(c));
    }
    return row;
  }
}
