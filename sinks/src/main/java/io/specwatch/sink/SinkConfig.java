package io.specwatch.sink;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Everything the window-results sink needs, validated once. {@code kafkaOverrides} are raw consumer
 * settings passed through (SASL/TLS, tuning) except the ones the sink's guarantees rest on, which
 * it always sets itself.
 */
public record SinkConfig(
    String bootstrap,
    String registryUrl,
    String topic,
    String groupId,
    ClickHouseConfig clickhouse,
    int batchSize,
    Duration flushInterval,
    Optional<Duration> exitWhenIdle,
    Backoff retry,
    Map<String, String> kafkaOverrides) {

  public static final String DEFAULT_TOPIC = "specwatch.window-results.v1";
  public static final String DEFAULT_GROUP_ID = "specwatch-sink-window-results";
  public static final int DEFAULT_BATCH_SIZE = 10_000;
  public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(1);

  public SinkConfig {
    bootstrap = required(bootstrap, "--bootstrap (SPECWATCH_BOOTSTRAP)");
    registryUrl = required(registryUrl, "--registry-url (SPECWATCH_REGISTRY_URL)");
    topic = required(topic, "--topic (SPECWATCH_WINDOW_TOPIC)");
    groupId = required(groupId, "--group-id (SPECWATCH_SINK_GROUP_ID)");
    Objects.requireNonNull(clickhouse, "clickhouse settings are required");
    if (batchSize < 1 || batchSize > 1_000_000) {
      throw new IllegalArgumentException(
          "--batch-size must be between 1 and 1000000, got: " + batchSize);
    }
    if (flushInterval == null || flushInterval.isNegative() || flushInterval.isZero()) {
      throw new IllegalArgumentException(
          "--flush-interval must be a positive duration, got: " + flushInterval);
    }
    exitWhenIdle = exitWhenIdle == null ? Optional.empty() : exitWhenIdle;
    exitWhenIdle.ifPresent(
        d -> {
          if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(
                "--exit-when-idle must be a positive duration, got: " + d);
          }
        });
    retry = retry == null ? Backoff.DEFAULT : retry;
    kafkaOverrides = kafkaOverrides == null ? Map.of() : Map.copyOf(kafkaOverrides);
  }

  private static String required(String value, String setting) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(setting + " is required");
    }
    return value.strip();
  }

  /** Consumer settings. The guarantees (read_committed, manual commits) cannot be overridden. */
  public Properties consumerProperties() {
    Properties p = new Properties();
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(Math.min(batchSize, 5_000)));
    p.putAll(kafkaOverrides);
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    return p;
  }

  /** Settings of the Avro serde. */
  public Map<String, String> serdeConfig() {
    return Map.of("schema.registry.url", registryUrl);
  }
}
