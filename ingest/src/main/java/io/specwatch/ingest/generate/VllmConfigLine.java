package io.specwatch.ingest.generate;

import java.util.Locale;

/** vLLM's startup configuration line (simplified: the fields a run context needs). */
final class VllmConfigLine {

  private VllmConfigLine() {}

  static String text(DeploymentSpec d, Segment s, String generation) {
    RunContextSpec c = s.context();
    String spec =
        d.method().speculative()
            ? "SpeculativeConfig(method='"
                + d.method().wireName().toLowerCase(Locale.ROOT)
                + "', model="
                + (d.draftModel() == null ? "None" : "'" + d.draftModel() + "'")
                + ", num_spec_tokens="
                + d.draftTokens()
                + ")"
            : "None";
    return (generation.equals("V1")
            ? "Initializing a V1 LLM engine (v"
            : "Initializing an LLM engine (v")
        + c.engineVersion()
        + ") with config: model='"
        + d.model()
        + "', speculative_config="
        + spec
        + ", tensor_parallel_size="
        + d.tp()
        + ", enforce_eager="
        + (c.cudaGraph() ? "False" : "True")
        + ", seed=0";
  }
}
