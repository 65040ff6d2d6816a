package io.specwatch.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
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
    assertThat(p.getProperty("__emit.interval.ms.kstreams.windowed.aggregation__")).isEqualTo("0");
    // the whole set is accepted by Kafka Streams itself
    assertThat(new StreamsConfig(p).getString(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
        .isEqualTo("exactly_once_v2");
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
    assertThatThrownBy(() -> new CommandLine(new Main.Run()).parseArgs("--grace", "soon"))
        .hasMessageContaining("--grace")
        .hasMessageContaining("'soon'");
  }
}
