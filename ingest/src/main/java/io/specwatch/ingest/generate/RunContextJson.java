package io.specwatch.ingest.generate;

import java.time.Instant;
import java.util.Map;

/** The {@code specwatch.run_context.v1} line of a deployment segment (shared contract, item 2). */
final class RunContextJson {

  static final String SCHEMA = "specwatch.run_context.v1";

  private RunContextJson() {}

  static String line(DeploymentSpec d, Segment s, Instant ts) {
    RunContextSpec c = s.context();
    StringBuilder sb =
        new StringBuilder(512)
            .append("{\"schema\":\"")
            .append(SCHEMA)
            .append("\",\"ts\":")
            .append(Fmt.q(Fmt.iso(ts)))
            .append(",\"deployment\":")
            .append(Fmt.q(d.id()))
            .append(",\"engine\":")
            .append(Fmt.q(d.format().engineName()))
            .append(",\"engine_version\":")
            .append(Fmt.q(c.engineVersion()))
            .append(",\"engine_commit\":")
            .append(Fmt.q(c.engineCommit()))
            .append(",\"model\":")
            .append(Fmt.q(d.model()));
    if (d.draftModel() != null) {
      sb.append(",\"draft_model\":").append(Fmt.q(d.draftModel()));
    }
    if (d.draftModelVersion() != null) {
      sb.append(",\"draft_model_version\":").append(Fmt.q(d.draftModelVersion()));
    }
    sb.append(",\"spec_method\":").append(Fmt.q(d.method().wireName()));
    if (d.method().speculative()) {
      sb.append(",\"num_steps\":")
          .append(d.numSteps())
          .append(",\"topk\":")
          .append(d.topk())
          .append(",\"num_draft_tokens\":")
          .append(d.numDraftTokensSetting());
    }
    Hardware h = d.hardware();
    sb.append(",\"gpu_model\":")
        .append(Fmt.q(h.gpuModel()))
        .append(",\"gpu_count\":")
        .append(h.gpuCount())
        .append(",\"interconnect\":")
        .append(Fmt.q(h.interconnect()))
        .append(",\"hardware_class\":")
        .append(Fmt.q(h.hardwareClass()))
        .append(",\"tp\":")
        .append(d.tp())
        .append(",\"dp\":1,\"ep\":1,\"cuda_graph\":")
        .append(c.cudaGraph())
        .append(",\"env\":{");
    boolean first = true;
    for (Map.Entry<String, String> e : c.env().entrySet()) {
      sb.append(first ? "" : ",").append(Fmt.q(e.getKey())).append(':').append(Fmt.q(e.getValue()));
      first = false;
    }
    return sb.append("}}").toString();
  }
}
