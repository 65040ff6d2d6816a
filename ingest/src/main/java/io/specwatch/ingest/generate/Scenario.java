package io.specwatch.ingest.generate;

import java.time.Instant;
import java.util.List;

/**
 * What to generate: deployments and scripted episodes over an event-time span.
 *
 * @param name {@code demo} or {@code fleet}
 * @param seed random seed: the same seed gives the same bytes
 * @param start event-time start
 * @param end event-time end (exclusive)
 * @param deployments the deployments
 * @param episodes scripted episodes and their expected alerts
 */
public record Scenario(
    String name,
    long seed,
    Instant start,
    Instant end,
    List<DeploymentSpec> deployments,
    List<Episode> episodes) {

  public Scenario {
    if (!end.isAfter(start)) {
      throw new IllegalArgumentException("duration must be positive");
    }
    deployments = List.copyOf(deployments);
    episodes = List.copyOf(episodes);
  }

  public DeploymentSpec deployment(String id) {
    return deployments.stream()
        .filter(d -> d.id().equals(id))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no deployment " + id));
  }
}
