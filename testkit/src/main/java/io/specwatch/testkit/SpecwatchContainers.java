package io.specwatch.testkit;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.clickhouse.ClickHouseContainer;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.MountableFile;

/**
 * One shared Kafka broker, schema registry and ClickHouse server per test JVM, each started on
 * first use (thread-safe) and stopped by a shutdown hook (Ryuk is disabled where images cannot be
 * pulled). Tests isolate themselves with {@link #uniqueName(String)} topics and databases.
 *
 * <p>Images come from {@code SPECWATCH_*_IMAGE} (see {@link ContainerImages}). Without a Docker
 * engine every accessor throws with a message telling to run {@code ./specwatch test}.
 */
public final class SpecwatchContainers {

  private static final Logger LOG = LoggerFactory.getLogger(SpecwatchContainers.class);

  /** Apicurio's HTTP port: REST APIs and, with the management interface off, /health. */
  static final int REGISTRY_PORT = 8080;

  static final String CCOMPAT_PATH = "/apis/ccompat/v7";

  private static final Deque<GenericContainer<?>> STARTED = new ArrayDeque<>();
  private static ContainerImages images;
  private static KafkaContainer kafka;
  private static GenericContainer<?> registry;
  private static ClickHouseContainer clickhouse;
  private static String clickhouseVersion;
  private static boolean hookInstalled;

  private SpecwatchContainers() {}

  /** The images in use (from the environment, official defaults). */
  public static synchronized ContainerImages images() {
    if (images == null) {
      images = ContainerImages.fromEnv(System.getenv());
    }
    return images;
  }

  /** The shared single-node KRaft broker, configured for exactly-once on one node. */
  public static synchronized KafkaContainer kafka() {
    if (kafka == null) {
      kafka = start("kafka", newKafkaContainer());
    }
    return kafka;
  }

  /**
   * A new, not yet started broker configured like the shared one, for a test that must own its
   * broker (stop and restart it, for example). The caller starts and stops it.
   */
  public static KafkaContainer newKafkaContainer() {
    return new KafkaContainer(images().kafkaImage())
        .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
        .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
        .withEnv("KAFKA_TRANSACTION_STATE_LOG_NUM_PARTITIONS", "1")
        .withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
        .withEnv("KAFKA_DEFAULT_REPLICATION_FACTOR", "1")
        .withEnv("KAFKA_MIN_INSYNC_REPLICAS", "1")
        .withEnv("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1")
        .withEnv("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", "1")
        .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
        // time retention applied within a second or two instead of every 5 minutes (delete topics:
        // the retention check) or 15 seconds (compact,delete topics such as window-store
        // changelogs: the idle log cleaner): a topic that would lose records stamped with old event
        // times (replayed logs, the tests' 2026-03 data) loses them within a test, not at random in
        // one CI run out of several
        .withEnv("KAFKA_LOG_INITIAL_TASK_DELAY_MS", "1000")
        .withEnv("KAFKA_LOG_RETENTION_CHECK_INTERVAL_MS", "2000")
        .withEnv("KAFKA_LOG_CLEANER_BACKOFF_MS", "1000")
        .withEnv("KAFKA_HEAP_OPTS", "-Xmx512m -Xms128m")
        .withStartupTimeout(Duration.ofMinutes(3));
  }

  /** Where {@link #withSaslSsl} puts the broker's key and trust stores in the container. */
  public static final String BROKER_TLS_DIR = "/etc/kafka/tls";

  /**
   * Makes the mapped client listener of a not yet started broker (named PLAINTEXT by the container)
   * speak SASL_SSL with SCRAM-SHA-512 and require a client certificate (mutual TLS), with the
   * broker stores of {@code tls}. The internal BROKER listener stays plain, for inter-broker
   * traffic and the admin CLI inside the container ({@code localhost:9093}); SCRAM users are
   * created there with {@code kafka-configs}' {@code ConfigCommand}.
   */
  public static KafkaContainer withSaslSsl(KafkaContainer kafka, TestTls.Material tls) {
    String ks = BROKER_TLS_DIR + "/broker.keystore.p12";
    String ts = BROKER_TLS_DIR + "/broker.truststore.p12";
    return kafka
        .withCopyFileToContainer(MountableFile.forHostPath(tls.brokerKeystore(), 0644), ks)
        .withCopyFileToContainer(MountableFile.forHostPath(tls.brokerTruststore(), 0644), ts)
        .withEnv(
            "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP",
            "BROKER:PLAINTEXT,PLAINTEXT:SASL_SSL,CONTROLLER:PLAINTEXT")
        .withEnv("KAFKA_SASL_ENABLED_MECHANISMS", "SCRAM-SHA-512")
        .withEnv(
            "KAFKA_LISTENER_NAME_PLAINTEXT_SCRAM___SHA___512_SASL_JAAS_CONFIG",
            "org.apache.kafka.common.security.scram.ScramLoginModule required;")
        .withEnv("KAFKA_LISTENER_NAME_PLAINTEXT_SSL_KEYSTORE_LOCATION", ks)
        .withEnv("KAFKA_LISTENER_NAME_PLAINTEXT_SSL_KEYSTORE_TYPE", "PKCS12")
        .withEnv(
            "KAFKA_LISTENER_NAME_PLAINTEXT_SSL_KEYSTORE_PASSWORD", tls.brokerKeystorePassword())
        .withEnv("KAFKA_LISTENER_NAME_PLAINTEXT_SSL_KEY_PASSWORD", tls.brokerKeystorePassword())
        .withEnv("KAFKA_LISTENER_NAME_PLAINTEXT_SSL_TRUSTSTORE_LOCATION", ts)
        .withEnv("KAFKA_LISTENER_NAME_PLAINTEXT_SSL_TRUSTSTORE_TYPE", "PKCS12")
        .withEnv(
            "KAFKA_LISTENER_NAME_PLAINTEXT_SSL_TRUSTSTORE_PASSWORD", tls.brokerTruststorePassword())
        .withEnv("KAFKA_LISTENER_NAME_PLAINTEXT_SSL_CLIENT_AUTH", "required");
  }

