package io.specwatch.ingest.ship;

import io.specwatch.ingest.context.RunContextSources;
import io.specwatch.ingest.normalise.NormaliseConfig;
import io.specwatch.serde.Topics;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Validated settings of the shipper.
 *
 * @param bootstrap Kafka bootstrap servers
 * @param registryUrl Confluent-compatible schema registry base URL
 * @param decodeTopic decode-events topic
 * @param dlqTopic dead-letter topic
 * @param deploymentId deployment the file belongs to (record key)
 * @param host GPU host name recorded in events
 * @param normalise normalisation settings
 * @param producerOverrides raw Kafka producer settings (SASL/TLS...), applied last except the
 *     delivery guarantees
 * @param requestTopic request-acceptance topic (per-request records)
 * @param runContextTopic run-context topic (compacted)
 * @param runContext the configured run-context sources (CLI options, file)
 * @param maxLineBytes bytes kept of one log line; a longer line is dead-lettered with its head
 *     (bounded memory). At most the producer's {@code max.request.size} minus 64 KiB, so the dead
 *     letter fits in one record.
 */
public record ShipConfig(
    String bootstrap,
    String registryUrl,
    String decodeTopic,
    String dlqTopic,
    String deploymentId,
    String host,
    NormaliseConfig normalise,
    Map<String, String> producerOverrides,
    String requestTopic,
    String runContextTopic,
    RunContextSources runContext,
    int maxLineBytes) {

  /** Room for a dead letter's other fields and the record overhead beside the raw line. */
  static final int DEAD_LETTER_HEADROOM = 64 * 1024;

  public ShipConfig {
    requireText(bootstrap, "bootstrap (SPECWATCH_BOOTSTRAP)");
    requireText(registryUrl, "registry-url (SPECWATCH_REGISTRY_URL)");
    requireText(decodeTopic, "topic");
    requireText(dlqTopic, "dlq-topic");
    requireText(deploymentId, "deployment");
    requireText(host, "host");
    Objects.requireNonNull(normalise, "normalise");
    producerOverrides = Map.copyOf(producerOverrides == null ? Map.of() : producerOverrides);
    requireText(requestTopic, "request-topic");
    requireText(runContextTopic, "run-context-topic");
    Objects.requireNonNull(runContext, "runContext");
    Map<String, Object> producer =
        parseProducer(producerProperties(bootstrap, deploymentId, producerOverrides));
    long maxRequest = ((Number) producer.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG)).longValue();
    if (maxLineBytes < 1 || maxLineBytes > maxRequest - DEAD_LETTER_HEADROOM) {
      throw new IllegalArgumentException(
          "setting 'max-line-bytes' (SPECWATCH_MAX_LINE_BYTES) must be between 1 and the producer's"
              + " max.request.size ("
              + maxRequest
              + ") minus "
              + DEAD_LETTER_HEADROOM
              + ", was "
              + maxLineBytes);
    }
  }

  /** Settings with the default max line length {@link SourceLine#DEFAULT_MAX_LINE_BYTES}. */
  public ShipConfig(
      String bootstrap,
      String registryUrl,
      String decodeTopic,
      String dlqTopic,
      String deploymentId,
      String host,
      NormaliseConfig normalise,
      Map<String, String> producerOverrides,
      String requestTopic,
      String runContextTopic,
      RunContextSources runContext) {
    this(
        bootstrap,
        registryUrl,
        decodeTopic,
        dlqTopic,
        deploymentId,
        host,
        normalise,
        producerOverrides,
        requestTopic,
        runContextTopic,
        runContext,
        SourceLine.DEFAULT_MAX_LINE_BYTES);
  }

  /**
   * Kafka's own checks of the producer settings (types and allowed values, e.g. {@code
   * compression.type=lz5}), at start and without I/O, so a mistake stops the start naming the
   * setting instead of the first file's shipping. Returns the parsed settings, defaults filled in.
   */
  private static Map<String, Object> parseProducer(Properties p) {
    Map<Object, Object> m = new HashMap<>(p);
    m.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    m.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    try {
      return ProducerConfig.configDef().parse(m);
    } catch (ConfigException e) {
      throw new IllegalArgumentException(
          "a Kafka producer setting (--producer-property, -K or --kafka-properties-file): "
              + e.getMessage(),
          e);
    }
  }

  /** Settings with the default run-context topic and no configured run-context source. */
  public ShipConfig(
      String bootstrap,
      String registryUrl,
      String decodeTopic,
      String dlqTopic,
      String deploymentId,
      String host,
      NormaliseConfig normalise,
      Map<String, String> producerOverrides,
      String requestTopic) {
    this(
        bootstrap,
        registryUrl,
        decodeTopic,
        dlqTopic,
        deploymentId,
        host,
        normalise,
        producerOverrides,
        requestTopic,
        Topics.RUN_CONTEXT,
        RunContextSources.NONE);
  }

  /** Settings with the default request-acceptance topic {@link Topics#REQUEST_ACCEPTANCE}. */
  public ShipConfig(
      String bootstrap,
      String registryUrl,
      String decodeTopic,
      String dlqTopic,
      String deploymentId,
      String host,
      NormaliseConfig normalise,
      Map<String, String> producerOverrides) {
    this(
        bootstrap,
        registryUrl,
        decodeTopic,
        dlqTopic,
        deploymentId,
        host,
        normalise,
        producerOverrides,
        Topics.REQUEST_ACCEPTANCE);
  }

  /** The producer's compression.type unless overridden. */
  public static final String DEFAULT_COMPRESSION = "lz4";

  /** Producer settings: idempotent, acks=all; overrides cannot weaken delivery. */
  public Properties producerProperties() {
    return producerProperties(bootstrap, deploymentId, producerOverrides);
  }

  private static Properties producerProperties(
      String bootstrap, String deploymentId, Map<String, String> producerOverrides) {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, "specwatch-ingest-" + deploymentId);
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    // 1 MiB batches (librdkafka's default, what kcat sends with): with the 16 KiB default the
    // network thread completed a batch every ~40 records and became the bottleneck of a file
    // replay; 1 MiB against 256 KiB: 184 000-195 000 against 162 000 lines/s warm, and less
    // network-thread CPU (scripts/bench-ingest.sh, ingest/README.md round 9)
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, "1048576");
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "120000");
    // lz4: an event is ~450 bytes of Avro (rawFields, source path, id) against ~200 of its line,
    // and on a 2-core host the bytes (socket copies, the broker's page-cache writes) cost more CPU
    // than lz4 does: 1.17x the lines/s of no compression (medians of three alternating pairs,
    // 2026-12-03; ingest/README.md, Compression); `--producer-property compression.type=none`
    // turns it off
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, DEFAULT_COMPRESSION);
    p.putAll(producerOverrides);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    return p;
  }

  /** Settings of the Avro serdes. */
  public Map<String, Object> serdeConfig() {
    // the serde reads the registry keys it knows (basic.auth.user.info, TLS stores) and ignores
    // the rest, as in streams-app
    Map<String, Object> m = new java.util.TreeMap<>(producerOverrides);
    m.put("schema.registry.url", registryUrl);
    return m;
  }

  /** Secrets masked, for the one config log line. */
  @Override
  public String toString() {
    return "ShipConfig[bootstrap="
        + bootstrap
        + ", registryUrl="
        + io.specwatch.runtime.Secrets.maskText(registryUrl)
        + ", topic="
        + decodeTopic
        + ", dlqTopic="
        + dlqTopic
        + ", requestTopic="
        + requestTopic
        + ", runContextTopic="
        + runContextTopic
        + ", runContext="
        + runContext
        + ", deployment="
        + deploymentId
        + ", host="
        + host
        + ", "
        + normalise
        + ", maxLineBytes="
        + maxLineBytes
        + ", producerOverrides="
        + producerOverrides.keySet()
        + "]";
  }

  private static void requireText(String value, String setting) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("setting '" + setting + "' is required");
    }
  }
}
