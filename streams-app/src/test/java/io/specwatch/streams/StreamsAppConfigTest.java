package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class StreamsAppConfigTest {

  static StreamsAppConfig config(Map<String, String> extra) {
    return new StreamsAppConfig(
        "127.0.0.1:19092",
        "http://127.0.0.1:18081/apis/ccompat/v7",
        "specwatch-streams",
        Path.of("/tmp/state"),
        Duration.ofMinutes(1),
        Duration.ofSeconds(30),
        "in",
        "contexts",
        "out",
        "dlq",
        StaticBaselines.none(),
        Duration.ofHours(1),
        extra);
  }

  @Test
  void pinsTheCriticalKafkaKeys() {
    Properties p = config(Map.of()).kafkaProperties();
    assertThat(p.getProperty(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
        .isEqualTo("exactly_once_v2");
    assertThat(p.getProperty(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG))
        .isEqualTo("true");
    assertThat(p.getProperty(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG))
        .isEqualTo(DeadLetterDeserializationHandler.class.getName());
    assertThat(p.getProperty(StreamsConfig.PRODUCTION_EXCEPTION_HANDLER_CLASS_CONFIG))
        .isEqualTo("org.apache.kafka.streams.errors.DefaultProductionExceptionHandler");
    assertThat(p.getProperty(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG))
        .isEqualTo(DeadLetterProcessingHandler.class.getName());
    assertThat(p.getProperty(DeadLetters.TOPIC_CONFIG)).isEqualTo("dlq");
    assertThat(p.getProperty("schema.registry.url"))
        .isEqualTo("http://127.0.0.1:18081/apis/ccompat/v7");
    assertThat(p.getProperty(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG)).isEqualTo("0");
    assertThat(p.getProperty(StreamsConfig.APPLICATION_ID_CONFIG)).isEqualTo("specwatch-streams");
    assertThat(p.getProperty(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG)).isEqualTo("127.0.0.1:19092");
    assertThat(p.getProperty(StreamsConfig.STATE_DIR_CONFIG)).isEqualTo("/tmp/state");
    assertThat(p.getProperty(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG)).isNull();
    assertThat(p.getProperty(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo("1000");
    assertThat(p.getProperty("producer.batch.size")).isEqualTo("262144");
    assertThat(new StreamsConfig(p).getProducerConfigs("c").get(ProducerConfig.BATCH_SIZE_CONFIG))
        .isEqualTo("262144");
    // the whole set is accepted by Kafka Streams itself
    assertThat(new StreamsConfig(p).getString(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
        .isEqualTo("exactly_once_v2");
  }

  @Test
  void tuningDefaultsGiveWayToValidOverridesAndRejectBadOnes() {
    Properties p =
        config(
                Map.of(
                    "statestore.cache.max.bytes", "10485760",
                    "commit.interval.ms", "200",
                    "producer.batch.size", "16384"))
            .kafkaProperties();
    assertThat(p.getProperty("statestore.cache.max.bytes")).isEqualTo("10485760");
    assertThat(p.getProperty("commit.interval.ms")).isEqualTo("200");
    assertThat(p.getProperty("producer.batch.size")).isEqualTo("16384");
    assertThat(new StreamsConfig(p).getProducerConfigs("c").get(ProducerConfig.BATCH_SIZE_CONFIG))
        .isEqualTo("16384");
    // the unprefixed key reaches the producer too: the default must not shadow it
    Properties plain = config(Map.of("batch.size", "65536")).kafkaProperties();
    assertThat(plain.getProperty("producer.batch.size")).isNull();
    assertThat(
            new StreamsConfig(plain).getProducerConfigs("c").get(ProducerConfig.BATCH_SIZE_CONFIG))
        .isEqualTo("65536");
    assertThatThrownBy(() -> config(Map.of("batch.size", "-1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batch.size must be at least 0");
    assertThatThrownBy(() -> config(Map.of("producer.batch.size", "256k")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("producer.batch.size")
        .hasMessageContaining("256k");
    assertThatThrownBy(() -> config(Map.of("statestore.cache.max.bytes", "100MB")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("statestore.cache.max.bytes")
        .hasMessageContaining("100MB");
    assertThatThrownBy(() -> config(Map.of("commit.interval.ms", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("commit.interval.ms must be at least 1");
  }

  @Test
  void extraPropertiesPassThroughAndSecretsAreMasked() {
    StreamsAppConfig c =
        config(
            Map.of(
                "security.protocol", "SASL_SSL",
                "sasl.jaas.config", "hunter2",
                "basic.auth.user.info", "u:p"));
    assertThat(c.kafkaProperties().getProperty("security.protocol")).isEqualTo("SASL_SSL");
    assertThat(c.serdeConfig())
        .containsEntry("schema.registry.url", "http://127.0.0.1:18081/apis/ccompat/v7")
        .containsEntry("basic.auth.user.info", "u:p");
    assertThat(c.describe()).contains("SASL_SSL").doesNotContain("hunter2").doesNotContain("u:p");
  }

  @Test
  void rejectsInvalidSettingsNamingThem() {
    assertThatThrownBy(
            () ->
                new StreamsAppConfig(
                    "b:1",
                    "http://r",
                    "app",
                    Path.of("s"),
                    Duration.ZERO,
                    Duration.ZERO,
                    "in",
                    "contexts",
                    "out",
                    "dlq",
                    StaticBaselines.none(),
                    Duration.ofHours(1),
                    Map.of()))
        .hasMessageContaining("window");
    assertThatThrownBy(
            () ->
                new StreamsAppConfig(
                    " ",
                    "http://r",
                    "app",
                    Path.of("s"),
                    Duration.ofMinutes(1),
                    Duration.ZERO,
                    "in",
                    "contexts",
                    "out",
                    "dlq",
                    StaticBaselines.none(),
                    Duration.ofHours(1),
                    Map.of()))
        .hasMessageContaining("bootstrap");
    assertThatThrownBy(
            () ->
                new StreamsAppConfig(
                    "b:1",
                    "ftp://r",
                    "app",
                    Path.of("s"),
                    Duration.ofMinutes(1),
                    Duration.ZERO,
                    "in",
                    "contexts",
                    "out",
                    "dlq",
                    StaticBaselines.none(),
                    Duration.ofHours(1),
                    Map.of()))
        .hasMessageContaining("registry-url");
    assertThatThrownBy(
            () ->
                new StreamsAppConfig(
                    "b:1",
                    "http://r",
                    "app",
                    Path.of("s"),
                    Duration.ofMinutes(1),
                    Duration.ofSeconds(-1),
                    "in",
                    "contexts",
                    "out",
                    "dlq",
                    StaticBaselines.none(),
                    Duration.ofHours(1),
                    Map.of()))
        .hasMessageContaining("grace");
    assertThatThrownBy(
            () ->
                new StreamsAppConfig(
                    "b:1",
                    "http://r",
                    "app",
                    Path.of("s"),
                    Duration.ofMinutes(1),
                    Duration.ZERO,
                    "in",
                    "contexts",
                    "same",
                    "same",
                    StaticBaselines.none(),
                    Duration.ofHours(1),
                    Map.of()))
        .hasMessageContaining("must differ");
    assertThatThrownBy(
            () ->
                new StreamsAppConfig(
                    "b:1",
                    "http://r",
                    "app",
                    Path.of("s"),
                    Duration.ofMinutes(1),
                    Duration.ZERO,
                    "in",
                    "contexts",
                    "out",
                    "dlq",
                    StaticBaselines.none(),
                    Duration.ofSeconds(-1),
                    Map.of()))
        .hasMessageContaining("baseline-max-age");
  }

  @Test
  void cliAcceptsBothDurationFormsAndSharedKafkaOptions() throws Exception {
    Main.Run run = new Main.Run();
    new CommandLine(run)
        .parseArgs(
            "--window", "PT2M", "--grace", "45s", "--exit-when-idle", "500ms", "-K", "linger.ms=5");
    assertThat(run.window).isEqualTo(Duration.ofMinutes(2));
    assertThat(run.grace).isEqualTo(Duration.ofSeconds(45));
    assertThat(run.exitWhenIdle).isEqualTo(Duration.ofMillis(500));
    assertThat(run.config().extraKafkaProperties()).containsEntry("linger.ms", "5");
    if (System.getenv("SPECWATCH_HEALTH_PORT") == null) {
      assertThat(run.health.port()).as("health port off by default on the CLI").isEqualTo(-1);
    }
    Main.Run baselines = new Main.Run();
    new CommandLine(baselines)
        .parseArgs(
            "--static-baseline",
            "kimi|8xH100|8|1=12.2,kimi|8xH100|8|*=14",
            "--static-baseline",
            "qwen|2xH100|2|2-4=5",
            "--baseline-max-age",
            "30m",
            "--run-context-topic",
            "ctx",
            "--dead-letter-topic",
            "dlq");
    StreamsAppConfig c = baselines.config();
    assertThat(c.staticBaselines().stepMs())
        .containsEntry("kimi|8xH100|8|1", 12.2)
        .containsEntry("kimi|8xH100|8|*", 14.0)
        .containsEntry("qwen|2xH100|2|2-4", 5.0);
    assertThat(c.baselineMaxAge()).isEqualTo(Duration.ofMinutes(30));
    assertThat(c.runContextTopic()).isEqualTo("ctx");
    assertThat(c.kafkaProperties().getProperty(DeadLetters.TOPIC_CONFIG)).isEqualTo("dlq");
    Main.Run bad = new Main.Run();
    new CommandLine(bad).parseArgs("--static-baseline", "kimi|8xH100|8|1=fast");
    assertThatThrownBy(bad::config).hasMessageStartingWith("static-baseline");
    Main.Run defaults = new Main.Run();
    new CommandLine(defaults).parseArgs();
    if (System.getenv("SPECWATCH_STATIC_BASELINES") == null) {
      assertThat(defaults.config().staticBaselines().stepMs()).isEmpty();
    }
    assertThatThrownBy(() -> new CommandLine(new Main.Run()).parseArgs("--grace", "soon"))
        .hasMessageContaining("--grace")
        .hasMessageContaining("'soon'");
  }

  /** {@link #config} with {@code window}, {@code grace} and {@code dedup}. */
  private static StreamsAppConfig dedup(Duration window, Duration grace, Duration dedup) {
    return new StreamsAppConfig(
        "b:1",
        "http://r",
        "app",
        Path.of("s"),
        window,
        grace,
        "in",
        "contexts",
        "out",
        "dlq",
        StaticBaselines.none(),
        Duration.ofHours(1),
        Map.of(),
        "alerts",
        io.specwatch.streams.alert.AlertConfig.defaults(),
        dedup,
        null);
  }

  @Test
  void dedupRetentionDefaultsToTenMinutesOrWindowPlusGraceAndMustCoverThem() {
    assertThat(config(Map.of()).dedupRetention()).isEqualTo(Duration.ofMinutes(10));
    assertThat(config(Map.of()).topologyInputs().dedup()).isTrue();
    assertThat(dedup(Duration.ofMinutes(15), Duration.ofMinutes(1), null).dedupRetention())
        .isEqualTo(Duration.ofMinutes(16));
    assertThat(dedup(Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ZERO).dedupRetention())
        .isZero();
    assertThat(
            dedup(Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ZERO)
                .topologyInputs()
                .dedup())
        .isFalse();
    assertThat(
            dedup(Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ofSeconds(90))
                .dedupRetention())
        .isEqualTo(Duration.ofSeconds(90));
    assertThatThrownBy(
            () -> dedup(Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ofSeconds(89)))
        .hasMessageStartingWith("dedup-retention")
        .hasMessageContaining("window + grace (PT1M30S)");
    assertThatThrownBy(
            () -> dedup(Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ofSeconds(-1)))
        .hasMessageStartingWith("dedup-retention");
    Main.Run cli = new Main.Run();
    new CommandLine(cli).parseArgs("--dedup-retention", "0s");
    assertThat(cli.config().dedupRetention()).isZero();
    Main.Run cliDefault = new Main.Run();
    new CommandLine(cliDefault).parseArgs("--window", "20m");
    if (System.getenv("SPECWATCH_DEDUP_RETENTION") == null) {
      assertThat(cliDefault.config().dedupRetention())
          .as("no option: the default follows the window")
          .isEqualTo(Duration.ofMinutes(20).plusSeconds(30));
    }
    assertThat(config(Map.of()).describe()).contains("dedupRetention=PT10M");
  }

  @Test
  void maxEventAheadDefaultsToFifteenMinutesAndRejectsNegatives() {
    assertThat(config(Map.of()).maxEventAhead()).isEqualTo(Duration.ofMinutes(15));
    assertThat(config(Map.of()).topologyInputs().maxEventAhead())
        .isEqualTo(TopologyInputs.DEFAULT_MAX_EVENT_AHEAD);
    assertThat(config(Map.of()).describe()).contains("maxEventAhead=PT15M");
    Main.Run cli = new Main.Run();
    new CommandLine(cli).parseArgs("--max-event-ahead", "2h");
    assertThat(cli.config().maxEventAhead()).isEqualTo(Duration.ofHours(2));
    assertThat(cli.config().topologyInputs().maxEventAhead()).isEqualTo(Duration.ofHours(2));
    Main.Run off = new Main.Run();
    new CommandLine(off).parseArgs("--max-event-ahead", "0s");
    assertThat(off.config().maxEventAhead()).isZero();
    Main.Run negative = new Main.Run();
    new CommandLine(negative).parseArgs("--max-event-ahead", "-1m");
    assertThatThrownBy(negative::config)
        .hasMessageStartingWith("max-event-ahead")
        .hasMessageContaining("0 (off) or positive");
  }

  @Test
  void cliAlertOptionsReachTheConfigAndBadOnesFailNamingTheOption() {
    Main.Run run = new Main.Run();
    new CommandLine(run)
        .parseArgs(
            "--alert-raise-windows", "4",
            "--alert-no-data-silence", "10m",
            "--alert-regression-confidence", "0.999",
            "--alerts-topic", "my-alerts",
            "--run-context-topic", "my-contexts");
    StreamsAppConfig config = run.config();
    assertThat(config.alerts().raiseWindows()).isEqualTo(4);
    assertThat(config.alerts().noDataSilence()).isEqualTo(Duration.ofMinutes(10));
    assertThat(config.alerts().confidence()).isEqualTo(0.999);
    assertThat(config.alerts().clearWindows()).as("default").isEqualTo(3);
    assertThat(config.alertsTopic()).isEqualTo("my-alerts");
    assertThat(config.runContextTopic()).isEqualTo("my-contexts");
    assertThat(config.topologyInputs().alerts()).isEqualTo(config.alerts());

    Main.Run bad = new Main.Run();
    new CommandLine(bad).parseArgs("--alert-regression-recent-windows", "1");
    assertThatThrownBy(bad::config).hasMessageStartingWith("alert-regression-recent-windows");

    Main.Run clash = new Main.Run();
    new CommandLine(clash).parseArgs("--alerts-topic", "specwatch.window-results.v1");
    assertThatThrownBy(clash::config)
        .hasMessage(
            "window-results-topic and alerts-topic must differ, both are specwatch.window-results.v1");
  }
}
