package io.specwatch.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.specwatch.ingest.context.ContextFields;
import io.specwatch.streams.StaticBaselines;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@link DemoPipeline} reads from the generator's manifest.json: which deployments are the
 * plain twins, the hardware an operator configures on each host's shipper, and the configured
 * baselines of the speculative deployments without a twin.
 */
final class DemoManifest {

  private DemoManifest() {}

  /** Deployment ids of the plain twins (spec method NONE). */
  static Set<String> plainDeployments(JsonNode manifest) {
    Set<String> plain = new HashSet<>();
    manifest
        .path("deployments")
        .forEach(
            d -> {
              if (d.path("specMethod").asText().equalsIgnoreCase("none")) {
                plain.add(d.path("id").asText());
              }
            });
    return plain;
  }

  /** What the operator configures on the host's shipper (no engine log prints the hardware). */
  static ContextFields hardware(JsonNode d) {
    ContextFields.Builder b = ContextFields.builder();
    JsonNode h = d.path("hardware");
    b.hardwareClass = h.path("hardwareClass").asText();
    b.gpuModel = h.path("gpuModel").asText();
    b.gpuCount = h.path("gpuCount").asInt();
    b.interconnect = h.path("interconnect").asText();
    return b.build();
  }

  /** Configured t_AR for the speculative deployments without a plain twin (as the demo does). */
  static StaticBaselines staticBaselines(JsonNode manifest) {
    List<String> entries = new ArrayList<>();
    for (JsonNode d : manifest.path("deployments")) {
      if (d.path("specMethod").asText().equalsIgnoreCase("none")
          || !d.path("baseline").asText("").isEmpty()) {
        continue;
      }
      for (JsonNode e : manifest.path("episodes")) {
        if (e.path("deployment").asText().equals(d.path("id").asText())
            && e.path("figures").has("tArMsBatch1")) {
          entries.add(
              d.path("model").asText()
                  + "|"
                  + d.path("hardware").path("hardwareClass").asText()
                  + "|"
                  + d.path("tp").asInt()
                  + "|*="
                  + e.path("figures").path("tArMsBatch1").asDouble());
          break;
        }
      }
    }
    return StaticBaselines.parse(entries);
  }
}
