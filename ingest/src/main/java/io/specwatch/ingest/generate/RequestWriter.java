package io.specwatch.ingest.generate;

/** Finished requests as {@code request.v1} or SGLang {@code meta_info} lines in requests.jsonl. */
final class RequestWriter implements FormatWriter {

  private final DeploymentSpec d;

  RequestWriter(DeploymentSpec d) {
    this.d = d;
  }

  @Override
  public void tick(Tick t, LineSink out) {
    for (Tick.FinishedRequest r : t.finished()) {
      out.line(LineSink.REQUESTS, t.end(), line(t, r));
    }
  }

  private String line(Tick t, Tick.FinishedRequest r) {
    String ts = Fmt.q(Fmt.iso(t.end()));
    if (d.requestFormat() == RequestFormat.SGLANG_META_INFO) {
      double tau = (double) r.outputTokens() / r.cycles();
      double rate = r.drafted() == 0 ? 0 : (double) r.accepted() / r.drafted();
      double latency = (t.end().toEpochMilli() - r.startedAt().toEpochMilli()) / 1000.0;
      return "{\"ts\":"
          + ts
          + ",\"prompt_category\":"
          + Fmt.q(r.category())
          + ",\"prompt_hash\":"
          + Fmt.q(r.promptHash())
          + ",\"meta_info\":{\"id\":"
          + Fmt.q(r.requestId())
          + ",\"prompt_tokens\":"
          + r.promptTokens()
          + ",\"completion_tokens\":"
          + r.outputTokens()
          + ",\"spec_verify_ct\":"
          + r.cycles()
          + ",\"spec_accept_length\":"
          + Fmt.f(4, tau)
          + ",\"spec_accept_rate\":"
          + Fmt.f(4, rate)
          + ",\"spec_accept_histogram\":"
          + Fmt.longs(r.histogram())
          + ",\"e2e_latency\":"
          + Fmt.f(3, latency)
          + "}}";
    }
    StringBuilder sb =
        new StringBuilder(300)
            .append("{\"ts\":")
            .append(ts)
            .append(",\"request_id\":")
            .append(Fmt.q(r.requestId()))
            .append(",\"prompt_hash\":")
            .append(Fmt.q(r.promptHash()))
            .append(",\"prompt_category\":")
            .append(Fmt.q(r.category()))
            .append(",\"model\":")
            .append(Fmt.q(d.model()));
    if (d.draftModelVersion() != null) {
      sb.append(",\"draft_model_version\":").append(Fmt.q(d.draftModelVersion()));
    }
    return sb.append(",\"prompt_tokens\":")
        .append(r.promptTokens())
        .append(",\"output_tokens\":")
        .append(r.outputTokens())
        .append(",\"verify_cycles\":")
        .append(r.cycles())
        .append(",\"accepted_tokens\":")
        .append(r.accepted())
        .append(",\"drafted_tokens\":")
        .append(r.drafted())
        .append(",\"accept_histogram\":")
        .append(Fmt.longs(r.histogram()))
        .append('}')
        .toString();
  }
}
