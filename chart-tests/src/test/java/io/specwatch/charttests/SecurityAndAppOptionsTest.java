package io.specwatch.charttests;

import static io.specwatch.charttests.Manifests.container;
import static io.specwatch.charttests.Manifests.env;
import static io.specwatch.charttests.Manifests.mount;
import static io.specwatch.charttests.Manifests.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dedicated security settings (SASL, TLS, registry auth: passwords only as files of mounted
 * Secrets) reach every workload; the newer app options (run context, static baselines, baseline
 * age, run-context and dead-letter topics, sink tables) become the env vars the apps read; the sink
 * defaults are the code's.
 */
class SecurityAndAppOptionsTest {
  private static final String F = Chart.FULLNAME;
  private static final List<String[]> APPS =
      List.of(
          new String[] {"DaemonSet", F + "-shipper", "shipper"},
          new String[] {"StatefulSet", F + "-streams", "streams"},
          new String[] {"Deployment", F + "-sink", "sink"});

  private static String value(JsonNode c, String name) {
    return env(c, name)
        .orElseThrow(() -> new AssertionError("no env " + name))
        .path("value")
        .asText();
  }

  @Test
  void securitySettingsReachEveryAppAndPasswordsAreOnlyMountedSecretFiles() {
    Manifests m = Chart.render(ValuesScenarios.SECURITY_FROM_SECRETS);
    assertThat(m.ofKind("Secret").stream().map(s -> s.at("/metadata/name").asText()))
        .as("the chart creates no Secret for them: they are referenced")
        .containsExactly(F + "-clickhouse");
    for (String[] app : APPS) {
      JsonNode workload = m.get(app[0], app[1]);
      JsonNode c = container(workload, app[2]);
      assertThat(value(c, "SPECWATCH_KAFKA_SECURITY_PROTOCOL")).isEqualTo("SASL_SSL");
      assertThat(value(c, "SPECWATCH_KAFKA_SASL_MECHANISM")).isEqualTo("SCRAM-SHA-512");
      assertThat(value(c, "SPECWATCH_KAFKA_SASL_USERNAME")).isEqualTo("specwatch");
      assertThat(value(c, "SPECWATCH_KAFKA_SASL_PASSWORD_FILE"))
          .isEqualTo("/etc/specwatch/kafka-sasl/scram-password");
      assertThat(value(c, "SPECWATCH_KAFKA_TRUSTSTORE"))
          .isEqualTo("/etc/specwatch/kafka-tls/truststore.p12");
      assertThat(value(c, "SPECWATCH_KAFKA_TRUSTSTORE_TYPE")).isEqualTo("PKCS12");
      assertThat(value(c, "SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD_FILE"))
          .isEqualTo("/etc/specwatch/kafka-tls/truststore.password");
      assertThat(value(c, "SPECWATCH_KAFKA_KEYSTORE"))
          .isEqualTo("/etc/specwatch/kafka-tls/keystore.p12");
      assertThat(value(c, "SPECWATCH_KAFKA_KEYSTORE_PASSWORD_FILE"))
          .isEqualTo("/etc/specwatch/kafka-tls/keystore.password");
      assertThat(value(c, "SPECWATCH_KAFKA_KEY_PASSWORD_FILE"))
          .isEqualTo("/etc/specwatch/kafka-tls/key.password");
      assertThat(value(c, "SPECWATCH_REGISTRY_USER")).isEqualTo("registry-reader");
      assertThat(value(c, "SPECWATCH_REGISTRY_PASSWORD_FILE"))
          .isEqualTo("/etc/specwatch/registry/password");
      // no plain password variable at all, no secretKeyRef for Kafka: files only
      for (String plain :
          List.of(
              "SPECWATCH_KAFKA_SASL_PASSWORD",
              "SPECWATCH_KAFKA_TRUSTSTORE_PASSWORD",
              "SPECWATCH_KAFKA_KEYSTORE_PASSWORD",
              "SPECWATCH_KAFKA_KEY_PASSWORD",
              "SPECWATCH_REGISTRY_PASSWORD")) {
        assertThat(env(c, plain)).as(plain).isEmpty();
      }
      for (Map.Entry<String, String[]> mountAndSecret :
          Map.of(
                  "kafka-sasl", new String[] {"/etc/specwatch/kafka-sasl", "kafka-scram"},
                  "kafka-tls", new String[] {"/etc/specwatch/kafka-tls", "kafka-tls"},
                  "registry-auth", new String[] {"/etc/specwatch/registry", "registry-auth"})
              .entrySet()) {
        JsonNode mnt = mount(c, mountAndSecret.getKey()).orElseThrow();
        assertThat(mnt.path("mountPath").asText()).isEqualTo(mountAndSecret.getValue()[0]);
        assertThat(mnt.path("readOnly").asBoolean()).isTrue();
        JsonNode vol = volume(workload, mountAndSecret.getKey()).orElseThrow();
        assertThat(vol.at("/secret/secretName").asText()).isEqualTo(mountAndSecret.getValue()[1]);
        assertThat(vol.at("/secret/defaultMode").asInt()).isEqualTo(0440);
      }
    }
  }

