package io.specwatch.ingest.generate;

/**
 * The instrumented engine's per-cycle JSON ({@code specwatch.cycle.v1}, shared contract item 1),
 * one object per verify cycle of rank 0's batch, and a {@code specwatch.run_context.v1} line at
 * every segment start, both in {@code engine.log}.
 */
final class CycleJsonWriter implements FormatWriter {

  static final String SCHEMA = "specwatch.cycle.v1";

  private final DeploymentSpec d;

  CycleJsonWriter(DeploymentSpec d) {
    if (d.format().passesPerTick() != 1) {
      throw new IllegalArgumentException("per-cycle JSON needs one pass per tick");
    }
    this.d = d;
  }

  @Override
  public void tick(Tick t, LineSink out) {
    if (t.newSegment()) {
      out.line(LineSink.ENGINE_LOG, t.start(), RunContextJson.line(d, t.segment(), t.start()));
    }
    out.line(LineSink.ENGINE_LOG, t.end(), line(t));
  }

  private String line(Tick t) {
    int k = d.draftTokens();
    StringBuilder accepted = new StringBuilder("[");
    StringBuilder ids = new StringBuilder("[");
    String category = null;
    boolean oneCategory = true;
    for (int i = 0; i < t.batch().size(); i++) {
      Tick.RequestStep r = t.batch().get(i);
      accepted.append(i == 0 ? "" : ",").append(r.accepted());
      ids.append(i == 0 ? "" : ",").append(Fmt.q(r.requestId()));
      if (category == null) {
        category = r.category();
      } else if (!category.equals(r.category())) {
        oneCategory = false;
      }
    }
    StringBuilder sb =
        new StringBuilder(400)
            .append("{\"schema\":\"")
            .append(SCHEMA)
            .append("\",\"ts\":")
            .append(Fmt.q(Fmt.iso(t.end())))
            .append(",\"deployment\":")
            .append(Fmt.q(d.id()))
            .append(",\"rank\":0,\"step\":")
            .append(t.firstStep())
            .append(",\"batch_size\":")
            .append(t.running())
            .append(",\"num_draft_tokens\":")
            .append(k)
            .append(",\"accepted\":")
            .append(accepted.append(']'))
            .append(",\"draft_ms\":")
            .append(Fmt.f(3, t.draftMs()))
            .append(",\"verify_ms\":")
            .append(Fmt.f(3, t.verifyMs()))
            .append(",\"overhead_ms\":")
            .append(Fmt.f(3, t.overheadMs()))
            .append(",\"cycle_ms\":")
            .append(Fmt.f(3, t.cycleMs()))
            .append(",\"phases\":{\"draft\":")
            .append(Fmt.f(3, t.draftMs()))
            .append(",\"target_verify\":")
            .append(Fmt.f(3, t.verifyMs()))
            .append(",\"sample\":")
            .append(Fmt.f(3, t.overheadMs()))
            .append('}');
    if (oneCategory && category != null) {
      sb.append(",\"prompt_category\":").append(Fmt.q(category));
    }
    return sb.append(",\"request_ids\":").append(ids.append(']')).append('}').toString();
  }
}
