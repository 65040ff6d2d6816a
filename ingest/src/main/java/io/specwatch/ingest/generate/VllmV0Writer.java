package io.specwatch.ingest.generate;

/**
 * vLLM v0: every 5 s the throughput line, then (speculative deployments) the cumulative {@code
 * Speculative metrics} line and the {@code SpecDecodeWorker stage times} line of the interval; the
 * engine config line at every segment start (a restart: the cumulative counts start again at 0).
 */
final class VllmV0Writer implements FormatWriter {

  static final long INTERVAL_MS = 5_000;

  private final DeploymentSpec d;
  private IntervalTotals totals;
  private long cumulativeAccepted;
  private long cumulativeDrafted;
  private long cumulativeEmitted;

  VllmV0Writer(DeploymentSpec d) {
    this.d = d;
    this.totals = new IntervalTotals(d.method().speculative() ? d.draftTokens() : 0);
  }

  @Override
  public void tick(Tick t, LineSink out) {
    if (t.newSegment()) {
      out.line(
          LineSink.ENGINE_LOG,
          t.start(),
          Fmt.vllmV0Prefix(t.start(), "llm_engine.py:237")
              + VllmConfigLine.text(d, t.segment(), "V0"));
      cumulativeAccepted = 0;
      cumulativeDrafted = 0;
      cumulativeEmitted = 0;
    }
    totals.add(t);
    if (!totals.due(t.end(), INTERVAL_MS)) {
      return;
    }
    IntervalTotals s = totals;
    totals = totals.reset();
    out.line(
        LineSink.ENGINE_LOG,
        t.end(),
        Fmt.vllmV0Prefix(t.end(), "metrics.py:345")
            + "Avg prompt throughput: "
            + Fmt.f(1, s.promptTokens / s.seconds())
            + " tokens/s, Avg generation throughput: "
            + Fmt.f(1, s.emitted / s.seconds())
            + " tokens/s, Running: "
            + t.running()
            + " reqs, Swapped: 0 reqs, Pending: "
            + t.queued()
            + " reqs, GPU KV cache usage: "
            + Fmt.f(1, 100.0 * t.kvTokens() / d.kvCapacityTokens())
            + "%, CPU KV cache usage: 0.0%.");
    if (!d.method().speculative()) {
      return;
    }
    cumulativeAccepted += s.accepted;
    cumulativeDrafted += s.drafted();
    cumulativeEmitted += s.emitted;
    int k = d.draftTokens();
    double rate = cumulativeDrafted == 0 ? 0 : (double) cumulativeAccepted / cumulativeDrafted;
    double efficiency =
        cumulativeDrafted == 0 ? 0 : (double) cumulativeEmitted / (cumulativeDrafted / k * (k + 1));
    out.line(
        LineSink.ENGINE_LOG,
        t.end(),
        Fmt.vllmV0Prefix(t.end(), "metrics.py:373")
            + "Speculative metrics: Draft acceptance rate: "
            + Fmt.f(3, rate)
            + ", System efficiency: "
            + Fmt.f(3, efficiency)
            + ", Number of speculative tokens: "
            + k
            + ", Number of accepted tokens: "
            + cumulativeAccepted
            + ", Number of draft tokens: "
            + cumulativeDrafted
            + ", Number of emitted tokens: "
            + cumulativeEmitted
            + ".");
    out.line(
        LineSink.ENGINE_LOG,
        t.end(),
        Fmt.vllmV0Prefix(t.end(), "spec_decode_worker.py:1090")
            + "SpecDecodeWorker stage times: average_time_per_proposal_tok_ms="
            + Fmt.f2(s.draftMs / s.passes / k)
            + " scoring_time_ms="
            + Fmt.f2(s.verifyMs / s.passes)
            + " verification_time_ms="
            + Fmt.f2(s.overheadMs / s.passes));
  }
}
