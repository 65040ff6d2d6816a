package io.specwatch.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.specwatch.sink.clickhouse.ClickHouseConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SinkConfigTest {

  private static final ClickHouseConfig CH =
      ClickHouseConfig.of("http://127.0.0.1:18123", "default", "", "specwatch");

  private static SinkConfig config(int batchSize, Duration flush, Map<String, String> overrides) {
    return new SinkConfig(
        "127.0.0.1:19092",
        "http://127.0.0.1:18081/apis/ccompat/v7",
        SinkConfig.DEFAULT_TOPIC,
        SinkConfig.DEFAULT_GROUP_ID,
        CH,
        batchSize,
        flush,
        Optional.empty(),
        Backoff.DEFAULT,
        overrides);
  }

  @Test
  void pinsTheGuaranteesEvenAgainstOverrides() {
    Properties p =
        config(
                10_000,
                Duration.ofSeconds(1),
                Map.of(
                    "enable.auto.commit", "true",
                    "isolation.level", "read_uncommitted",
                    "security.protocol", "SASL_SSL"))
            .consumerProperties();
    assertThat(p.getProperty("isolation.level")).isEqualTo("read_committed");
    assertThat(p.getProperty("enable.auto.commit")).isEqualTo("false");
    assertThat(p.getProperty("auto.offset.reset")).isEqualTo("earliest");
    assertThat(p.getProperty("group.id")).isEqualTo(SinkConfig.DEFAULT_GROUP_ID);
    assertThat(p.getProperty("security.protocol")).isEqualTo("SASL_SSL");
    assertThat(p.getProperty("key.deserializer"))
        .isEqualTo("org.apache.kafka.common.serialization.StringDeserializer");
  }

  @Test
  void validatesAndNamesTheSetting() {
    assertThatThrownBy(() -> config(0, Duration.ofSeconds(1), Map.of()))
        .hasMessageContaining("--batch-size");
    assertThatThrownBy(() -> config(10, Duration.ZERO, Map.of()))
        .hasMessageContaining("--flush-interval");
    assertThatThrownBy(
            () ->
                new SinkConfig(
                    " ", "http://r", "t", "g", CH, 1, Duration.ofSeconds(1), null, null, null))
        .hasMessageContaining("--bootstrap");
    assertThatThrownBy(
            () ->
                new SinkConfig(
                    "b",
                    "http://r",
                    "t",
                    "g",
                    CH,
                    1,
                    Duration.ofSeconds(1),
                    Optional.of(Duration.ofSeconds(-1)),
                    null,
                    null))
        .hasMessageContaining("--exit-when-idle");
  }

  @Test
  void tablesAndTopics() {
    SinkConfig all =
        new SinkConfig(
            "b",
            "http://r",
            SinkConfig.defaultTopics(),
            "specwatch.dead-letter.v1",
            "g",
            CH,
            10,
            Duration.ofSeconds(1),
            Optional.empty(),
            null,
            null,
            null);
    assertThat(all.topics())
        .hasSize(5)
        .containsEntry(SinkTable.DECODE_EVENTS, "specwatch.decode-events.v1")
        .containsEntry(SinkTable.RUN_CONTEXTS, "specwatch.run-context.v1");
    assertThat(all.insertFormat()).isEqualTo(InsertFormat.ROW_BINARY);
    assertThat(all.consumerProperties().getProperty("allow.auto.create.topics")).isEqualTo("false");
    Map<SinkTable, String> same = Map.of(SinkTable.ALERTS, "t", SinkTable.DECODE_EVENTS, "t");
    assertThatThrownBy(
            () ->
                new SinkConfig(
                    "b",
                    "http://r",
                    same,
                    "dlq",
                    "g",
                    CH,
                    10,
                    Duration.ofSeconds(1),
                    null,
                    null,
                    null,
                    null))
        .hasMessageContaining("is already the topic of");
    assertThatThrownBy(
            () ->
                new SinkConfig(
                    "b",
                    "http://r",
                    Map.of(SinkTable.ALERTS, "t"),
                    "t",
                    "g",
                    CH,
                    10,
                    Duration.ofSeconds(1),
                    null,
                    null,
                    null,
                    null))
        .hasMessageContaining("--dead-letter-topic");
    assertThatThrownBy(() -> SinkTable.parse("windows")).hasMessageContaining("--tables");
    assertThat(SinkTable.parse(" decode_events ")).isEqualTo(SinkTable.DECODE_EVENTS);
    assertThatThrownBy(() -> InsertFormat.parse("csv")).hasMessageContaining("--insert-format");
  }

  @Test
  void clickHouseSettingsAreValidated() {
    assertThatThrownBy(() -> ClickHouseConfig.of("", "default", "", "specwatch"))
        .hasMessageContaining("--clickhouse-url");
    assertThatThrownBy(() -> ClickHouseConfig.of("tcp://h:9000", "default", "", "specwatch"))
        .hasMessageContaining("http(s)");
    assertThatThrownBy(() -> ClickHouseConfig.of("http://h:8123", "default", "", "bad-name; DROP"))
        .hasMessageContaining("--database");
    assertThat(ClickHouseConfig.of("http://h:8123/", "u", "secret", "db").toString())
        .contains("password=[hidden]")
        .doesNotContain("secret");
    assertThat(ClickHouseConfig.of("https://u:urlpw@h:8443/", "u", "", "db").toString())
        .contains("https://[hidden]@h:8443")
        .doesNotContain("urlpw");
    assertThat(ClickHouseConfig.of("http://h:8123/", "u", null, "db").endpoint())
        .isEqualTo("http://h:8123");
  }

  @Test
  void backoffDoublesAndIsCapped() {
    Backoff b = new Backoff(Duration.ofMillis(100), Duration.ofMillis(500), 5);
    assertThat(b.delay(1)).isEqualTo(Duration.ofMillis(100));
    assertThat(b.delay(2)).isEqualTo(Duration.ofMillis(200));
    assertThat(b.delay(3)).isEqualTo(Duration.ofMillis(400));
    assertThat(b.delay(4)).isEqualTo(Duration.ofMillis(500));
    assertThat(b.delay(40)).isEqualTo(Duration.ofMillis(500));
    assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 3))
        .hasMessageContaining("--retry-max");
  }
}
