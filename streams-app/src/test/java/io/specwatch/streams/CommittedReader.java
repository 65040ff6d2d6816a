package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;

import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Test helper shared by the streams ITs: exactly N committed Avro records of one topic. */
final class CommittedReader {

  private CommittedReader() {}

  /**
   * Reads {@code expected} records with read_committed within {@code timeout} (each keyed by its
   * {@code keyOf}), then keeps polling 3 s more and fails on any extra record.
   */
  static <T extends SpecificRecord> List<T> readExactly(
      String bootstrap,
      String topic,
      Map<String, Object> serde,
      Class<T> type,
      Function<T, CharSequence> keyOf,
      int expected,
      Duration timeout,
      String what) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, SpecwatchContainers.uniqueName("it-reader"));
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<T> results = new ArrayList<>();
    try (KafkaConsumer<String, T> consumer =
        new KafkaConsumer<>(
            p, new StringDeserializer(), AvroSerde.forClass(type, serde, false).deserializer())) {
      consumer.subscribe(List.of(topic));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (results.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, T> r : consumer.poll(Duration.ofMillis(500))) {
          assertThat(r.key()).isEqualTo(keyOf.apply(r.value()).toString());
          results.add(r.value());
        }
      }
      assertThat(results).as("%s within %s", what, timeout).hasSize(expected);
      long settle = System.nanoTime() + Duration.ofSeconds(3).toNanos();
      while (System.nanoTime() < settle) {
        consumer.poll(Duration.ofMillis(500)).forEach(r -> results.add(r.value()));
      }
      assertThat(results).as("no extra %s", what).hasSize(expected);
    }
    return results;
  }
}
