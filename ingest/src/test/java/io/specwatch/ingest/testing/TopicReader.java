package io.specwatch.ingest.testing;

import static org.awaitility.Awaitility.await;

import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads an Avro topic from the beginning with a fresh group (read_committed, no offset commits)
 * until at least {@code expected} records arrived, then polls once more so that records beyond the
 * expected ones are seen too: a test asserting an exact count fails on extras.
 */
public final class TopicReader {
  private static final Duration WAIT = Duration.ofSeconds(90);

  private TopicReader() {}

  /** The records (key, value, offset, timestamp) of {@code topic}. */
  public static <T extends SpecificRecord> List<ConsumerRecord<String, T>> records(
      String bootstrap, String registry, String topic, Class<T> type, long expected) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, SpecwatchContainers.uniqueName("it.ingest-reader"));
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    List<ConsumerRecord<String, T>> out = new ArrayList<>();
    try (Deserializer<T> values =
            AvroSerde.forClass(type, Map.of("schema.registry.url", registry), false)
                .deserializer();
        KafkaConsumer<String, T> consumer =
            new KafkaConsumer<>(p, new StringDeserializer(), values)) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(WAIT)
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(500)).forEach(out::add);
                return out.size() >= expected;
              });
      // nothing beyond the expected records may arrive
      consumer.poll(Duration.ofMillis(1000)).forEach(out::add);
    }
    return out;
  }

  /** The values of {@code topic}, in partition order. */
  public static <T extends SpecificRecord> List<T> values(
      String bootstrap, String registry, String topic, Class<T> type, long expected) {
    return records(bootstrap, registry, topic, type, expected).stream()
        .map(ConsumerRecord::value)
        .toList();
  }
}
