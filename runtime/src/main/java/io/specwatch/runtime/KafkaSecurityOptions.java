package io.specwatch.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * SASL (SCRAM-SHA-256/512, PLAIN) and TLS client settings of every app, as dedicated options with
 * env-var equivalents. They become the standard Kafka client keys ({@code security.protocol},
 * {@code sasl.mechanism}, {@code sasl.jaas.config}, {@code ssl.truststore.*}, {@code
 * ssl.keystore.*}) and so reach producers, consumers, admin clients and Kafka Streams' internal
 * clients alike. The schema registry's basic-auth credentials become {@code basic.auth.user.info}.
 */
public final class KafkaSecurityOptions {

  static final Set<String> PROTOCOLS = Set.of("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL");
  static final Map<String, String> LOGIN_MODULES =
      Map.of(
          "SCRAM-SHA-256", "org.apache.kafka.common.security.scram.ScramLoginModule",
          "SCRAM-SHA-512", "org.apache.kafka.common.security.scram.ScramLoginModule",
          "PLAIN", "org.apache.kafka.common.security.plain.PlainLoginModule");

  @Option(
      names = "--kafka-security-protocol",
      defaultValue = "${env:SPECWATCH_KAFKA_SECURITY_PROTOCOL}",
      description =
          "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL (env SPECWATCH_KAFKA_SECURITY_PROTOCOL).")
  String securityProtocol;

  @Option(
      names = "--kafka-sasl-mechanism",
      defaultValue = "${env:SPECWATCH_KAFKA_SASL_MECHANISM}",
      description =
          "SCRAM-SHA-256, SCRAM-SHA-512 or PLAIN (env SPECWATCH_KAFKA_SASL_MECHANISM); needs"
              + " --kafka-sasl-username and a password.")
  String saslMechanism;

  @Option(
      names = "--kafka-sasl-username",
      defaultValue = "${env:SPECWATCH_KAFKA_SASL_USERNAME}",
      description = "SASL user name (env SPECWATCH_KAFKA_SASL_USERNAME).")
  String saslUsername;

  @Option(
      names = "--kafka-sasl-password",
      defaultValue = "${env:SPECWATCH_KAFKA_SASL_PASSWORD}",
      description = "SASL password (env SPECWATCH_KAFKA_SASL_PASSWORD); prefer the file option.")
  String saslPassword;

  @Option(
      names = "--kafka-sasl-password-file",
      defaultValue = "${env:SPECWATCH_KAFKA_SASL_PASSWORD_FILE}",
      description = "File holding the SASL password (env SPECWATCH_KAFKA_SASL_PASSWORD_FILE).")
  Path saslPasswordFile;

  @Option(
      names = "--kafka-truststore",
      defaultValue = "${env:SPECWATCH_KAFKA_TRUSTSTORE}",
      description = "TLS trust store (PKCS12/JKS/PEM) (env SPECWATCH_KAFKA_TRUSTSTORE).")
  Path truststore;

  @Option(
      names = "--kafka-truststore-type",
      defaultValue = "${env:SPECWATCH_KAFKA_TRUSTSTORE_TYPE}",
      description = "PKCS12, JKS or PEM (env SPECWATCH_KAFKA_TRUSTSTORE_TYPE).")
  String truststoreType;

  @Option(
      names = "--kafka-truststore-password",
      defaultValue = "${env:SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD}",
      description =
          "Trust store password (env SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD); prefer the file option.")
  String truststorePassword;

  @Option(
      names = "--kafka-truststore-password-file",
      defaultValue = "${env:SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD_FILE}",
      description =
          "File holding the trust store password (env SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD_FILE).")
  Path truststorePasswordFile;

  @Option(
      names = "--kafka-keystore",
      defaultValue = "${env:SPECWATCH_KAFKA_KEYSTORE}",
      description = "TLS client key store, for mutual TLS (env SPECWATCH_KAFKA_KEYSTORE).")
  Path keystore;

  @Option(
      names = "--kafka-keystore-type",
      defaultValue = "${env:SPECWATCH_KAFKA_KEYSTORE_TYPE}",
      description = "PKCS12, JKS or PEM (env SPECWATCH_KAFKA_KEYSTORE_TYPE).")
  String keystoreType;

