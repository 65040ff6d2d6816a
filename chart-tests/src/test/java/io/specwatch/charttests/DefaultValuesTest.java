package io.specwatch.charttests;

import static io.specwatch.charttests.Manifests.args;
import static io.specwatch.charttests.Manifests.container;
import static io.specwatch.charttests.Manifests.env;
import static io.specwatch.charttests.Manifests.mount;
import static io.specwatch.charttests.Manifests.podSpec;
import static io.specwatch.charttests.Manifests.volume;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The chart rendered with its default values. */
class DefaultValuesTest {
  private static final String F = Chart.FULLNAME;
  private final Manifests m = Chart.render(ValuesScenarios.DEFAULTS);

  @Test
  void rendersTheThreeWorkloadsAndTheirObjects() {
    assertThat(m.kindsAndNames())
        .containsExactlyInAnyOrder(
            "ConfigMap/" + F + "-common",
            "ConfigMap/" + F + "-shipper",
            "ConfigMap/" + F + "-streams",
            "ConfigMap/" + F + "-sink",
            "Secret/" + F + "-clickhouse",
            "Service/" + F + "-shipper",
            "Service/" + F + "-streams",
            "Service/" + F + "-sink",
            "DaemonSet/" + F + "-shipper",
            "StatefulSet/" + F + "-streams",
            "PodDisruptionBudget/" + F + "-streams",
            "Deployment/" + F + "-sink");
  }

  @Test
  void everyImageIsTheAppImageTaggedWithAppVersion() {
    assertThat(m.containers().map(c -> c.path("image").asText()))
        .hasSize(3)
        .allMatch(image -> image.equals("specwatch/app:" + Chart.appVersion()));
  }

  @Test
  void anExplicitTagOrDigestReplacesTheAppVersion() {
    String digest = "sha256:" + "a".repeat(64);
    Manifests custom =
        Chart.render(
            "image:\n  repository: registry.example/specwatch/app\n  tag: 0.1.1\n  digest: "
                + digest
                + "\n");
    assertThat(custom.containers().map(c -> c.path("image").asText()))
        .hasSize(3)
        .allMatch(image -> image.equals("registry.example/specwatch/app:0.1.1@" + digest));
  }

  @Test
  void everyPodRunsRestricted() {
    for (JsonNode spec : m.podSpecs()) {
      JsonNode pod = spec.path("securityContext");
      assertThat(pod.path("runAsNonRoot").asBoolean()).isTrue();
      assertThat(pod.path("seccompProfile").path("type").asText()).isEqualTo("RuntimeDefault");
      assertThat(spec.path("automountServiceAccountToken").asBoolean(true)).isFalse();
    }
    m.containers()
        .forEach(
            c -> {
              JsonNode sc = c.path("securityContext");
              assertThat(sc.path("runAsNonRoot").asBoolean()).as(c.path("name").asText()).isTrue();
              assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
              assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
              assertThat(sc.path("capabilities").path("drop").toString()).isEqualTo("[\"ALL\"]");
              assertThat(sc.path("seccompProfile").path("type").asText())
                  .isEqualTo("RuntimeDefault");
              assertThat(mount(c, "tmp")).as("writable /tmp").isPresent();
              assertThat(c.path("resources").path("requests").path("memory").asText()).isNotEmpty();
              assertThat(c.path("resources").path("limits").path("memory").asText()).isNotEmpty();
            });
  }

