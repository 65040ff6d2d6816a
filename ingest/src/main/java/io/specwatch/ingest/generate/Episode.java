package io.specwatch.ingest.generate;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A scripted situation in a scenario, with the alerts a correct pipeline raises for it.
 *
 * @param id episode id
 * @param deploymentId deployment concerned
 * @param type what happens
 * @param from event-time start
 * @param to event-time end
 * @param expectedAlerts alert types a correct pipeline raises in [from, to] (empty: none)
 * @param description one sentence
 * @param figures the true numbers behind it (tau, cycle ms, tok/s, before/after)
 */
public record Episode(
    String id,
    String deploymentId,
    Type type,
    Instant from,
    Instant to,
    List<String> expectedAlerts,
    String description,
    Map<String, Object> figures) {

  /** Episode types. */
  public enum Type {
    /** Speculation slower than the plain baseline of the same model and hardware. */
    SPEC_BELOW_BASELINE,
    /** Accept length 1.00: the drafter contributes nothing. */
    ACCEPT_COLLAPSE,
    /** A real verify-ms (cycle) regression right after a run-context change. */
    REGRESSION,
    /** A shift between two windows within the noise of the same distribution: no alert. */
    NOISE_SHIFT,
    /** Healthy speculation (speedup above 1): no alert. */
    HEALTHY,
    /** A non-speculative baseline deployment: no alert. */
    BASELINE
  }

  public static final String SPEC_BELOW_BASELINE = "SPEC_BELOW_BASELINE";
  public static final String ACCEPT_COLLAPSE = "ACCEPT_COLLAPSE";
  public static final String REGRESSION = "REGRESSION";

  public Episode {
    expectedAlerts = List.copyOf(expectedAlerts);
    figures = Collections.unmodifiableMap(new TreeMap<>(figures));
  }
}
