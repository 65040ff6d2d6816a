package io.specwatch.ingest.context;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A partial run context: what ONE source (CLI options, the run-context file, one log line) states.
 * Every field is nullable (null = this source does not say). {@link #overlay} merges a later source
 * over an earlier one field by field; {@code env} is one field (a source that states it states the
 * whole environment, so a variable that disappeared is seen as gone); {@code extra} merges per key.
 *
 * @param deployment deployment the source names, or null for the shipper's {@code --deployment}
 * @param engine engine family (SGLANG, VLLM, TRTLLM, INSTRUMENTED), or null
 * @param engineVersion engine release
 * @param engineCommit engine git commit
 * @param model target model name or path
 * @param draftModel draft model name or path
 * @param draftModelVersion draft model version
 * @param specMethod speculative method, normalised (see {@link SpecMethods}); NONE = baseline
 * @param numSteps draft steps
 * @param topk EAGLE top-k
 * @param numDraftTokens draft tokens per cycle
 * @param gpuModel GPU model
 * @param gpuCount GPUs of the deployment
 * @param interconnect GPU interconnect
 * @param hardwareClass baseline comparison class
 * @param tp tensor-parallel size
 * @param dp data-parallel size
 * @param ep expert-parallel size
 * @param cudaGraph CUDA graphs on for decode
 * @param env performance-relevant environment variables, or null when not stated
 * @param extra other launch arguments (never null)
 */
public record ContextFields(
    String deployment,
    String engine,
    String engineVersion,
    String engineCommit,
    String model,
    String draftModel,
    String draftModelVersion,
    String specMethod,
    Integer numSteps,
    Integer topk,
    Integer numDraftTokens,
    String gpuModel,
    Integer gpuCount,
    String interconnect,
    String hardwareClass,
    Integer tp,
    Integer dp,
    Integer ep,
    Boolean cudaGraph,
    Map<String, String> env,
    Map<String, String> extra) {

  /** Nothing stated. */
  public static final ContextFields EMPTY =
      new ContextFields(
          null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
          null, null, null, null, null, Map.of());

  public ContextFields {
    env = env == null ? null : Map.copyOf(new TreeMap<>(env));
    extra = extra == null ? Map.of() : Map.copyOf(new TreeMap<>(extra));
  }

  /** True when this source states nothing about the context. */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean isEmpty() {
    return equals(EMPTY.withDeployment(deployment));
  }

  public ContextFields withDeployment(String d) {
    return new ContextFields(
        d,
        engine,
        engineVersion,
        engineCommit,
        model,
        draftModel,
        draftModelVersion,
        specMethod,
        numSteps,
        topk,
        numDraftTokens,
        gpuModel,
        gpuCount,
        interconnect,
        hardwareClass,
        tp,
        dp,
        ep,
        cudaGraph,
        env,
        extra);
  }

  /** This source with {@code later}'s stated fields on top. */
  public ContextFields overlay(ContextFields later) {
    Map<String, String> mergedExtra = new LinkedHashMap<>(extra);
    mergedExtra.putAll(later.extra);
    return new ContextFields(
        pick(later.deployment, deployment),
        pick(later.engine, engine),
        pick(later.engineVersion, engineVersion),
        pick(later.engineCommit, engineCommit),
        pick(later.model, model),
        pick(later.draftModel, draftModel),
        pick(later.draftModelVersion, draftModelVersion),
        pick(later.specMethod, specMethod),
        pick(later.numSteps, numSteps),
        pick(later.topk, topk),
        pick(later.numDraftTokens, numDraftTokens),
        pick(later.gpuModel, gpuModel),
        pick(later.gpuCount, gpuCount),
        pick(later.interconnect, interconnect),
        pick(later.hardwareClass, hardwareClass),
        pick(later.tp, tp),
        pick(later.dp, dp),
        pick(later.ep, ep),
        pick(later.cudaGraph, cudaGraph),
        pick(later.env, env),
        mergedExtra);
  }

  private static <T> T pick(T later, T earlier) {
    return later != null ? later : earlier;
  }

  /** A builder, for parsers that fill fields one by one. */
  public static Builder builder() {
    return new Builder();
  }

  /** Mutable builder of {@link ContextFields}. */
  public static final class Builder {
    public String deployment;
    public String engine;
    public String engineVersion;
    public String engineCommit;
    public String model;
    public String draftModel;
    public String draftModelVersion;
    public String specMethod;
    public Integer numSteps;
    public Integer topk;
    public Integer numDraftTokens;
    public String gpuModel;
    public Integer gpuCount;
    public String interconnect;
    public String hardwareClass;
    public Integer tp;
    public Integer dp;
    public Integer ep;
    public Boolean cudaGraph;
    public Map<String, String> env;
    public final Map<String, String> extra = new LinkedHashMap<>();

    private Builder() {}

    public ContextFields build() {
      return new ContextFields(
          deployment,
          engine,
          engineVersion,
          engineCommit,
          model,
          draftModel,
          draftModelVersion,
          specMethod,
          numSteps,
          topk,
          numDraftTokens,
          gpuModel,
          gpuCount,
          interconnect,
          hardwareClass,
          tp,
          dp,
          ep,
          cudaGraph,
          env,
          extra);
    }
  }
}