  @Test
  void aSaslMechanismWithoutAPasswordSecretFailsTheRenderNamingTheSetting() {
    assertThatThrownBy(
            () ->
                Chart.render(
                    "kafka:\n  security:\n    sasl:\n      mechanism: SCRAM-SHA-512\n"
                        + "      username: u\n"))
        .hasMessageContaining("kafka.security.sasl.passwordSecret");
    assertThatThrownBy(
            () -> Chart.render("kafka:\n  security:\n    tls:\n      truststoreKey: ts.p12\n"))
        .hasMessageContaining("kafka.tlsSecret");
    assertThatThrownBy(() -> Chart.render("schemaRegistry:\n  username: reader\n"))
        .hasMessageContaining("schemaRegistry.passwordSecret");
    assertThatThrownBy(
            () -> Chart.render("kafka:\n  security:\n    sasl:\n      password: plain\n"))
        .as("a plain password value is not even accepted by the schema")
        .hasMessageContaining("password");
  }

  @Test
  void defaultsAddNoSecurityEnvAndSinkDefaultsMatchTheCode() {
    Manifests m = Chart.render(ValuesScenarios.DEFAULTS);
    for (String[] app : APPS) {
      JsonNode c = container(m.get(app[0], app[1]), app[2]);
      assertThat(c.path("env").toString())
          .doesNotContain("SPECWATCH_KAFKA_", "SPECWATCH_REGISTRY_");
      assertThat(mount(c, "kafka-sasl")).isEmpty();
    }
    JsonNode sink = m.get("ConfigMap", F + "-sink").path("data");
    // SinkConfig.DEFAULT_GROUP_ID, DEFAULT_BATCH_SIZE, DEFAULT_FLUSH_INTERVAL; RunCommand --tables
    assertThat(sink.path("SPECWATCH_SINK_GROUP_ID").asText()).isEqualTo("specwatch-sink");
    assertThat(sink.path("SPECWATCH_SINK_BATCH_SIZE").asText()).isEqualTo("100000");
    assertThat(sink.path("SPECWATCH_SINK_FLUSH_INTERVAL").asText()).isEqualTo("PT1S");
    assertThat(sink.path("SPECWATCH_SINK_TABLES").asText())
        .isEqualTo("window_results,alerts,decode_events,request_acceptance,run_contexts");
    assertThat(sink.path("SPECWATCH_RUN_CONTEXT_TOPIC").asText())
        .isEqualTo("specwatch.run-context.v1");
    JsonNode streams = m.get("ConfigMap", F + "-streams").path("data");
    assertThat(streams.path("SPECWATCH_TOPIC_RUN_CONTEXT").asText())
        .isEqualTo("specwatch.run-context.v1");
    assertThat(streams.path("SPECWATCH_DLQ_TOPIC").asText()).isEqualTo("specwatch.dead-letter.v1");
    assertThat(streams.path("SPECWATCH_BASELINE_MAX_AGE").asText()).isEqualTo("1h");
    assertThat(streams.has("SPECWATCH_STATIC_BASELINES")).isFalse();
    assertThat(streams.has("SPECWATCH_DEDUP_RETENTION"))
        .as("empty value: the app's default")
        .isFalse();
    assertThat(streams.has("SPECWATCH_MAX_EVENT_AHEAD"))
        .as("empty value: the app's default")
        .isFalse();
    assertThat(m.find("ConfigMap", F + "-run-context")).isEmpty();
  }

