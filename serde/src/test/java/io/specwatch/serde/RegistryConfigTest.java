package io.specwatch.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class RegistryConfigTest {

  @Test
  void defaultsAndUrlList() {
    RegistryConfig config =
        RegistryConfig.from(
            Map.of(
                "schema.registry.url",
                "http://a:8081/apis/ccompat/v7, http://b:8081",
                "bootstrap.servers",
                "ignored:9092"));
    assertThat(config.urls())
        .containsExactly(URI.create("http://a:8081/apis/ccompat/v7"), URI.create("http://b:8081"));
    assertThat(config.userInfo()).isNull();
    assertThat(config.maxRetries()).isEqualTo(3);
    assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.isMock()).isFalse();
  }

  @Test
  void mockUrlNamesAScope() {
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", "mock://unit"));
    assertThat(config.isMock()).isTrue();
    assertThat(config.mockScope()).isEqualTo("unit");
  }

  @Test
  void missingUrlIsNamed() {
    assertThatThrownBy(() -> RegistryConfig.from(Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.registry.url");
  }

  @Test
  void badSchemeIsNamed() {
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "ftp://x")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.registry.url")
        .hasMessageContaining("scheme");
  }

  @Test
  void userInfoSourceNeedsUserColonPasswordAndNeverShowsIt() {
    Map<String, Object> settings = new HashMap<>();
    settings.put("schema.registry.url", "https://r:8081");
    settings.put("basic.auth.credentials.source", "USER_INFO");
    assertThatThrownBy(() -> RegistryConfig.from(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("basic.auth.user.info");
    settings.put("basic.auth.user.info", "nocolon-s3cret");
    assertThatThrownBy(() -> RegistryConfig.from(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("basic.auth.user.info")
        .hasMessageNotContaining("s3cret");
    settings.put("basic.auth.user.info", "svc:s3cret");
    RegistryConfig config = RegistryConfig.from(settings);
    assertThat(config.userInfo()).isEqualTo("svc:s3cret");
    assertThat(config.toString()).doesNotContain("s3cret").contains("[hidden]");
  }

  @Test
  void urlCredentialsMoveOutOfTheUrl() {
    RegistryConfig config =
        RegistryConfig.from(Map.of("schema.registry.url", "http://svc:pw@r:8081/apis/ccompat/v7"));
    assertThat(config.userInfo()).isEqualTo("svc:pw");
    assertThat(config.urls()).containsExactly(URI.create("http://r:8081/apis/ccompat/v7"));
    assertThat(config.toString()).doesNotContain("pw");
  }

  @Test
  void unsupportedCredentialsSourceIsNamed() {
    assertThatThrownBy(
            () ->
                RegistryConfig.from(
                    Map.of(
                        "schema.registry.url",
                        "http://r",
                        "basic.auth.credentials.source",
                        "SASL_INHERIT")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("basic.auth.credentials.source");
  }

  @Test
  void numbersAreValidated() {
    assertThatThrownBy(
            () ->
                RegistryConfig.from(Map.of("schema.registry.url", "http://r", "max.retries", "x")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("max.retries");
    assertThatThrownBy(
            () ->
                RegistryConfig.from(
                    Map.of("schema.registry.url", "http://r", "http.read.timeout.ms", -1)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("http.read.timeout.ms");
    assertThatThrownBy(
            () ->
                RegistryConfig.from(
                    Map.of(
                        "schema.registry.url",
                        "http://r",
                        "retries.wait.ms",
                        "500",
                        "retries.max.wait.ms",
                        "100")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("retries.max.wait.ms");
  }

  @Test
  void missingTrustStoreFileIsNamed() {
    assertThatThrownBy(
            () ->
                RegistryConfig.from(
                    Map.of(
                        "schema.registry.url",
                        "https://r",
                        "schema.registry.ssl.truststore.location",
                        Path.of("/nonexistent/truststore.p12").toString())))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.registry.ssl.truststore.location");
  }

  @Test
  void serdeSettingsAreValidated() {
    assertThatThrownBy(
            () ->
                SerdeConfig.from(
                    Map.of("schema.registry.url", "mock://x", "auto.register.schemas", "yes"),
                    false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("auto.register.schemas");
    assertThatThrownBy(
            () ->
                SerdeConfig.from(
                    Map.of(
                        "schema.registry.url", "mock://x", "value.subject.name.strategy", "Nope"),
                    false))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("value.subject.name.strategy");
    SerdeConfig defaults = SerdeConfig.from(Map.of("schema.registry.url", "mock://x"), true);
    assertThat(defaults.autoRegister()).isTrue();
    assertThat(defaults.useLatestVersion()).isFalse();
    assertThat(defaults.subjectNameStrategy()).isEqualTo(SubjectNameStrategy.TOPIC_NAME);
  }
}