  /** {@code host:port} for {@code bootstrap.servers}. */
  public static String kafkaBootstrap() {
    return kafka().getBootstrapServers();
  }

  /** The shared Apicurio registry, global compatibility BACKWARD, in-memory storage. */
  public static synchronized GenericContainer<?> registry() {
    if (registry == null) {
      GenericContainer<?> container =
          new GenericContainer<>(images().registryImage())
              .withExposedPorts(REGISTRY_PORT)
              .withEnv("APICURIO_RULES_GLOBAL_COMPATIBILITY", "BACKWARD")
              .withEnv("QUARKUS_MANAGEMENT_ENABLED", "false")
              .waitingFor(
                  Wait.forHttp("/health/ready")
                      .forPort(REGISTRY_PORT)
                      .forStatusCode(200)
                      .withStartupTimeout(Duration.ofMinutes(3)));
      registry = start("registry", container);
    }
    return registry;
  }

  /** Confluent-compatible registry base URL, e.g. {@code http://localhost:PORT/apis/ccompat/v7}. */
  public static String registryUrl() {
    GenericContainer<?> c = registry();
    return "http://" + c.getHost() + ":" + c.getMappedPort(REGISTRY_PORT) + CCOMPAT_PATH;
  }

  /**
   * The shared ClickHouse server. User {@code default} with an empty password (like the local
   * services of scripts/services.sh), so {@link #clickhouseHttpUrl()} needs no credentials.
   */
  public static synchronized ClickHouseContainer clickhouse() {
    if (clickhouse == null) {
      ClickHouseContainer container =
          new ClickHouseContainer(images().clickhouseImage())
              .withUsername("default")
              .withPassword("")
              // official image: keep the stock network-wide default user instead of restricting it
              .withEnv("CLICKHOUSE_SKIP_USER_SETUP", "1")
              .withStartupTimeout(Duration.ofMinutes(2));
      clickhouse = start("clickhouse", container);
    }
    return clickhouse;
  }

  /** {@code http://host:port} of ClickHouse's HTTP interface (user default, no password). */
  public static String clickhouseHttpUrl() {
    return clickhouse().getHttpUrl();
  }

  /** The server's {@code SELECT version()}, e.g. 18.16.1 (local image) or 25.8.x (official). */
  public static synchronized String clickhouseVersion() {
    if (clickhouseVersion == null) {
      clickhouseVersion = ClickHouseHttp.query(clickhouseHttpUrl(), "SELECT version()").strip();
    }
    return clickhouseVersion;
  }

  /** {@code prefix_<12 hex digits>}: see {@link UniqueNames#uniqueName(String)}. */
  public static String uniqueName(String prefix) {
    return UniqueNames.uniqueName(prefix);
  }

  private static <C extends GenericContainer<?>> C start(String name, C container) {
    DockerEnvironment.requireDocker(System.getenv());
    installShutdownHook();
    long t0 = System.nanoTime();
    LOG.info("starting shared {} container from {}", name, container.getDockerImageName());
    try {
      container.start();
    } catch (RuntimeException e) {
      container.stop();
      throw new IllegalStateException(
          "shared "
              + name
              + " container from "
              + container.getDockerImageName()
              + " failed to start. "
              + DockerEnvironment.HOW_TO,
          e);
    }
    STARTED.push(container);
    LOG.info(
        "shared {} container ready in {} ms",
        name,
        Duration.ofNanos(System.nanoTime() - t0).toMillis());
    return container;
  }

  private static void installShutdownHook() {
    if (!hookInstalled) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(SpecwatchContainers::stopAll, "specwatch-containers-shutdown"));
      hookInstalled = true;
    }
  }

  private static synchronized void stopAll() {
    while (!STARTED.isEmpty()) {
      GenericContainer<?> c = STARTED.pop();
      try {
        c.stop();
      } catch (RuntimeException e) {
        LOG.warn("could not stop container {}", c.getContainerId(), e);
      }
    }
  }
}
