package io.specwatch.charttests;

import static io.specwatch.charttests.Manifests.container;
import static io.specwatch.charttests.Manifests.env;
import static io.specwatch.charttests.Manifests.mount;
import static io.specwatch.charttests.Manifests.volume;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SASL/TLS client properties and ClickHouse credentials: inline values or existing Secrets. */
class KafkaAndClickHouseSecretsTest {
  private static final String F = Chart.FULLNAME;
  private static final List<String[]> APPS =
      List.of(
          new String[] {"DaemonSet", F + "-shipper", "shipper"},
          new String[] {"StatefulSet", F + "-streams", "streams"},
          new String[] {"Deployment", F + "-sink", "sink"});

  @Test
  void inlineSaslPropertiesBecomeASecretFileMountedIntoEveryApp() {
    Manifests m = Chart.render(ValuesScenarios.SASL_INLINE);
    JsonNode secret = m.get("Secret", F + "-kafka-client");
    String properties = secret.at("/stringData/client.properties").asText();
    assertThat(properties.lines().map(String::strip))
        .contains(
            "security.protocol=SASL_SSL",
            "sasl.mechanism=SCRAM-SHA-512",
            "ssl.truststore.location=/etc/specwatch/kafka-tls/truststore.p12")
        .anyMatch(
            l ->
                l.startsWith("sasl.jaas.config=org.apache.kafka.common.security.scram")
                    && l.endsWith("password=\"s3cret\";"));
    assertThat(m.get("ConfigMap", F + "-common").at("/data/SPECWATCH_BOOTSTRAP").asText())
        .isEqualTo("kafka-0.kafka:9093");
    for (String[] app : APPS) {
      JsonNode workload = m.get(app[0], app[1]);
      JsonNode c = container(workload, app[2]);
      assertThat(env(c, "SPECWATCH_KAFKA_PROPERTIES_FILE").orElseThrow().path("value").asText())
          .isEqualTo("/etc/specwatch/kafka/client.properties");
      JsonNode kafkaMount = mount(c, "kafka-client").orElseThrow();
      assertThat(kafkaMount.path("mountPath").asText()).isEqualTo("/etc/specwatch/kafka");
      assertThat(kafkaMount.path("readOnly").asBoolean()).isTrue();
      assertThat(volume(workload, "kafka-client").orElseThrow().at("/secret/secretName").asText())
          .isEqualTo(F + "-kafka-client");
      assertThat(mount(c, "kafka-tls").orElseThrow().path("readOnly").asBoolean()).isTrue();
      assertThat(volume(workload, "kafka-tls").orElseThrow().at("/secret/secretName").asText())
          .isEqualTo("kafka-ca");
      // nothing secret leaks into ConfigMaps or args
      assertThat(c.path("args").toString()).doesNotContain("s3cret");
    }
    for (JsonNode cm : m.ofKind("ConfigMap")) {
      assertThat(cm.toString()).doesNotContain("s3cret").doesNotContain("ch-pass");
    }
    assertThat(m.get("Secret", F + "-clickhouse").at("/stringData/password").asText())
        .isEqualTo("ch-pass");
  }

  @Test
  void existingSecretsAreReferencedAndNoChartSecretIsRendered() {
    Manifests m = Chart.render(ValuesScenarios.EXISTING_SECRETS);
    assertThat(m.ofKind("Secret")).isEmpty();
    for (String[] app : APPS) {
      JsonNode workload = m.get(app[0], app[1]);
      JsonNode c = container(workload, app[2]);
      assertThat(env(c, "SPECWATCH_KAFKA_PROPERTIES_FILE").orElseThrow().path("value").asText())
          .isEqualTo("/etc/specwatch/kafka/kafka.properties");
      assertThat(volume(workload, "kafka-client").orElseThrow().at("/secret/secretName").asText())
          .isEqualTo("kafka-client-props");
      assertThat(mount(c, "kafka-client").orElseThrow().path("readOnly").asBoolean()).isTrue();
    }
    JsonNode sink = container(m.get("Deployment", F + "-sink"), "sink");
    Manifests withHooks = Chart.renderWithHooksVisible(ValuesScenarios.EXISTING_SECRETS);
    assertThat(withHooks.ofKind("Secret")).as("no hook copy of an existing Secret").isEmpty();
    JsonNode migrate = container(withHooks.get("Job", F + "-migrations"), "migrate");
    for (JsonNode c : List.of(sink, migrate)) {
      JsonNode user = env(c, "SPECWATCH_CLICKHOUSE_USER").orElseThrow();
      assertThat(user.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo("clickhouse-creds");
      assertThat(user.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("username");
      JsonNode password = env(c, "SPECWATCH_CLICKHOUSE_PASSWORD").orElseThrow();
      assertThat(password.at("/valueFrom/secretKeyRef/name").asText())
          .isEqualTo("clickhouse-creds");
      assertThat(password.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("pw");
    }
  }
}
