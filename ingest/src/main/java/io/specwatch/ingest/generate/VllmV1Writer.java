package io.specwatch.ingest.generate;

/**
 * vLLM V1: every 10 s the {@code Engine 000:} throughput line, then (speculative deployments) the
 * spec-decoding line of the deployment's format generation, both stamped at the interval end; the
 * {@code Initializing a V1 LLM engine ... with config:} line at every segment start.
 */
final class VllmV1Writer implements FormatWriter {

  static final long INTERVAL_MS = 10_000;

  private final DeploymentSpec d;
  private IntervalTotals totals;

  VllmV1Writer(DeploymentSpec d) {
    this.d = d;
    this.totals = new IntervalTotals(d.method().speculative() ? d.draftTokens() : 0);
  }

  @Override
  public void tick(Tick t, LineSink out) {
    if (t.newSegment()) {
      out.line(
          LineSink.ENGINE_LOG,
          t.start(),
          Fmt.vllmPrefix(t.start(), "core.py:75") + VllmConfigLine.text(d, t.segment(), "V1"));
    }
    totals.add(t);
    if (!totals.due(t.end(), INTERVAL_MS)) {
      return;
    }
    IntervalTotals s = totals;
    totals = totals.reset();
    String prefix = Fmt.vllmPrefix(t.end(), "loggers.py:116");
    out.line(
        LineSink.ENGINE_LOG,
        t.end(),
        prefix
            + "Engine 000: Avg prompt throughput: "
            + Fmt.f(1, s.promptTokens / s.seconds())
            + " tokens/s, Avg generation throughput: "
            + Fmt.f(1, s.emitted / s.seconds())
            + " tokens/s, Running: "
            + t.running()
            + " reqs, Waiting: "
            + t.queued()
            + " reqs, GPU KV cache usage: "
            + Fmt.f(1, 100.0 * t.kvTokens() / d.kvCapacityTokens())
            + "%, Prefix cache hit rate: 0.0%");
    if (!d.method().speculative()) {
      return;
    }
    out.line(LineSink.ENGINE_LOG, t.end(), prefix + spec(s));
  }

  private String spec(IntervalTotals s) {
    double rate = s.drafted() == 0 ? 0 : (double) s.accepted / s.drafted();
    double tau = 1.0 + (double) s.accepted / s.cycles;
    String accepted = "Accepted: " + s.accepted + " tokens, Drafted: " + s.drafted() + " tokens";
    return switch (d.format()) {
      case VLLM_V1_SPEC_V1 ->
          "Speculative metrics: Draft acceptance rate: "
              + Fmt.f(3, rate)
              + ", Number of accepted tokens: "
              + s.accepted
              + ", Number of draft tokens: "
              + s.drafted()
              + ", ";
      case VLLM_V1_SPEC_V2 ->
          "SpecDecoding metrics: Draft acceptance rate: " + Fmt.f(1, 100 * rate) + "%, " + accepted;
      case VLLM_V1_SPEC_V3 ->
          "SpecDecoding metrics: Draft acceptance rate: "
              + Fmt.f(1, 100 * rate)
              + "%, Mean acceptance length: "
              + Fmt.f2(tau)
              + ", "
              + accepted
              + ", Per-position acceptance rate: "
              + perPosition(s);
      default ->
          "SpecDecoding metrics: Mean acceptance length: "
              + Fmt.f2(tau)
              + ", Accepted throughput: "
              + Fmt.f2(s.accepted / s.seconds())
              + " tokens/s, Drafted throughput: "
              + Fmt.f2(s.drafted() / s.seconds())
              + " tokens/s, "
              + accepted
              + ", Per-position acceptance rate: "
              + perPosition(s)
              + ", Avg Draft acceptance rate: "
              + Fmt.f(1, 100 * rate)
              + "%";
    };
  }

  private static String perPosition(IntervalTotals s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.k; i++) {
      sb.append(i == 0 ? "" : ", ").append(Fmt.f(3, (double) s.position[i] / s.cycles));
    }
    return sb.toString();
  }
}
