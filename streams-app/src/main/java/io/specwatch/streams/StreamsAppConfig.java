package io.specwatch.streams;

import io.specwatch.runtime.Secrets;
import io.specwatch.schemas.Alert;
import io.specwatch.schemas.RunContext;
import io.specwatch.schemas.WindowResult;
import io.specwatch.serde.AvroSerde;
import io.specwatch.serde.Topics;
import io.specwatch.streams.alert.AlertConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DefaultProductionExceptionHandler;

/**
 * Validated settings of the streams app. Every setting is checked in the constructor and a failure
 * names the setting.
 *
 * @param bootstrap Kafka bootstrap servers (host:port[,host:port])
 * @param registryUrl Confluent-compatible schema registry base URL
 * @param applicationId Kafka Streams application.id (consumer group, internal topic prefix)
 * @param stateDir local state directory
 * @param windowSize tumbling window size
 * @param grace grace period: events up to this much after a window's end still count; later ones
 *     are dropped and counted in dropped-records-total
 * @param decodeEventsTopic input topic
 * @param runContextTopic run-context topic (compacted, co-partitioned with the input)
 * @param windowResultsTopic output topic
 * @param deadLetterTopic where the exception handlers write DeadLetter records
 * @param staticBaselines configured t_AR per comparison key
 * @param baselineMaxAge how much older than a speculative window a learned baseline may be
 * @param extraKafkaProperties raw Kafka client/Streams settings applied last (SASL, TLS, tuning)
 * @param alertsTopic output topic of alert raise/clear events
 * @param alerts alert rules
 * @param dedupRetention how long (event time) an event id is remembered so that a re-sent event is
 *     dropped (0: off; null: {@link TopologyInputs#defaultDedupRetention}); at least window + grace
 * @param maxEventAhead how far an event's time may lie ahead of its ingest time before the event is
 *     dead-lettered instead of counted (0: off; null: {@link
 *     TopologyInputs#DEFAULT_MAX_EVENT_AHEAD})
 */
