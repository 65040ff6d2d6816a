package io.specwatch.ingest.generate;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parts of a deployment's run context that change between segments (the rest comes from the
 * {@link DeploymentSpec}).
 *
 * @param engineVersion engine release
 * @param engineCommit engine git commit
 * @param cudaGraph CUDA graphs on for decode
 * @param env performance-relevant environment variables (NCCL_*)
 */
public record RunContextSpec(
    String engineVersion, String engineCommit, boolean cudaGraph, Map<String, String> env) {

  public RunContextSpec {
    env = Collections.unmodifiableMap(new TreeMap<>(env));
  }

  public RunContextSpec withEnv(Map<String, String> newEnv) {
    return new RunContextSpec(engineVersion, engineCommit, cudaGraph, newEnv);
  }

  public RunContextSpec withCommit(String commit) {
    return new RunContextSpec(engineVersion, commit, cudaGraph, env);
  }

  public RunContextSpec withCudaGraph(boolean on) {
    return new RunContextSpec(engineVersion, engineCommit, on, env);
  }
}
