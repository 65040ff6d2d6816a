package io.specwatch.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerImagesTest {

  @Test
  void defaultsToThePinnedOfficialImages() {
    ContainerImages images = ContainerImages.fromEnv(Map.of());

    assertThat(images.kafka()).isEqualTo("apache/kafka:4.1.0");
    assertThat(images.clickhouse()).isEqualTo("clickhouse/clickhouse-server:25.8");
    assertThat(images.registry()).isEqualTo("apicurio/apicurio-registry:3.0.9");
  }

  @Test
  void localImagesStandInForTheOfficialOnes() {
    ContainerImages images =
        ContainerImages.fromEnv(
            Map.of(
                "SPECWATCH_KAFKA_IMAGE", "specwatch/kafka:4.4.0-local",
                "SPECWATCH_CLICKHOUSE_IMAGE", "specwatch/clickhouse:18.16-local",
                "SPECWATCH_REGISTRY_IMAGE", "specwatch/apicurio:3.0.9-local"));

    assertThat(images.kafkaImage().asCanonicalNameString())
        .isEqualTo("specwatch/kafka:4.4.0-local");
    assertThat(images.kafkaImage().isCompatibleWith(ContainerImagesTest.parse("apache/kafka")))
        .isTrue();
    assertThat(
            images
                .clickhouseImage()
                .isCompatibleWith(ContainerImagesTest.parse("clickhouse/clickhouse-server")))
        .isTrue();
    assertThat(images.registry()).isEqualTo("specwatch/apicurio:3.0.9-local");
  }

  @Test
  void anEmptyVariableMeansTheDefault() {
    assertThat(ContainerImages.fromEnv(Map.of("SPECWATCH_KAFKA_IMAGE", "")).kafka())
        .isEqualTo(ContainerImages.OFFICIAL_KAFKA);
  }

  @Test
  void rejectsAnInvalidImageNamingTheSetting() {
    assertThatThrownBy(
            () -> ContainerImages.fromEnv(Map.of("SPECWATCH_CLICKHOUSE_IMAGE", "not an image")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("SPECWATCH_CLICKHOUSE_IMAGE");
    assertThatThrownBy(() -> new ContainerImages("apache/kafka:4.1.0", " ", "x:1"))
        .hasMessageContaining("SPECWATCH_CLICKHOUSE_IMAGE");
  }

  private static org.testcontainers.utility.DockerImageName parse(String name) {
    return org.testcontainers.utility.DockerImageName.parse(name);
  }
}