  @Option(
      names = "--kafka-keystore-password",
      defaultValue = "${env:SPECWATCH_KAFKA_KEYSTORE_PASSWORD}",
      description =
          "Key store password (env SPECWATCH_KAFKA_KEYSTORE_PASSWORD); prefer the file option.")
  String keystorePassword;

  @Option(
      names = "--kafka-keystore-password-file",
      defaultValue = "${env:SPECWATCH_KAFKA_KEYSTORE_PASSWORD_FILE}",
      description =
          "File holding the key store password (env SPECWATCH_KAFKA_KEYSTORE_PASSWORD_FILE).")
  Path keystorePasswordFile;

  @Option(
      names = "--kafka-key-password",
      defaultValue = "${env:SPECWATCH_KAFKA_KEY_PASSWORD}",
      description = "Private key password (env SPECWATCH_KAFKA_KEY_PASSWORD).")
  String keyPassword;

  @Option(
      names = "--kafka-key-password-file",
      defaultValue = "${env:SPECWATCH_KAFKA_KEY_PASSWORD_FILE}",
      description =
          "File holding the private key password (env SPECWATCH_KAFKA_KEY_PASSWORD_FILE).")
  Path keyPasswordFile;

  @Option(
      names = "--registry-user",
      defaultValue = "${env:SPECWATCH_REGISTRY_USER}",
      description = "Schema registry basic-auth user (env SPECWATCH_REGISTRY_USER).")
  String registryUser;

  @Option(
      names = "--registry-password",
      defaultValue = "${env:SPECWATCH_REGISTRY_PASSWORD}",
      description = "Schema registry basic-auth password (env SPECWATCH_REGISTRY_PASSWORD).")
  String registryPassword;

  @Option(
      names = "--registry-password-file",
      defaultValue = "${env:SPECWATCH_REGISTRY_PASSWORD_FILE}",
      description = "File holding the registry password (env SPECWATCH_REGISTRY_PASSWORD_FILE).")
  Path registryPasswordFile;

  /**
   * The Kafka client keys these options set (only those given).
   *
   * @throws IllegalArgumentException naming the option of an inconsistent combination
   */
  public Map<String, String> properties() {
    Map<String, String> p = new LinkedHashMap<>();
    if (securityProtocol != null) {
      p.put("security.protocol", securityProtocol.toUpperCase(Locale.ROOT));
    }
    String password =
        secret(
            saslPassword,
            saslPasswordFile,
            "--kafka-sasl-password",
            "--kafka-sasl-password-file (SPECWATCH_KAFKA_SASL_PASSWORD_FILE)");
    if (saslMechanism != null) {
      String mechanism = saslMechanism.toUpperCase(Locale.ROOT);
      String module = LOGIN_MODULES.get(mechanism);
      if (module == null) {
        throw new IllegalArgumentException(
            "--kafka-sasl-mechanism (SPECWATCH_KAFKA_SASL_MECHANISM): unsupported "
                + saslMechanism
                + ", expected one of "
                + LOGIN_MODULES.keySet()
                + " (others: set sasl.mechanism and sasl.jaas.config with -K)");
      }
      if (saslUsername == null || saslUsername.isBlank() || password == null) {
        throw new IllegalArgumentException(
            "--kafka-sasl-mechanism "
                + mechanism
                + " needs --kafka-sasl-username (SPECWATCH_KAFKA_SASL_USERNAME) and"
                + " --kafka-sasl-password or --kafka-sasl-password-file");
      }
      p.put("sasl.mechanism", mechanism);
      p.put("sasl.jaas.config", jaas(module, saslUsername, password));
      if (securityProtocol == null) {
        p.put("security.protocol", truststore != null ? "SASL_SSL" : "SASL_PLAINTEXT");
      }
    } else if (saslUsername != null || password != null) {
      throw new IllegalArgumentException(
          "--kafka-sasl-username/--kafka-sasl-password given without --kafka-sasl-mechanism"
              + " (SPECWATCH_KAFKA_SASL_MECHANISM)");
    }
    put(p, "ssl.truststore.location", truststore);
    put(p, "ssl.truststore.type", truststoreType);
    put(
        p,
        "ssl.truststore.password",
        secret(
            truststorePassword,
            truststorePasswordFile,
            "--kafka-truststore-password",
            "--kafka-truststore-password-file (SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD_FILE)"));
    put(p, "ssl.keystore.location", keystore);
    put(p, "ssl.keystore.type", keystoreType);
    put(
        p,
        "ssl.keystore.password",
        secret(
            keystorePassword,
            keystorePasswordFile,
            "--kafka-keystore-password",
            "--kafka-keystore-password-file (SPECWATCH_KAFKA_KEYSTORE_PASSWORD_FILE)"));
    put(
        p,
        "ssl.key.password",
        secret(
            keyPassword,
            keyPasswordFile,
            "--kafka-key-password",
            "--kafka-key-password-file (SPECWATCH_KAFKA_KEY_PASSWORD_FILE)"));
    String regPassword =
        secret(
            registryPassword,
            registryPasswordFile,
            "--registry-password",
            "--registry-password-file (SPECWATCH_REGISTRY_PASSWORD_FILE)");
    if (registryUser != null) {
      if (regPassword == null) {
        throw new IllegalArgumentException(
            "--registry-user needs --registry-password or --registry-password-file");
      }
      p.put("basic.auth.credentials.source", "USER_INFO");
      p.put("basic.auth.user.info", registryUser + ":" + regPassword);
    } else if (regPassword != null) {
      throw new IllegalArgumentException(
          "--registry-password given without --registry-user (SPECWATCH_REGISTRY_USER)");
    }
    return p;
  }

