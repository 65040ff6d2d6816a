package io.specwatch.ingest.generate;

import java.time.Instant;
import java.util.Objects;

/**
 * From {@code from} on (until the next segment), a deployment runs with these true parameters and
 * this run context. A new segment is a restart or reconfiguration: instrumented deployments write a
 * new run-context line, SGLang and vLLM print their startup configuration again.
 */
public record Segment(Instant from, PerfModel perf, Acceptance acceptance, RunContextSpec context) {

  public Segment {
    Objects.requireNonNull(from, "from");
    Objects.requireNonNull(perf, "perf");
    Objects.requireNonNull(acceptance, "acceptance");
    Objects.requireNonNull(context, "context");
  }
}