  @Test
  void appOptionsBecomeTheEnvTheAppsRead() {
    Manifests m = Chart.render(ValuesScenarios.APP_OPTIONS);
    JsonNode streams = m.get("ConfigMap", F + "-streams").path("data");
    assertThat(streams.path("SPECWATCH_STATIC_BASELINES").asText())
        .isEqualTo("deepseek-v3|h100-8x|8|*=31.5,llama-70b|h100-8x|4|2-4=22");
    assertThat(streams.path("SPECWATCH_BASELINE_MAX_AGE").asText()).isEqualTo("30m");
    assertThat(streams.path("SPECWATCH_WINDOW").asText()).isEqualTo("2m");
    assertThat(streams.path("SPECWATCH_GRACE").asText()).isEqualTo("5m");
    assertThat(streams.path("SPECWATCH_DEDUP_RETENTION").asText()).isEqualTo("20m");
    assertThat(streams.path("SPECWATCH_MAX_EVENT_AHEAD").asText()).isEqualTo("2h");
    assertThat(streams.path("SPECWATCH_TOPIC_RUN_CONTEXT").asText())
        .isEqualTo("prod.run-context.v1");
    assertThat(streams.path("SPECWATCH_DLQ_TOPIC").asText()).isEqualTo("prod.dead-letter.v1");

    JsonNode shipperCm = m.get("ConfigMap", F + "-shipper").path("data");
    assertThat(shipperCm.path("SPECWATCH_MODEL").asText()).isEqualTo("kimi-k2.5");
    assertThat(shipperCm.path("SPECWATCH_SPEC_METHOD").asText()).isEqualTo("EAGLE3");
    assertThat(shipperCm.path("SPECWATCH_TP").asText()).isEqualTo("8");
    assertThat(shipperCm.path("SPECWATCH_HARDWARE_CLASS").asText()).isEqualTo("h100-8x");
    assertThat(shipperCm.path("SPECWATCH_RUN_CONTEXT_TOPIC").asText())
        .isEqualTo("prod.run-context.v1");
    assertThat(shipperCm.path("SPECWATCH_REQUEST_TOPIC").asText())
        .isEqualTo("prod.request-acceptance.v1");
    JsonNode runContext = m.get("ConfigMap", F + "-run-context");
    assertThat(runContext.at("/data/run-context.json").asText())
        .contains("\"spec_method\": \"EAGLE3\"");
    JsonNode daemonSet = m.get("DaemonSet", F + "-shipper");
    JsonNode shipper = container(daemonSet, "shipper");
    assertThat(value(shipper, "SPECWATCH_RUN_CONTEXT"))
        .isEqualTo("/etc/specwatch/run-context/run-context.json");
    assertThat(mount(shipper, "run-context").orElseThrow().path("readOnly").asBoolean()).isTrue();
    assertThat(volume(daemonSet, "run-context").orElseThrow().at("/configMap/name").asText())
        .isEqualTo(F + "-run-context");

    JsonNode sink = m.get("ConfigMap", F + "-sink").path("data");
    assertThat(sink.path("SPECWATCH_SINK_GROUP_ID").asText()).isEqualTo("prod-sink");
    assertThat(sink.path("SPECWATCH_SINK_BATCH_SIZE").asText()).isEqualTo("50000");
    assertThat(sink.path("SPECWATCH_SINK_TABLES").asText())
        .isEqualTo("window_results,alerts,decode_events");
    assertThat(sink.path("SPECWATCH_SINK_INSERT_FORMAT").asText()).isEqualTo("json");
    assertThat(sink.path("SPECWATCH_DLQ_TOPIC").asText()).isEqualTo("prod.dead-letter.v1");
  }

  @Test
  void anExistingRunContextConfigMapIsMountedInsteadOfARenderedOne() {
    Manifests m =
        Chart.render(
            "shipper:\n  runContext:\n    existingConfigMap: node-run-context\n"
                + "    existingConfigMapKey: ctx.json\n");
    assertThat(m.find("ConfigMap", F + "-run-context")).isEmpty();
    JsonNode daemonSet = m.get("DaemonSet", F + "-shipper");
    assertThat(value(container(daemonSet, "shipper"), "SPECWATCH_RUN_CONTEXT"))
        .isEqualTo("/etc/specwatch/run-context/ctx.json");
    assertThat(volume(daemonSet, "run-context").orElseThrow().at("/configMap/name").asText())
        .isEqualTo("node-run-context");
  }

  @Test
  void theSchemaRejectsMistypedAppOptionsNamingThem() {
    assertThatThrownBy(() -> Chart.render("streams:\n  baselineMaxAge: soon\n"))
        .hasMessageContaining("baselineMaxAge");
    assertThatThrownBy(() -> Chart.render("streams:\n  staticBaselines: [\"llama=20\"]\n"))
        .hasMessageContaining("staticBaselines");
    assertThatThrownBy(() -> Chart.render("sink:\n  insertFormat: csv\n"))
        .hasMessageContaining("insertFormat");
    assertThatThrownBy(() -> Chart.render("sink:\n  tables: [windows]\n"))
        .hasMessageContaining("tables");
    assertThatThrownBy(
            () -> Chart.render("shipper:\n  runContext:\n    settings:\n      modle: x\n"))
        .hasMessageContaining("modle");
  }
}