  /**
   * Checks the merged client settings (file, options, {@code -K}) for combinations that cannot
   * work, naming the setting.
   */
  static void validate(Map<String, String> all) {
    String protocol = all.get("security.protocol");
    if (protocol != null && !PROTOCOLS.contains(protocol.toUpperCase(Locale.ROOT))) {
      throw new IllegalArgumentException(
          "security.protocol (--kafka-security-protocol): unknown "
              + protocol
              + ", expected one of "
              + PROTOCOLS);
    }
    boolean sasl = protocol != null && protocol.toUpperCase(Locale.ROOT).startsWith("SASL_");
    String mechanism = all.get("sasl.mechanism");
    if (sasl
        && mechanism != null
        && LOGIN_MODULES.containsKey(mechanism.toUpperCase(Locale.ROOT))
        && !all.containsKey("sasl.jaas.config")
        && System.getProperty("java.security.auth.login.config") == null) {
      throw new IllegalArgumentException(
          "security.protocol "
              + protocol
              + " with sasl.mechanism "
              + mechanism
              + " needs credentials: --kafka-sasl-mechanism with --kafka-sasl-username and a"
              + " password, or sasl.jaas.config");
    }
    if (all.containsKey("sasl.mechanism") && !sasl) {
      throw new IllegalArgumentException(
          "sasl.mechanism (--kafka-sasl-mechanism) is set but security.protocol is "
              + (protocol == null ? "PLAINTEXT (default)" : protocol)
              + ": use SASL_PLAINTEXT or SASL_SSL");
    }
    for (String store : new String[] {"ssl.truststore", "ssl.keystore"}) {
      String location = all.get(store + ".location");
      if (location != null
          && !"PEM".equalsIgnoreCase(all.get(store + ".type"))
          && !Files.isRegularFile(Path.of(location))) {
        throw new IllegalArgumentException(
            store + ".location (--kafka-" + store.substring(4) + "): no such file: " + location);
      }
    }
  }

  private static String jaas(String module, String user, String password) {
    return module
        + " required username=\""
        + quote(user)
        + "\" password=\""
        + quote(password)
        + "\";";
  }

  private static String quote(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private static void put(Map<String, String> p, String key, Object value) {
    if (value != null) {
      p.put(key, value.toString());
    }
  }

  /** A secret given inline or in a file (trailing newline stripped); not both. */
  private static String secret(String inline, Path file, String inlineName, String fileName) {
    if (inline != null && file != null) {
      throw new IllegalArgumentException(inlineName + " and " + fileName + ": give only one");
    }
    if (file == null) {
      return inline;
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new IllegalArgumentException(fileName + ": cannot read " + file, e);
    }
  }
}
