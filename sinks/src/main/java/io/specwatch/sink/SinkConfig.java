package io.specwatch.sink;

import io.specwatch.serde.Topics;
import io.specwatch.sink.clickhouse.ClickHouseConfig;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Everything the sink needs, validated once. {@code topics} says which tables are loaded and from
 * which topic. {@code kafkaOverrides} are raw client settings passed through (SASL/TLS, tuning)
 * except the ones the sink's guarantees rest on, which it always sets itself.
 */
public record SinkConfig(
    String bootstrap,
    String registryUrl,
    Map<SinkTable, String> topics,
    String deadLetterTopic,
    String groupId,
    ClickHouseConfig clickhouse,
    int batchSize,
    Duration flushInterval,
    Optional<Duration> exitWhenIdle,
    Backoff retry,
    InsertFormat insertFormat,
    Map<String, String> kafkaOverrides) {

  /** Window-results topic (the {@code --topic} default, kept for the one-table form). */
  public static final String DEFAULT_TOPIC = Topics.WINDOW_RESULTS;

  public static final String DEFAULT_GROUP_ID = "specwatch-sink";
  public static final int DEFAULT_BATCH_SIZE = 100_000;
  public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(1);

  /** A table's buffer is also flushed when its encoded rows reach this many bytes. */
  public static final int MAX_BATCH_BYTES = 64 << 20;

  public SinkConfig {
    bootstrap = required(bootstrap, "--bootstrap (SPECWATCH_BOOTSTRAP)");
    registryUrl = required(registryUrl, "--registry-url (SPECWATCH_REGISTRY_URL)");
    if (topics == null || topics.isEmpty()) {
      throw new IllegalArgumentException("--tables must name at least one table");
    }
    EnumMap<SinkTable, String> checked = new EnumMap<>(SinkTable.class);
    Map<String, SinkTable> byTopic = new HashMap<>();
    for (Map.Entry<SinkTable, String> e : topics.entrySet()) {
      String setting = "--" + e.getKey().table().replace('_', '-') + "-topic";
      String topic = required(e.getValue(), setting);
      SinkTable other = byTopic.put(topic, e.getKey());
      if (other != null) {
        throw new IllegalArgumentException(
            setting + ": topic " + topic + " is already the topic of " + other.table());
      }
      checked.put(e.getKey(), topic);
    }
    topics = Collections.unmodifiableMap(checked);
    deadLetterTopic = required(deadLetterTopic, "--dead-letter-topic (SPECWATCH_DLQ_TOPIC)");
    if (byTopic.containsKey(deadLetterTopic)) {
      throw new IllegalArgumentException(
          "--dead-letter-topic must not be a topic the sink reads: " + deadLetterTopic);
    }
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
    insertFormat = insertFormat == null ? InsertFormat.ROW_BINARY : insertFormat;
    kafkaOverrides = kafkaOverrides == null ? Map.of() : Map.copyOf(kafkaOverrides);
  }

  /** The window-results-only form: one table from {@code topic}, RowBinary, default DLQ topic. */
  public SinkConfig(
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
    this(
        bootstrap,
        registryUrl,
        Map.of(SinkTable.WINDOW_RESULTS, topic == null ? "" : topic),
        Topics.DEAD_LETTER,
        groupId,
        clickhouse,
        batchSize,
        flushInterval,
        exitWhenIdle,
        retry,
        InsertFormat.ROW_BINARY,
        kafkaOverrides);
  }

  /** Every table from its default topic. */
  public static Map<SinkTable, String> defaultTopics() {
    EnumMap<SinkTable, String> all = new EnumMap<>(SinkTable.class);
    for (SinkTable t : SinkTable.values()) {
      all.put(t, t.defaultTopic());
    }
    return all;
  }

  private static String required(String value, String setting) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(setting + " is required");
    }
    return value.strip();
  }

  /**
   * Consumer settings. The guarantees (read_committed, manual commits, no topic auto-creation)
   * cannot be overridden.
   */
  public Properties consumerProperties() {
    Properties p = new Properties();
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, Integer.toString(Math.min(batchSize, 5_000)));
    // Larger fetches (default 1 MiB per partition, 64 KiB socket buffer): fewer round trips while
    // catching up; memory stays bounded by fetch.max.bytes (50 MiB) per fetch. Overridable.
    p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(8 << 20));
    p.put(ConsumerConfig.RECEIVE_BUFFER_CONFIG, Integer.toString(1 << 20));
    p.putAll(kafkaOverrides);
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    return p;
  }

  /** Settings of the Avro serde. */
  public Map<String, String> serdeConfig() {
    // registry credentials/TLS (basic.auth.user.info, ...) travel with the raw client settings
    Map<String, String> m = new java.util.TreeMap<>(kafkaOverrides);
    m.put("schema.registry.url", registryUrl);
    return m;
  }

  /** Secrets masked, for the one config log line. */
  @Override
  public String toString() {
    return "SinkConfig[bootstrap="
        + bootstrap
        + ", registryUrl="
        + io.specwatch.runtime.Secrets.maskText(registryUrl)
        + ", topics="
        + topics
        + ", deadLetterTopic="
        + deadLetterTopic
        + ", groupId="
        + groupId
        + ", clickhouse="
        + clickhouse
        + ", batchSize="
        + batchSize
        + ", flushInterval="
        + flushInterval
        + ", exitWhenIdle="
        + exitWhenIdle
        + ", retry="
        + retry
        + ", insertFormat="
        + insertFormat
        + ", kafka="
        + io.specwatch.runtime.Secrets.mask(kafkaOverrides)
        + "]";
  }
}
