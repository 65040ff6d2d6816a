package io.specwatch.charttests;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The checksum/config annotation rolls the pods exactly when their configuration changes. */
class ConfigChecksumTest {
  private static final String F = Chart.FULLNAME;

  private static String checksum(String values) {
    return Chart.render(values)
        .get("Deployment", F + "-sink")
        .at("/spec/template/metadata/annotations/checksum~1config")
        .asText();
  }

  @Test
  void sameValuesGiveTheSameChecksum() {
    assertThat(checksum("")).isEqualTo(checksum(""));
  }

  @Test
  void aConfigMapChangeChangesTheChecksum() {
    assertThat(checksum("kafka:\n  bootstrap: other-kafka:9092\n")).isNotEqualTo(checksum(""));
  }

  @Test
  void aSecretChangeChangesTheChecksum() {
    assertThat(checksum("clickhouse:\n  password: rotated\n")).isNotEqualTo(checksum(""));
  }
}
