package io.specwatch.ingest.generate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Simulates one deployment tick by tick from the scenario start to its end: request arrivals and
 * lengths, the batch size, per-request acceptance (a chain of per-position Bernoulli trials with
 * the category's decaying probabilities), and draft/verify/overhead times with per-cycle noise and
 * a per-minute system-state factor. Deterministic for a seed; each deployment has its own stream.
 */
public final class DeploymentSimulator {

  /** How often the target batch size is redrawn, ms of event time. */
  private static final double BATCH_REDRAW_MS = 5_000;

  private final DeploymentSpec spec;
  private final long seed;
  private final Instant start;
  private final Instant end;
  private final Rng rnd;
  private final List<Active> active = new ArrayList<>();
  private double clockMs;
  private long tickIndex;
  private long step;
  private long requestSeq;
  private int targetBatch;
  private double nextBatchDrawMs;
  private Segment lastSegment;

  private static final class Active {
    final String id;
    final String category;
    final String promptHash;
    final long promptTokens;
    final long targetOutput;
    final Instant startedAt;
    long cycles;
    long accepted;
    long[] histogram;
    boolean fresh = true;

    Active(
        String id,
        String category,
        String promptHash,
        long promptTokens,
        long targetOutput,
        Instant startedAt,
        int k) {
      this.id = id;
      this.category = category;
      this.promptHash = promptHash;
      this.promptTokens = promptTokens;
      this.targetOutput = targetOutput;
      this.startedAt = startedAt;
      this.histogram = new long[k + 1];
    }

    long output() {
      return cycles + accepted;
    }
  }

  public DeploymentSimulator(DeploymentSpec spec, long seed, Instant start, Instant end) {
    this.spec = spec;
    this.seed = Rng.derive(seed, spec.id());
    this.start = start;
    this.end = end;
    this.rnd = new Rng(this.seed);
  }

  public DeploymentSpec spec() {
    return spec;
  }

  /** The next tick, or null once the end is reached. */
  public Tick next() {
    Instant tickStart = at(clockMs);
    if (!tickStart.isBefore(end)) {
      return null;
    }
    Segment segment = spec.segmentAt(tickStart);
    boolean newSegment = segment != lastSegment;
    lastSegment = segment;
    if (clockMs >= nextBatchDrawMs) {
      double sd = 0.6 * Math.sqrt(spec.meanBatch());
      targetBatch = (int) Math.max(1, Math.round(spec.meanBatch() + sd * rnd.gaussian()));
      nextBatchDrawMs = clockMs + BATCH_REDRAW_MS;
    }
    int k = spec.method().speculative() ? spec.draftTokens() : 0;
    while (active.size() < Math.min(targetBatch, spec.maxBatch())) {
      active.add(newRequest(segment, tickStart, k));
    }
    int queued = Math.max(0, targetBatch - spec.maxBatch());
    int batch = active.size();
    int passes = spec.format().passesPerTick();

    PerfModel perf = segment.perf();
    double factor = windowFactor(tickStart, perf);
    double noise = Math.max(0.5, 1 + perf.cycleNoise() * rnd.gaussian() / Math.sqrt(passes));
    double scale = factor * noise;
    double draft = 0;
    double verify = 0;
    double overhead = 0;
    double cycle;
    if (spec.method().speculative()) {
      draft = perf.draft(batch, spec.numSteps()) * scale;
      verify = perf.verify(batch) * scale;
      overhead = perf.overheadMs() * scale;
      cycle = draft + verify + overhead;
    } else {
      cycle = perf.tAr(batch) * scale;
    }

    List<Tick.RequestStep> steps = new ArrayList<>(batch);
    for (Active a : active) {
      long[] position = new long[k];
      long[] hist = new long[k + 1];
      long reach = passes;
      List<Double> alpha = k == 0 ? List.of() : segment.acceptance().alphas().get(a.category);
      for (int i = 0; i < k; i++) {
        long next = rnd.binomial(reach, alpha.get(i));
        position[i] = next;
        hist[i] = reach - next;
        reach = next;
      }
      hist[k] = reach;
      long promptTokens = a.fresh ? a.promptTokens : 0;
      a.fresh = false;
      Tick.RequestStep s =
          new Tick.RequestStep(a.id, a.category, passes, position, hist, promptTokens);
      a.cycles += passes;
      a.accepted += s.accepted();
      for (int i = 0; i <= k; i++) {
        a.histogram[i] += hist[i];
      }
      steps.add(s);
    }
    double startMs = clockMs;
    clockMs += passes * cycle;
    Instant tickEnd = at(clockMs);
    List<Tick.FinishedRequest> finished = new ArrayList<>();
    long kv = 0;
    for (var it = active.iterator(); it.hasNext(); ) {
      Active a = it.next();
      if (a.output() >= a.targetOutput) {
        it.remove();
        finished.add(
            new Tick.FinishedRequest(
                a.id,
                a.category,
                a.promptHash,
                a.promptTokens,
                a.output(),
                a.cycles,
                a.accepted,
                a.cycles * k,
                a.histogram.clone(),
                a.startedAt));
      } else {
        kv += a.promptTokens + a.output();
      }
    }
    Tick tick =
        new Tick(
            tickIndex++,
            step,
            at(startMs),
            tickEnd,
            passes,
            cycle,
            draft,
            verify,
            overhead,
            queued,
            kv,
            steps,
            finished,
            segment,
            newSegment);
    step += passes;
    return tick;
  }

  private Active newRequest(Segment segment, Instant now, int k) {
    requestSeq++;
    String category = rnd.weighted(segment.acceptance().weights());
    long prompt = 200 + rnd.nextInt(1800);
    long output =
        Math.max(
            16,
            Math.min(8192, Math.round(spec.meanOutputTokens() * Math.exp(0.5 * rnd.gaussian()))));
    String id = String.format(Locale.ROOT, "%s-r%06d", spec.id(), requestSeq);
    return new Active(id, category, rnd.hex(16), prompt, output, now, k);
  }

  /**
   * The system-state factor of the event-time minute {@code t} falls in: forced by the scenario, or
   * lognormal with the segment's window noise, drawn from a stream of its own so it does not depend
   * on tick boundaries.
   */
  double windowFactor(Instant t, PerfModel perf) {
    long minute = Math.floorDiv(t.getEpochSecond(), 60);
    Double forced = spec.forcedWindowFactors().get(minute);
    if (forced != null) {
      return forced;
    }
    if (perf.windowNoise() <= 0) {
      return 1.0;
    }
    Rng r = new Rng(Rng.derive(seed, minute));
    return Math.exp(perf.windowNoise() * r.gaussian());
  }

  private Instant at(double ms) {
    return start.plusNanos(Math.round(ms * 1_000_000.0));
  }
}
