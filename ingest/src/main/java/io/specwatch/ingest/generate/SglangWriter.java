package io.specwatch.ingest.generate;

/**
 * SGLang {@code Decode batch} lines, one per tick (decode-log-interval passes) on TP0, in the
 * deployment's generation, and the {@code server_args=ServerArgs(...)} startup line at every
 * segment start.
 */
final class SglangWriter implements FormatWriter {

  private final DeploymentSpec d;

  SglangWriter(DeploymentSpec d) {
    this.d = d;
  }

  @Override
  public void tick(Tick t, LineSink out) {
    if (t.newSegment()) {
      out.line(LineSink.ENGINE_LOG, t.start(), Fmt.sglangPrefix(t.start(), null) + serverArgs(t));
    }
    out.line(LineSink.ENGINE_LOG, t.end(), Fmt.sglangPrefix(t.end(), "TP0") + body(t));
  }

  private String serverArgs(Tick t) {
    RunContextSpec c = t.segment().context();
    StringBuilder sb =
        new StringBuilder("server_args=ServerArgs(model_path=")
            .append(py(d.model()))
            .append(", tp_size=")
            .append(d.tp())
            .append(", trust_remote_code=True, mem_fraction_static=0.88, ");
    if (d.method().speculative()) {
      sb.append("speculative_algorithm=").append(py(d.method().sglangAlgorithm()));
      if (d.draftModel() != null) {
        sb.append(", speculative_draft_model_path=").append(py(d.draftModel()));
      }
      if (d.draftModelVersion() != null) {
        sb.append(", speculative_draft_model_revision=").append(py(d.draftModelVersion()));
      }
      sb.append(", speculative_num_steps=")
          .append(d.numSteps())
          .append(", speculative_eagle_topk=")
          .append(d.topk())
          .append(", speculative_num_draft_tokens=")
          .append(d.numDraftTokensSetting())
          .append(", ");
    } else {
      sb.append("speculative_algorithm=None, ");
    }
    return sb.append("disable_cuda_graph=")
        .append(c.cudaGraph() ? "False" : "True")
        .append(", decode_log_interval=")
        .append(d.format().passesPerTick())
        .append(", host='0.0.0.0', port=30000)")
        .toString();
  }

  private static String py(String s) {
    return "'" + s + "'";
  }

  private String body(Tick t) {
    boolean spec = d.method().speculative();
    long cycles = t.cycles();
    double tau = 1.0 + (double) t.accepted() / cycles;
    double rate = spec ? (double) t.accepted() / (cycles * d.draftTokens()) : 0;
    double throughput = t.emitted() * 1000.0 / t.durationMs();
    String graph = t.segment().context().cudaGraph() ? "True" : "False";
    StringBuilder sb = new StringBuilder(200);
    if (d.format() == LogFormat.SGLANG_2026) {
      sb.append("Decode batch [").append(t.firstStep() + t.passes()).append("], ");
    } else {
      sb.append("Decode batch. ");
    }
    sb.append("#running-req: ")
        .append(t.running())
        .append(", #token: ")
        .append(t.kvTokens())
        .append(", token usage: ")
        .append(Fmt.f2((double) t.kvTokens() / d.kvCapacityTokens()))
        .append(", ");
    if (spec) {
      sb.append("accept len: ").append(Fmt.f2(tau)).append(", ");
      if (d.format() == LogFormat.SGLANG_2025_OCT || d.format() == LogFormat.SGLANG_2026) {
        sb.append("accept rate: ").append(Fmt.f2(rate)).append(", ");
      }
    }
    if (d.format() != LogFormat.SGLANG_2025_EARLY) {
      sb.append("cuda graph: ").append(graph).append(", ");
    }
    return sb.append("gen throughput (token/s): ")
        .append(Fmt.f2(throughput))
        .append(", #queue-req: ")
        .append(t.queued())
        .append(", ")
        .toString();
  }
}
