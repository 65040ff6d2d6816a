package io.specwatch.ingest.generate;

/** Turns one deployment's ticks into lines of its native format. Stateful: one per deployment. */
interface FormatWriter {

  void tick(Tick tick, LineSink out);

  /** The writer of the deployment's {@code engine.log}. */
  static FormatWriter engineLog(DeploymentSpec d) {
    return switch (d.format()) {
      case SGLANG_2025_EARLY, SGLANG_2025_MID, SGLANG_2025_OCT, SGLANG_2026 -> new SglangWriter(d);
      case VLLM_V1_SPEC_V1, VLLM_V1_SPEC_V2, VLLM_V1_SPEC_V3, VLLM_V1_SPEC_V4 ->
          new VllmV1Writer(d);
      case VLLM_V0 -> new VllmV0Writer(d);
      case TRTLLM_ITERATION_STATS -> new TrtllmWriter(d);
      case SPECWATCH_CYCLE -> new CycleJsonWriter(d);
    };
  }
}