  @Test
  void longRunningAppsProbeTheHealthEndpoints() {
    for (String[] w :
        new String[][] {
          {"DaemonSet", "-shipper", "shipper"},
          {"StatefulSet", "-streams", "streams"},
          {"Deployment", "-sink", "sink"}
        }) {
      JsonNode c = container(m.get(w[0], F + w[1]), w[2]);
      assertThat(c.path("ports").get(0).path("name").asText()).isEqualTo("health");
      assertThat(c.path("ports").get(0).path("containerPort").asInt()).isEqualTo(8080);
      assertThat(c.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health/live");
      assertThat(c.at("/livenessProbe/httpGet/port").asText()).isEqualTo("health");
      assertThat(c.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/health/ready");
      assertThat(c.at("/readinessProbe/httpGet/port").asText()).isEqualTo("health");
      assertThat(env(c, "SPECWATCH_HEALTH_PORT").orElseThrow().path("value").asText())
          .isEqualTo("8080");
      assertThat(env(c, "SPECWATCH_LOG_FORMAT").orElseThrow().path("value").asText())
          .as("JSON logs in the cluster")
          .isEqualTo("json");
      assertThat(env(c, "SPECWATCH_KAFKA_PROPERTIES_FILE")).as("no Kafka secret").isEmpty();
      assertThat(
              podSpec(m.get(w[0], F + w[1]))
                  .path("containers")
                  .get(0)
                  .path("envFrom")
                  .get(0)
                  .at("/configMapRef/name")
                  .asText())
          .isEqualTo(F + "-common");
    }
    assertThat(m.get("ConfigMap", F + "-common").at("/data/SPECWATCH_REGISTRY_URL").asText())
        .isEqualTo("http://schema-registry:8081");
  }

  @Test
  void shipperRunsOnGpuNodesWithReadOnlyLogsAndAHostCheckpointDir() {
    JsonNode ds = m.get("DaemonSet", F + "-shipper");
    JsonNode spec = podSpec(ds);
    assertThat(spec.at("/nodeSelector/nvidia.com~1gpu.present").asText()).isEqualTo("true");
    assertThat(spec.at("/tolerations/0/key").asText()).isEqualTo("nvidia.com/gpu");
    JsonNode c = container(ds, "shipper");
    assertThat(args(c))
        .containsExactly(
            "ingest",
            "tail",
            "--glob",
            "/var/log/specwatch/sglang/*.log",
            "--deployment",
            "default",
            "--checkpoint-dir",
            "/var/lib/specwatch/checkpoints");
    assertThat(mount(c, "logs-sglang").orElseThrow().path("readOnly").asBoolean()).isTrue();
    assertThat(mount(c, "logs-sglang").orElseThrow().path("mountPath").asText())
        .isEqualTo("/var/log/specwatch/sglang");
    assertThat(volume(ds, "logs-sglang").orElseThrow().at("/hostPath/path").asText())
        .isEqualTo("/var/log/sglang");
    assertThat(mount(c, "checkpoints").orElseThrow().path("readOnly").asBoolean(false)).isFalse();
    assertThat(volume(ds, "checkpoints").orElseThrow().at("/hostPath/path").asText())
        .isEqualTo("/var/lib/specwatch/checkpoints");
    assertThat(env(c, "SPECWATCH_HOST").orElseThrow().at("/valueFrom/fieldRef/fieldPath").asText())
        .isEqualTo("spec.nodeName");
    JsonNode cm = m.get("ConfigMap", F + "-shipper").path("data");
    assertThat(cm.path("SPECWATCH_DEPLOYMENT").asText()).isEqualTo("default");
    assertThat(cm.path("SPECWATCH_CHECKPOINT_DIR").asText())
        .isEqualTo("/var/lib/specwatch/checkpoints");
  }

  @Test
  void shipperGraceExceedsItsShutdownTimeoutPlusABlockedSend() {
    // ShutdownOptions: --shutdown-timeout defaults to 30s; the chart sets the same explicitly
    JsonNode cm = m.get("ConfigMap", F + "-shipper").path("data");
    assertThat(cm.path("SPECWATCH_SHUTDOWN_TIMEOUT").asText()).isEqualTo("30s");
    JsonNode spec = podSpec(m.get("DaemonSet", F + "-shipper"));
    assertThat(spec.path("terminationGracePeriodSeconds").asInt()).isEqualTo(45);

    Manifests longer =
        Chart.render(
            "shipper:\n  shutdownTimeoutSeconds: 50\n  terminationGracePeriodSeconds: 60\n");
    assertThat(
            longer.get("ConfigMap", F + "-shipper").at("/data/SPECWATCH_SHUTDOWN_TIMEOUT").asText())
        .isEqualTo("50s");
    assertThat(
            podSpec(longer.get("DaemonSet", F + "-shipper"))
                .path("terminationGracePeriodSeconds")
                .asInt())
        .isEqualTo(60);
    // a grace period the shutdown cannot finish in fails the render, naming both settings
    assertThatThrownBy(() -> Chart.render("shipper:\n  shutdownTimeoutSeconds: 50\n"))
        .hasMessageContaining("shipper.terminationGracePeriodSeconds (45)")
        .hasMessageContaining("shipper.shutdownTimeoutSeconds (50)");
    assertThatThrownBy(() -> Chart.render("shipper:\n  terminationGracePeriodSeconds: 39\n"))
        .hasMessageContaining("shipper.terminationGracePeriodSeconds (39)");
  }

  @Test
  void streamsIsAStatefulSetWithStateVolumesStandbysAndAGracePeriodOverTheCloseTimeout() {
    JsonNode sts = m.get("StatefulSet", F + "-streams");
    assertThat(sts.at("/spec/replicas").asInt()).isEqualTo(2);
    assertThat(sts.at("/spec/serviceName").asText()).isEqualTo(F + "-streams");
    assertThat(m.get("Service", F + "-streams").at("/spec/clusterIP").asText()).isEqualTo("None");
    JsonNode claim = sts.at("/spec/volumeClaimTemplates/0");
    assertThat(claim.at("/metadata/name").asText()).isEqualTo("state");
    assertThat(claim.at("/spec/accessModes/0").asText()).isEqualTo("ReadWriteOnce");
    assertThat(claim.at("/spec/resources/requests/storage").asText()).isEqualTo("10Gi");
    assertThat(podSpec(sts).path("terminationGracePeriodSeconds").asInt()).isGreaterThan(30);
    JsonNode c = container(sts, "streams");
    assertThat(mount(c, "state").orElseThrow().path("mountPath").asText())
        .isEqualTo("/var/lib/specwatch/streams-state");
    assertThat(args(c))
        .containsExactly(
            "streams", "run", "-K", "num.standby.replicas=$(STREAMS_NUM_STANDBY_REPLICAS)");
    JsonNode cm = m.get("ConfigMap", F + "-streams").path("data");
    assertThat(cm.path("STREAMS_NUM_STANDBY_REPLICAS").asText()).isEqualTo("1");
    assertThat(cm.path("SPECWATCH_TOPIC_ALERTS").asText()).isEqualTo("specwatch.alerts.v1");
    assertThat(cm.path("SPECWATCH_STREAMS_APPLICATION_ID").asText()).isEqualTo("specwatch-streams");
    assertThat(cm.path("SPECWATCH_STREAMS_STATE_DIR").asText())
        .isEqualTo("/var/lib/specwatch/streams-state");
    assertThat(env(c, "POD_NAME")).isPresent();
    assertThat(args(c)).noneMatch(a -> a.startsWith("group.instance.id"));
  }

  @Test
  void podDisruptionBudgetCoversTheStreamsPods() {
    JsonNode pdb = m.get("PodDisruptionBudget", F + "-streams");
    assertThat(pdb.at("/spec/maxUnavailable").asInt()).isEqualTo(1);
    assertThat(pdb.at("/spec/selector/matchLabels"))
        .isEqualTo(m.get("StatefulSet", F + "-streams").at("/spec/selector/matchLabels"));
  }

  @Test
  void sinkReadsClickHouseCredentialsFromTheChartSecret() {
    JsonNode c = container(m.get("Deployment", F + "-sink"), "sink");
    assertThat(args(c)).containsExactly("sink", "run");
    JsonNode user = env(c, "SPECWATCH_CLICKHOUSE_USER").orElseThrow();
    assertThat(user.at("/valueFrom/secretKeyRef/name").asText()).isEqualTo(F + "-clickhouse");
    assertThat(user.at("/valueFrom/secretKeyRef/key").asText()).isEqualTo("user");
    assertThat(
            env(c, "SPECWATCH_CLICKHOUSE_PASSWORD")
                .orElseThrow()
                .at("/valueFrom/secretKeyRef/key")
                .asText())
        .isEqualTo("password");
    JsonNode cm = m.get("ConfigMap", F + "-sink").path("data");
    assertThat(cm.path("SPECWATCH_CLICKHOUSE_URL").asText()).isEqualTo("http://clickhouse:8123");
    assertThat(cm.path("SPECWATCH_CLICKHOUSE_DATABASE").asText()).isEqualTo("specwatch");
  }

  @Test
  void everyWorkloadCarriesAConfigChecksum() {
    for (String[] w :
        new String[][] {
          {"DaemonSet", "-shipper"}, {"StatefulSet", "-streams"}, {"Deployment", "-sink"}
        }) {
      assertThat(
              m.get(w[0], F + w[1])
                  .at("/spec/template/metadata/annotations/checksum~1config")
                  .asText())
          .matches("[0-9a-f]{64}");
    }
  }

  @Test
  void noServiceMonitorOrDashboardByDefault() {
    assertThat(m.ofKind("ServiceMonitor")).isEmpty();
    assertThat(m.find("ConfigMap", F + "-dashboard")).isEmpty();
  }
}
