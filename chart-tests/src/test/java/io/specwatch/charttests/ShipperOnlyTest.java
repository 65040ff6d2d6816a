package io.specwatch.charttests;

import static io.specwatch.charttests.Manifests.args;
import static io.specwatch.charttests.Manifests.container;
import static io.specwatch.charttests.Manifests.mount;
import static io.specwatch.charttests.Manifests.volume;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** A GPU-cluster-only install: the shipper alone, streams and sink running elsewhere. */
class ShipperOnlyTest {
  private static final String F = Chart.FULLNAME;
  private final Manifests m = Chart.render(ValuesScenarios.SHIPPER_ONLY);

  @Test
  void rendersOnlyTheShipperAndItsConfig() {
    assertThat(m.kindsAndNames())
        .containsExactlyInAnyOrder(
            "ConfigMap/" + F + "-common",
            "ConfigMap/" + F + "-shipper",
            "Service/" + F + "-shipper",
            "DaemonSet/" + F + "-shipper");
  }

  @Test
  void everyLogDirIsMountedReadOnlyAndEveryGlobBecomesAnArgument() {
    JsonNode ds = m.get("DaemonSet", F + "-shipper");
    JsonNode c = container(ds, "shipper");
    assertThat(args(c))
        .containsExactly(
            "ingest",
            "tail",
            "--glob",
            "/var/log/specwatch/sglang/*.log",
            "--glob",
            "/var/log/specwatch/sglang/*.log.1",
            "--glob",
            "/var/log/specwatch/vllm/server-*.log",
            "--deployment",
            "kimi-eagle3",
            "--checkpoint-dir",
            "/var/lib/specwatch/checkpoints");
    for (String dir : new String[] {"sglang", "vllm"}) {
      assertThat(mount(c, "logs-" + dir).orElseThrow().path("readOnly").asBoolean()).isTrue();
    }
    assertThat(volume(ds, "logs-vllm").orElseThrow().at("/hostPath/path").asText())
        .isEqualTo("/data/vllm/logs");
    assertThat(volume(ds, "logs-vllm").orElseThrow().at("/hostPath/type").asText())
        .isEqualTo("Directory");
    assertThat(volume(ds, "checkpoints").orElseThrow().has("emptyDir")).isTrue();
  }
}
