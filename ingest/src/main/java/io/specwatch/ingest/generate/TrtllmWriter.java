package io.specwatch.ingest.generate;

/**
 * TensorRT-LLM iteration stats, one JSON object per line. One tick is one iteration; every {@link
 * #SAMPLE_EVERY}-th iteration is written (a stats dump samples; writing all of them would be ~200
 * lines/s for a small model).
 */
final class TrtllmWriter implements FormatWriter {

  static final int SAMPLE_EVERY = 10;

  private final DeploymentSpec d;

  TrtllmWriter(DeploymentSpec d) {
    this.d = d;
  }

  @Override
  public void tick(Tick t, LineSink out) {
    if (t.index() % SAMPLE_EVERY != 0) {
      return;
    }
    StringBuilder sb =
        new StringBuilder(320)
            .append("{\"timestamp\":")
            .append(Fmt.q(Fmt.trtllmTime(t.end())))
            .append(",\"iter\":")
            .append(t.firstStep())
            .append(",\"iterLatencyMS\":")
            .append(Fmt.f(3, t.cycleMs()))
            .append(",\"numActiveRequests\":")
            .append(t.running())
            .append(",\"numQueuedRequests\":")
            .append(t.queued())
            .append(",\"maxNumActiveRequests\":")
            .append(d.maxBatch())
            .append(",\"cpuMemUsage\":0,\"gpuMemUsage\":")
            .append(t.kvTokens() * 160L);
    if (d.method().speculative()) {
      long drafted = (long) t.running() * d.draftTokens();
      sb.append(",\"specDecodingStats\":{\"numDraftTokens\":")
          .append(drafted)
          .append(",\"numAcceptedTokens\":")
          .append(t.accepted())
          .append(",\"numRequestsWithDraftTokens\":")
          .append(t.running())
          .append(",\"acceptanceLength\":")
          .append(Fmt.f(4, 1.0 + (double) t.accepted() / t.running()))
          .append(",\"iterLatencyMS\":")
          .append(Fmt.f(3, t.draftMs()))
          .append(",\"draftOverhead\":")
          .append(Fmt.f(4, t.draftMs() / t.cycleMs()))
          .append('}');
    }
    out.line(LineSink.ENGINE_LOG, t.end(), sb.append('}').toString());
  }
}
