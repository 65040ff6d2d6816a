package io.specwatch.ingest.generate;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One synthetic deployment: what it is (engine, format, model, method, hardware) and its true
 * parameters over time ({@link Segment}s, the first starting at or before the scenario start).
 *
 * @param id deployment id (record key, directory name)
 * @param host GPU host name
 * @param format native log format of {@code engine.log}
 * @param requestFormat per-request output of {@code requests.jsonl}
 * @param phaseProfile whether {@code profile.log} gets per-phase profile lines
 * @param model target model
 * @param draftModel draft model, or null (n-gram, none)
 * @param draftModelVersion draft model version, or null
 * @param method speculative method
 * @param numSteps draft steps per cycle (0 for NONE)
 * @param topk EAGLE top-k branching (1 for chains)
 * @param draftTokens draft tokens proposed per request per cycle (accept positions), 0 for NONE
 * @param hardware GPUs
 * @param tp tensor-parallel size
 * @param meanBatch mean running requests
 * @param maxBatch most running requests (more wait in the queue)
 * @param meanOutputTokens mean generated tokens per request
 * @param kvCapacityTokens KV cache capacity (for token usage)
 * @param baselineId the non-speculative deployment of the same model and hardware, or null
 * @param segments true parameters over time, ordered by {@code from}
 * @param forcedWindowFactors minute (epoch minutes) to a fixed system-state factor, overriding the
 *     random one (scripted episodes)
 */
public record DeploymentSpec(
    String id,
    String host,
    LogFormat format,
    RequestFormat requestFormat,
    boolean phaseProfile,
    String model,
    String draftModel,
    String draftModelVersion,
    SpecMethod method,
    int numSteps,
    int topk,
    int draftTokens,
    Hardware hardware,
    int tp,
    double meanBatch,
    int maxBatch,
    int meanOutputTokens,
    long kvCapacityTokens,
    String baselineId,
    List<Segment> segments,
    Map<Long, Double> forcedWindowFactors) {

  public DeploymentSpec {
    Objects.requireNonNull(id, "id");
    if (!id.matches("[A-Za-z0-9._-]{1,120}")) {
      throw new IllegalArgumentException("deployment id must be a file-name-safe token: " + id);
    }
    segments = List.copyOf(segments);
    if (segments.isEmpty()) {
      throw new IllegalArgumentException("deployment " + id + " has no segment");
    }
    forcedWindowFactors = Collections.unmodifiableMap(new TreeMap<>(forcedWindowFactors));
    if (method.speculative()) {
      for (Segment s : segments) {
        if (s.acceptance().draftTokens() != draftTokens) {
          throw new IllegalArgumentException(
              "deployment " + id + ": acceptance lists must have " + draftTokens + " positions");
        }
      }
    }
    if (maxBatch < 1 || meanBatch < 1) {
      throw new IllegalArgumentException("deployment " + id + ": batch sizes must be >= 1");
    }
  }

  /** The segment in force at {@code t}. */
  public Segment segmentAt(Instant t) {
    Segment current = segments.get(0);
    for (Segment s : segments) {
      if (!s.from().isAfter(t)) {
        current = s;
      }
    }
    return current;
  }

  /** SGLang's {@code --speculative-num-draft-tokens} (steps + 1 for a chain), vLLM's k. */
  public int numDraftTokensSetting() {
    if (!method.speculative()) {
      return 0;
    }
    return format.engineName().equals("sglang") ? numSteps * topk + 1 : draftTokens;
  }
}