public record StreamsAppConfig(
    String bootstrap,
    String registryUrl,
    String applicationId,
    Path stateDir,
    Duration windowSize,
    Duration grace,
    String decodeEventsTopic,
    String runContextTopic,
    String windowResultsTopic,
    String deadLetterTopic,
    StaticBaselines staticBaselines,
    Duration baselineMaxAge,
    Map<String, String> extraKafkaProperties,
    String alertsTopic,
    AlertConfig alerts,
    Duration dedupRetention,
    Duration maxEventAhead) {

  /** With the default dedup retention. */
  public StreamsAppConfig(
      String bootstrap,
      String registryUrl,
      String applicationId,
      Path stateDir,
      Duration windowSize,
      Duration grace,
      String decodeEventsTopic,
      String runContextTopic,
      String windowResultsTopic,
      String deadLetterTopic,
      StaticBaselines staticBaselines,
      Duration baselineMaxAge,
      Map<String, String> extraKafkaProperties,
      String alertsTopic,
      AlertConfig alerts) {
    this(
        bootstrap,
        registryUrl,
        applicationId,
        stateDir,
        windowSize,
        grace,
        decodeEventsTopic,
        runContextTopic,
        windowResultsTopic,
        deadLetterTopic,
        staticBaselines,
        baselineMaxAge,
        extraKafkaProperties,
        alertsTopic,
        alerts,
        null,
        null);
  }

  /** With the default alerts topic and the default alert rules. */
  public StreamsAppConfig(
      String bootstrap,
      String registryUrl,
      String applicationId,
      Path stateDir,
      Duration windowSize,
      Duration grace,
      String decodeEventsTopic,
      String runContextTopic,
      String windowResultsTopic,
      String deadLetterTopic,
      StaticBaselines staticBaselines,
      Duration baselineMaxAge,
      Map<String, String> extraKafkaProperties) {
    this(
        bootstrap,
        registryUrl,
        applicationId,
        stateDir,
        windowSize,
        grace,
        decodeEventsTopic,
        runContextTopic,
        windowResultsTopic,
        deadLetterTopic,
        staticBaselines,
        baselineMaxAge,
        extraKafkaProperties,
        Topics.ALERTS,
        AlertConfig.defaults(),
        null,
        null);
  }

  public StreamsAppConfig {
    require(bootstrap, "bootstrap");
    require(registryUrl, "registry-url");
    if (!registryUrl.startsWith("http://")
        && !registryUrl.startsWith("https://")
        && !registryUrl.startsWith("mock://")) {
      throw new IllegalArgumentException(
          "registry-url must start with http://, https:// or mock://, got " + registryUrl);
    }
    require(applicationId, "application-id");
    Objects.requireNonNull(stateDir, "state-dir must be set");
    if (windowSize == null || windowSize.isZero() || windowSize.isNegative()) {
      throw new IllegalArgumentException("window must be positive, got " + windowSize);
    }
    if (grace == null || grace.isNegative()) {
      throw new IllegalArgumentException("grace must be zero or positive, got " + grace);
    }
    require(decodeEventsTopic, "decode-events-topic");
    require(runContextTopic, "run-context-topic");
    require(windowResultsTopic, "window-results-topic");
    require(deadLetterTopic, "dead-letter-topic");
    require(alertsTopic, "alerts-topic");
    Map<String, String> topics = new TreeMap<>();
    for (String[] t :
        new String[][] {
          {"decode-events-topic", decodeEventsTopic},
          {"run-context-topic", runContextTopic},
          {"window-results-topic", windowResultsTopic},
          {"dead-letter-topic", deadLetterTopic},
          {"alerts-topic", alertsTopic}
        }) {
      String other = topics.put(t[1], t[0]);
      if (other != null) {
        throw new IllegalArgumentException(
            other + " and " + t[0] + " must differ, both are " + t[1]);
      }
    }
    staticBaselines = staticBaselines == null ? StaticBaselines.none() : staticBaselines;
    if (baselineMaxAge == null || baselineMaxAge.isNegative()) {
      throw new IllegalArgumentException(
          "baseline-max-age must be zero or positive, got " + baselineMaxAge);
    }
    Objects.requireNonNull(alerts, "alert settings must be set");
    dedupRetention =
        TopologyInputs.checkDedupRetention(dedupRetention, windowSize, grace, "dedup-retention");
    maxEventAhead = TopologyInputs.checkMaxEventAhead(maxEventAhead, "max-event-ahead");
    extraKafkaProperties =
        Map.copyOf(extraKafkaProperties == null ? Map.of() : extraKafkaProperties);
    requireLong(extraKafkaProperties, StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    requireLong(extraKafkaProperties, StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1);
    requireLong(extraKafkaProperties, ProducerConfig.BATCH_SIZE_CONFIG, 0);
    requireLong(
        extraKafkaProperties, StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), 0);
  }

  /** EOS commit interval (the Kafka default under exactly_once_v2 is 100 ms). */
  public static final long DEFAULT_COMMIT_INTERVAL_MS = 1000;

  /** Batch size of the app's producer (Kafka's default is 16 KiB). */
  public static final int DEFAULT_PRODUCER_BATCH_SIZE = 256 * 1024;

  /** A tuning key given with {@code -K} must be a whole number of at least {@code min}. */
  private static void requireLong(Map<String, String> extra, String key, long min) {
    String v = extra.get(key);
    if (v == null) {
      return;
    }
    long parsed;
    try {
      parsed = Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Kafka property " + key + " must be a whole number, got '" + v + "'");
    }
    if (parsed < min) {
      throw new IllegalArgumentException(
          "Kafka property " + key + " must be at least " + min + ", got " + parsed);
    }
  }

  /**
   * The Kafka Streams properties: exactly_once_v2, the explicit-naming check, the exception
   * handlers, then the extra properties (which may override anything, deliberately).
   */
  public Properties kafkaProperties() {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, "true");
    p.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        DeadLetterDeserializationHandler.class.getName());
    p.put(
        StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG,
        DefaultProductionExceptionHandler.class.getName());
    p.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        DeadLetterProcessingHandler.class.getName());
    // read by the handlers' configure(): where and how to write DeadLetter records
    p.put(DeadLetters.TOPIC_CONFIG, deadLetterTopic);
    // the Kafka 5.0 default, set now: the processing handler also covers global-state processing
    p.put("processing.exception.handler.global.enabled", "true"); // constant deprecated in 4.4
    p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, "0");
    p.put(StreamsConfig.METRICS_RECORDING_LEVEL_CONFIG, "INFO");
    // Throughput (docs/DESIGN.md, Scale-out, failover and throughput): EOS commits every second
    // instead of every 100 ms; the window aggregator writes its windows once per commit. The record
    // cache (of the event-id and other DSL stores) keeps Kafka's default (10 MB).
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, String.valueOf(DEFAULT_COMMIT_INTERVAL_MS));
    // Batches of up to 256 KiB instead of the producer's 16 KiB: each commit writes the windows
    // updated since the last one to the changelog (several MB per second), which in 16 KiB batches
    // took ~3 500 produce requests per 450 000 events; the broker's CPU per event halved. Not when
    // the extra properties set it, prefixed or not (a prefixed default would win over a plain one).
    if (!extraKafkaProperties.containsKey(ProducerConfig.BATCH_SIZE_CONFIG)) {
      p.put(
          StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG),
          String.valueOf(DEFAULT_PRODUCER_BATCH_SIZE));
    }
    p.putAll(extraKafkaProperties);
    p.put("schema.registry.url", registryUrl);
    return p;
  }

  /**
   * Serde settings: every extra property (the serde reads the registry keys it knows, such as
   * {@code basic.auth.user.info} or the subject-name strategies, and ignores the rest, as
   * Confluent's serdes do) plus the registry URL.
   */
  public Map<String, Object> serdeConfig() {
    Map<String, Object> m = new TreeMap<>(extraKafkaProperties);
    m.put("schema.registry.url", registryUrl);
    return m;
  }

  /** The topology inputs of this config, with Avro serdes against the registry. */
  public TopologyInputs topologyInputs() {
    Map<String, Object> serde = serdeConfig();
    return new TopologyInputs(
        decodeEventsTopic,
        runContextTopic,
        windowResultsTopic,
        windowSize,
        grace,
        staticBaselines,
        baselineMaxAge,
        FastDecodeEventDeserializer.serde(serde),
        AvroSerde.forClass(RunContext.class, serde, false),
        AvroSerde.forClass(WindowResult.class, serde, false),
        alertsTopic,
        AvroSerde.forClass(Alert.class, serde, false),
        alerts,
        dedupRetention,
        maxEventAhead);
  }

  /** The effective settings for a log line, secrets masked. */
  public String describe() {
    Map<String, String> extra = new TreeMap<>();
    extra.putAll(Secrets.mask(extraKafkaProperties));
    return "bootstrap="
        + bootstrap
        + " registryUrl="
        + Secrets.maskText(registryUrl)
        + " applicationId="
        + applicationId
        + " stateDir="
        + stateDir
        + " window="
        + windowSize
        + " grace="
        + grace
        + " dedupRetention="
        + dedupRetention
        + " maxEventAhead="
        + maxEventAhead
        + " decodeEventsTopic="
        + decodeEventsTopic
        + " runContextTopic="
        + runContextTopic
        + " windowResultsTopic="
        + windowResultsTopic
        + " deadLetterTopic="
        + deadLetterTopic
        + " staticBaselines="
        + staticBaselines.stepMs()
        + " baselineMaxAge="
        + baselineMaxAge
        + " alertsTopic="
        + alertsTopic
        + " alerts="
        + alerts
        + " extra="
        + extra;
  }

  static boolean isSecret(String key) {
    return Secrets.isSecretKey(key);
  }

  private static void require(String value, String setting) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(setting + " must not be blank");
    }
  }
}
