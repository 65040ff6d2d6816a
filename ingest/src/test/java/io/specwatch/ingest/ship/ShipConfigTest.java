package io.specwatch.ingest.ship;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.ingest.normalise.NormaliseConfig;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ShipConfigTest {

  private static ShipConfig config(String bootstrap, Map<String, String> overrides) {
    return new ShipConfig(
        bootstrap,
        "http://r/apis/ccompat/v7",
        "specwatch.decode-events.v1",
        "specwatch.dead-letter.v1",
        "dep",
        "gpu-1",
        NormaliseConfig.defaults(),
        overrides);
  }

  @Test
  void producerIsIdempotentWithAcksAllEvenWhenOverridden() {
    Properties p =
        config("k:9092", Map.of("acks", "1", "enable.idempotence", "false", "linger.ms", "5"))
            .producerProperties();
    assertThat(p)
        .containsEntry("bootstrap.servers", "k:9092")
        .containsEntry("acks", "all")
        .containsEntry("enable.idempotence", "true")
        .containsEntry("linger.ms", "5");
  }

  @Test
  void compressesWithLz4UnlessOverridden() {
    assertThat(config("k:9092", Map.of()).producerProperties())
        .containsEntry("compression.type", "lz4");
    assertThat(config("k:9092", Map.of("compression.type", "none")).producerProperties())
        .containsEntry("compression.type", "none");
  }

  @Test
  void aProducerSettingKafkaRejectsStopsTheStartNamingIt() {
    assertThatThrownBy(() -> config("k:9092", Map.of("compression.type", "lz5")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("producer-property")
        .hasMessageContaining("compression.type")
        .hasMessageContaining("lz5");
    assertThatThrownBy(() -> config("k:9092", Map.of("linger.ms", "soon")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("linger.ms");
    // settings the producer does not know (registry auth, consumer keys for replays) pass
    assertThat(
            config("k:9092", Map.of("basic.auth.user.info", "u:p", "auto.offset.reset", "earliest"))
                .producerProperties())
        .containsEntry("basic.auth.user.info", "u:p");
  }

  @Test
  void missingBootstrapNamesTheSetting() {
    assertThatThrownBy(() -> config("", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bootstrap");
  }

  @Test
  void toStringMasksOverrideValues() {
    assertThat(config("k:9092", Map.of("sasl.jaas.config", "secret")).toString())
        .contains("sasl.jaas.config")
        .doesNotContain("secret");
  }

  private static ShipConfig withMaxLine(int maxLineBytes, Map<String, String> overrides) {
    return new ShipConfig(
        "k:9092",
        "http://r/apis/ccompat/v7",
        "specwatch.decode-events.v1",
        "specwatch.dead-letter.v1",
        "dep",
        "gpu-1",
        NormaliseConfig.defaults(),
        overrides,
        "specwatch.request-acceptance.v1",
        io.specwatch.serde.Topics.RUN_CONTEXT,
        io.specwatch.ingest.context.RunContextSources.NONE,
        maxLineBytes);
  }

  @Test
  void maxLineBytesDefaultsTo256KibAndBatchesAreLarge() {
    ShipConfig c = config("k:9092", Map.of());
    assertThat(c.maxLineBytes()).isEqualTo(SourceLine.DEFAULT_MAX_LINE_BYTES).isEqualTo(262144);
    assertThat(c.producerProperties()).containsEntry("batch.size", "1048576");
  }

  @Test
  void maxLineBytesMustLeaveRoomForTheDeadLetterInOneRecord() {
    assertThatThrownBy(() -> withMaxLine(1024 * 1024, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max-line-bytes")
        .hasMessageContaining("max.request.size (1048576)");
    assertThatThrownBy(() -> withMaxLine(0, Map.of())).hasMessageContaining("max-line-bytes");
    assertThat(withMaxLine(1024 * 1024, Map.of("max.request.size", "4194304")).maxLineBytes())
        .isEqualTo(1024 * 1024);
    assertThatThrownBy(() -> withMaxLine(1000, Map.of("max.request.size", "big")))
        .hasMessageContaining("max.request.size");
  }
}
