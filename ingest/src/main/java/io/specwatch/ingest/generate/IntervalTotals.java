package io.specwatch.ingest.generate;

import java.time.Instant;

/** Ticks summed over a logging interval (vLLM prints every few seconds). */
final class IntervalTotals {

  final int k;
  Instant from;
  long cycles;
  long accepted;
  long emitted;
  long promptTokens;
  long passes;
  double elapsedMs;
  double draftMs;
  double verifyMs;
  double overheadMs;
  long[] position;

  IntervalTotals(int k) {
    this.k = k;
    this.position = new long[k];
  }

  void add(Tick t) {
    if (from == null) {
      from = t.start();
    }
    cycles += t.cycles();
    accepted += t.accepted();
    emitted += t.emitted();
    passes += t.passes();
    elapsedMs += t.durationMs();
    draftMs += t.draftMs() * t.passes();
    verifyMs += t.verifyMs() * t.passes();
    overheadMs += t.overheadMs() * t.passes();
    long[] p = t.positionAccepted(k);
    for (int i = 0; i < k; i++) {
      position[i] += p[i];
    }
    for (Tick.RequestStep r : t.batch()) {
      promptTokens += r.promptTokens();
    }
  }

  long drafted() {
    return cycles * k;
  }

  double seconds() {
    return elapsedMs / 1000.0;
  }

  /** Whether at least {@code ms} of event time passed since the interval began. */
  boolean due(Instant now, long ms) {
    return from != null && !now.isBefore(from.plusMillis(ms));
  }

  IntervalTotals reset() {
    return new IntervalTotals(k);
  }
}
