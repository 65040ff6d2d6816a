package io.specwatch.ingest.tail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.serde.AvroSerde;
import io.specwatch.testkit.SpecwatchContainers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a decode-events topic back (read_committed) and checks it against a {@link MetricLog}. */
final class EventTopic {

  /** One record read: the event and the record timestamp (broker append time where configured). */
  record Read(DecodeEvent event, long timestamp) {}

  private EventTopic() {}

  /**
   * Consumes from the beginning until every expected id arrived, then one more second for extras.
   *
   * @param failure checked at each poll: a non-null text (the shipper died, its output) fails at
   *     once
   */
  static List<Read> readUntilAll(
      String bootstrap,
      String registry,
      String topic,
      Set<String> expectedIds,
      Duration atMost,
      Supplier<String> failure) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, SpecwatchContainers.uniqueName("it.read"));
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    List<Read> out = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    try (Deserializer<DecodeEvent> values =
            AvroSerde.forClass(DecodeEvent.class, Map.of("schema.registry.url", registry), false)
                .deserializer();
        KafkaConsumer<String, DecodeEvent> consumer =
            new KafkaConsumer<>(p, new StringDeserializer(), values)) {
      consumer.subscribe(List.of(topic));
      await()
          .atMost(atMost)
          .pollInterval(Duration.ofMillis(10))
          .until(
              () -> {
                consumer
                    .poll(Duration.ofMillis(300))
                    .forEach(
                        r -> {
                          out.add(new Read(r.value(), r.timestamp()));
                          ids.add(r.value().getEventId());
                        });
                String failed = failure.get();
                if (failed != null) {
                  throw new AssertionError(
                      (expectedIds.size() - ids.size()) + " ids missing; " + failed);
                }
                return ids.containsAll(expectedIds);
              });
      consumer
          .poll(Duration.ofMillis(1000))
          .forEach(r -> out.add(new Read(r.value(), r.timestamp())));
    }
    return out;
  }

  /**
   * Zero lost lines, duplicates only as re-sends: every expected id is present, every record read
   * has an expected id and that id's line number. Returns how many records were duplicates.
   */
  static int assertExactlyTheLines(List<Read> got, Map<String, MetricLog.Expected> expected) {
    Map<String, Long> seen = new HashMap<>();
    int duplicates = 0;
    for (Read r : got) {
      DecodeEvent e = r.event();
      assertThat(expected)
          .as("unexpected event id of line %d", e.getLineNumber())
          .containsKey(e.getEventId());
      assertThat(e.getLineNumber()).isEqualTo(expected.get(e.getEventId()).lineNumber());
      if (seen.put(e.getEventId(), e.getLineNumber()) != null) {
        duplicates++;
      }
    }
    assertThat(seen.keySet()).as("event ids of the written lines").isEqualTo(expected.keySet());
    return duplicates;
  }
}
