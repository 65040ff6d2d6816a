package io.specwatch.runtime;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The Kafka options every app shares, as a picocli mixin ({@code @Mixin KafkaOptions kafka;}):
 * bootstrap servers, schema registry URL and raw client settings (SASL, TLS, tuning) from a
 * properties file and/or repeated {@code -K key=value} (which win over the file).
 */
public final class KafkaOptions {

  public static final String DEFAULT_BOOTSTRAP = "127.0.0.1:19092";
  public static final String DEFAULT_REGISTRY_URL = "http://127.0.0.1:18081/apis/ccompat/v7";

  private static final Logger LOG = LoggerFactory.getLogger(KafkaOptions.class);

  private boolean logged;

  @Option(
      names = "--bootstrap",
      defaultValue = "${env:SPECWATCH_BOOTSTRAP:-" + DEFAULT_BOOTSTRAP + "}",
      description = "Kafka bootstrap servers (env SPECWATCH_BOOTSTRAP). Default: ${DEFAULT-VALUE}")
  String bootstrap;

  @Option(
      names = "--registry-url",
      defaultValue = "${env:SPECWATCH_REGISTRY_URL:-" + DEFAULT_REGISTRY_URL + "}",
      description = "Schema registry URL (env SPECWATCH_REGISTRY_URL). Default: ${DEFAULT-VALUE}")
  String registryUrl;

  @Option(
      names = "--kafka-properties-file",
      defaultValue = "${env:SPECWATCH_KAFKA_PROPERTIES_FILE}",
      description =
          "Properties file of raw Kafka client settings, e.g. SASL/TLS"
              + " (env SPECWATCH_KAFKA_PROPERTIES_FILE).")
  Path kafkaPropertiesFile;

  @Option(
      names = {"-K", "--kafka-property"},
      description = "Raw Kafka client setting key=value, repeatable; wins over the file.")
  Map<String, String> kafkaProperties = new LinkedHashMap<>();

  /** Dedicated SASL/TLS options; they win over the file, {@code -K} wins over them. */
  @Mixin KafkaSecurityOptions security = new KafkaSecurityOptions();

  /** Kafka bootstrap servers. */
  public String bootstrap() {
    return bootstrap;
  }

  /** Schema registry base URL. */
  public String registryUrl() {
    return registryUrl;
  }

  /**
   * The raw client settings: the properties file's, the dedicated security options over them, then
   * the {@code -K} ones over all. Includes the schema registry credentials ({@code
   * basic.auth.user.info}), which the serdes read. The first call logs the effective settings once,
   * secrets masked (every app calls it at start).
   *
   * @throws IllegalArgumentException naming {@code --kafka-properties-file} when the file cannot be
   *     read, or naming the setting of an inconsistent security combination
   */
  public Map<String, String> rawProperties() {
    Map<String, String> all = merged();
    if (!logged) {
      logged = true;
      LOG.info("effective Kafka config: {}", describe(all));
    }
    return all;
  }

  private Map<String, String> merged() {
    Map<String, String> all = new LinkedHashMap<>();
    if (kafkaPropertiesFile != null) {
      all.putAll(load(kafkaPropertiesFile));
    }
    all.putAll(security.properties());
    all.putAll(kafkaProperties);
    KafkaSecurityOptions.validate(all);
    return all;
  }

  /** The effective Kafka settings for the one start-up log line, secrets masked. */
  public String describe() {
    return describe(merged());
  }

  private String describe(Map<String, String> all) {
    return "bootstrap="
        + bootstrap
        + " registryUrl="
        + Secrets.maskText(registryUrl)
        + " kafka="
        + Secrets.mask(all);
  }

  /** The settings of a properties file, failing with a message naming the option. */
  static Map<String, String> load(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "--kafka-properties-file (SPECWATCH_KAFKA_PROPERTIES_FILE): no such file: " + file);
    }
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--kafka-properties-file (SPECWATCH_KAFKA_PROPERTIES_FILE): cannot read "
              + file
              + ": "
              + e.getMessage(),
          e);
    }
    Map<String, String> m = new LinkedHashMap<>();
    p.stringPropertyNames().stream().sorted().forEach(k -> m.put(k, p.getProperty(k)));
    return m;
  }
}
