package io.specwatch.charttests;

import static io.specwatch.charttests.Manifests.args;
import static io.specwatch.charttests.Manifests.container;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ServiceMonitor, Grafana dashboard and the static-membership / extra Streams settings. */
class MonitoringTest {
  private static final String F = Chart.FULLNAME;
  private final Manifests m = Chart.render(ValuesScenarios.MONITORING_ON);

  @Test
  void serviceMonitorScrapesMetricsOfEveryWorkloadService() {
    JsonNode sm = m.get("ServiceMonitor", F);
    assertThat(sm.path("apiVersion").asText()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(sm.at("/metadata/labels/release").asText()).isEqualTo("kube-prometheus-stack");
    assertThat(sm.at("/spec/endpoints/0/port").asText()).isEqualTo("health");
    assertThat(sm.at("/spec/endpoints/0/path").asText()).isEqualTo("/metrics");
    assertThat(sm.at("/spec/namespaceSelector/matchNames/0").asText()).isEqualTo(Chart.NAMESPACE);
    JsonNode selector = sm.at("/spec/selector/matchLabels");
    assertThat(m.ofKind("Service")).hasSize(3);
    for (JsonNode svc : m.ofKind("Service")) {
      JsonNode labels = svc.at("/metadata/labels");
      for (Map.Entry<String, JsonNode> e : selector.properties()) {
        assertThat(labels.path(e.getKey()).asText())
            .as("%s label %s", svc.at("/metadata/name").asText(), e.getKey())
            .isEqualTo(e.getValue().asText());
      }
      assertThat(svc.at("/spec/ports/0/name").asText()).isEqualTo("health");
    }
  }

  @Test
  void dashboardConfigMapHoldsValidJsonWithTheSidecarLabel() throws Exception {
    JsonNode cm = m.get("ConfigMap", F + "-dashboard");
    assertThat(cm.at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
    JsonNode dashboard = new ObjectMapper().readTree(cm.at("/data/specwatch.json").asText());
    assertThat(dashboard.path("uid").asText()).isEqualTo("specwatch");
    assertThat(dashboard.path("panels").size()).isGreaterThan(0);
  }

  @Test
  void staticMembershipUsesThePodNameAsGroupInstanceId() {
    JsonNode c = container(m.get("StatefulSet", F + "-streams"), "streams");
    assertThat(args(c))
        .containsSequence("-K", "group.instance.id=$(POD_NAME)")
        .containsSequence("-K", "commit.interval.ms=500");
    assertThat(
            Manifests.env(c, "POD_NAME").orElseThrow().at("/valueFrom/fieldRef/fieldPath").asText())
        .isEqualTo("metadata.name");
  }
}
