package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Running sums of one deployment's tumbling window. Every derived metric is a ratio of sums, so
 * accumulators {@link #merge merge} associatively (future session windows, scale-out).
 *
 * <p>Weights: an event weighs {@code cycles} (null means 1) in cycle-weighted means and in the
 * percentile sketches; NaN and infinite inputs count as missing.
 *
 * <p>Per position: {@code perPositionAccepted[i]} sums the cycles whose i-th draft token was
 * accepted (the event's counts, else its shares times its cycles) over the {@code
 * perPositionCycles} cycles that carried per-position data; a position an event did not draft
 * counts as not accepted.
 *
 * <p>Percentiles come from {@link WeightedQuantiles} (DDSketch, 1% relative accuracy): a reported
 * percentile is within 1% of the true value at its rank; sketches merge by adding bin counts, so
 * the accumulator stays associative.
 */
public final class WindowAccumulator {
  long events;
  long cycles;
  double acceptLengthWeighted;
  long acceptLengthCycles;
  long acceptedTokens;
  long draftedTokens;
  double cycleMsWeighted;
  long cycleMsCycles;
  double throughputTimed;
  double throughputIntervalMs;
  long throughputTimedEvents;
  double throughputUntimed;
  long throughputUntimedEvents;
  double batchSizeWeighted;
  long batchSizeCycles;
  double[] perPositionAccepted = new double[0];
  long perPositionCycles;
  WeightedQuantiles draftMs = new WeightedQuantiles();
  WeightedQuantiles verifyMs = new WeightedQuantiles();
  WeightedQuantiles cycleMs = new WeightedQuantiles();
  WeightedQuantiles acceptLength = new WeightedQuantiles();
  long lateEvents;

  /** An empty accumulator (the window's initial value). */
  public static WindowAccumulator empty() {
    return new WindowAccumulator();
  }

  /** Adds one event; returns this accumulator. */
  public WindowAccumulator add(DecodeEvent event) {
    long weight = event.getCycles() == null ? 1L : Math.max(0L, event.getCycles());
    events++;
    cycles += weight;
    if (isFinite(event.getAcceptLength())) {
      acceptLengthWeighted += event.getAcceptLength() * weight;
      acceptLengthCycles += weight;
    }
    acceptedTokens += event.getAcceptedTokens() == null ? 0L : event.getAcceptedTokens();
    draftedTokens += event.getDraftedTokens() == null ? 0L : event.getDraftedTokens();
    if (isFinite(event.getCycleMs())) {
      cycleMsWeighted += event.getCycleMs() * weight;
      cycleMsCycles += weight;
    }
    if (isFinite(event.getGenThroughputTokS())) {
      Double interval = event.getIntervalMs();
      if (isFinite(interval) && interval > 0) {
        throughputTimed += event.getGenThroughputTokS() * interval;
        throughputIntervalMs += interval;
        throughputTimedEvents++;
      } else {
        throughputUntimed += event.getGenThroughputTokS();
        throughputUntimedEvents++;
      }
    }
    if (event.getRunningRequests() != null) {
      batchSizeWeighted += (double) event.getRunningRequests() * weight;
      batchSizeCycles += weight;
    }
    addPerPosition(event, weight);
    draftMs.add(event.getDraftMs(), weight);
    verifyMs.add(event.getVerifyMs(), weight);
    cycleMs.add(event.getCycleMs(), weight);
    acceptLength.add(event.getAcceptLength(), weight);
    return this;
  }

  private void addPerPosition(DecodeEvent event, long weight) {
    List<Long> counts = event.getPerPositionAccepted();
    List<Double> shares = event.getPerPositionAcceptance();
    if (weight == 0) {
      return;
    }
    if (counts != null && !counts.isEmpty()) {
      grow(counts.size());
      for (int i = 0; i < counts.size(); i++) {
        perPositionAccepted[i] += counts.get(i) == null ? 0L : Math.max(0L, counts.get(i));
      }
      perPositionCycles += weight;
    } else if (shares != null
        && !shares.isEmpty()
        && shares.stream().allMatch(WindowAccumulator::isFinite)) {
      grow(shares.size());
      for (int i = 0; i < shares.size(); i++) {
        perPositionAccepted[i] += shares.get(i) * weight;
      }
      perPositionCycles += weight;
    }
  }

  private void grow(int positions) {
    if (perPositionAccepted.length < positions) {
      perPositionAccepted = Arrays.copyOf(perPositionAccepted, positions);
    }
  }

  /** Sums of both accumulators, as a new accumulator. */
  public WindowAccumulator merge(WindowAccumulator other) {
    WindowAccumulator m = new WindowAccumulator();
    m.events = events + other.events;
    m.cycles = cycles + other.cycles;
    m.acceptLengthWeighted = acceptLengthWeighted + other.acceptLengthWeighted;
    m.acceptLengthCycles = acceptLengthCycles + other.acceptLengthCycles;
    m.acceptedTokens = acceptedTokens + other.acceptedTokens;
    m.draftedTokens = draftedTokens + other.draftedTokens;
    m.cycleMsWeighted = cycleMsWeighted + other.cycleMsWeighted;
    m.cycleMsCycles = cycleMsCycles + other.cycleMsCycles;
    m.throughputTimed = throughputTimed + other.throughputTimed;
    m.throughputIntervalMs = throughputIntervalMs + other.throughputIntervalMs;
    m.throughputTimedEvents = throughputTimedEvents + other.throughputTimedEvents;
    m.throughputUntimed = throughputUntimed + other.throughputUntimed;
    m.throughputUntimedEvents = throughputUntimedEvents + other.throughputUntimedEvents;
    m.batchSizeWeighted = batchSizeWeighted + other.batchSizeWeighted;
    m.batchSizeCycles = batchSizeCycles + other.batchSizeCycles;
    m.perPositionAccepted =
        new double[Math.max(perPositionAccepted.length, other.perPositionAccepted.length)];
    for (int i = 0; i < m.perPositionAccepted.length; i++) {
      m.perPositionAccepted[i] =
          (i < perPositionAccepted.length ? perPositionAccepted[i] : 0.0)
              + (i < other.perPositionAccepted.length ? other.perPositionAccepted[i] : 0.0);
    }
    m.perPositionCycles = perPositionCycles + other.perPositionCycles;
    m.draftMs = draftMs.merge(other.draftMs);
    m.verifyMs = verifyMs.merge(other.verifyMs);
    m.cycleMs = cycleMs.merge(other.cycleMs);
    m.acceptLength = acceptLength.merge(other.acceptLength);
    m.lateEvents = lateEvents + other.lateEvents;
    return m;
  }

  /**
   * Counts one event that arrived after its own window had closed (it adds nothing else); returns
   * this accumulator.
   */
  public WindowAccumulator addLate() {
    lateEvents++;
    return this;
  }

  /** Late events counted in this window (see {@link #addLate}). */
  public long lateEvents() {
    return lateEvents;
  }

  /** Cycle-weighted mean accept length tau, or null without any tau. */
  public Double meanAcceptLength() {
    return ratio(acceptLengthWeighted, acceptLengthCycles);
  }

  /** Cycle-weighted mean cycle time in ms, or null without any cycleMs. */
  public Double meanCycleMs() {
    return ratio(cycleMsWeighted, cycleMsCycles);
  }

  /** accepted / drafted tokens, or null when nothing was drafted. */
  public Double acceptRate() {
    return ratio(acceptedTokens, draftedTokens);
  }

  /** 1000 * tau / T_cyc, or null when either is unknown. */
  public Double effectiveTokSPerRequest() {
    Double tau = meanAcceptLength();
    Double cycleMs = meanCycleMs();
    return tau == null || cycleMs == null || cycleMs <= 0 ? null : 1000.0 * tau / cycleMs;
  }

  /**
   * Time-weighted mean of gen throughput by intervalMs; events without an interval weigh as the
   * mean interval of the others, or 1 ms when none has one. Null without any throughput.
   */
  public Double batchTokS() {
    double untimedWeight =
        throughputTimedEvents > 0 ? throughputIntervalMs / throughputTimedEvents : 1.0;
    double weight = throughputIntervalMs + untimedWeight * throughputUntimedEvents;
    return ratio(throughputTimed + untimedWeight * throughputUntimed, weight);
  }

  /** Cycle-weighted mean running requests, or null without any. */
  public Double meanBatchSize() {
    return ratio(batchSizeWeighted, batchSizeCycles);
  }

  /**
   * Share of per-position cycles accepting draft position i (unconditional); empty without data.
   */
  public List<Double> perPositionAcceptance() {
    List<Double> shares = new ArrayList<>(perPositionAccepted.length);
    if (perPositionCycles > 0) {
      for (double accepted : perPositionAccepted) {
        shares.add(accepted / perPositionCycles);
      }
    }
    return shares;
  }

  /**
   * Share accepting position i among cycles accepting position i-1 (position 0: among all
   * per-position cycles); 0 where nothing accepted position i-1. Empty without data.
   */
  public List<Double> perPositionConditional() {
    List<Double> shares = new ArrayList<>(perPositionAccepted.length);
    if (perPositionCycles > 0) {
      double previous = perPositionCycles;
      for (double accepted : perPositionAccepted) {
        shares.add(previous > 0 ? accepted / previous : 0.0);
        previous = accepted;
      }
    }
    return shares;
  }

  /** The speculative total row ({@code *}, {@code *}) of this window. */
  public WindowResult toResult(String deploymentId, long windowStartMs, long windowEndMs) {
    return toResult(deploymentId, BreakdownKey.total(true), windowStartMs, windowEndMs);
  }

  /**
   * The final WindowResult of this window and breakdown row; the baseline fields are left null (the
   * baseline stage fills them).
   */
  public WindowResult toResult(
      String deploymentId, BreakdownKey row, long windowStartMs, long windowEndMs) {
    // the all-fields constructor: a builder deep-copied the default of every unset field
    return new WindowResult(
        deploymentId,
        row.promptCategory(),
        row.batchBucket(),
        Instant.ofEpochMilli(windowStartMs),
        Instant.ofEpochMilli(windowEndMs),
        events,
        cycles,
        0L, // requests: not counted by the window (schema default)
        row.specEnabled(),
        meanAcceptLength(),
        acceptLength.quantile(0.50),
        acceptLength.quantile(0.95),
        acceptRate(),
        acceptedTokens,
        draftedTokens,
        perPositionAcceptance(),
        perPositionConditional(),
        draftMs.quantile(0.50),
        draftMs.quantile(0.95),
        draftMs.quantile(0.99),
        verifyMs.quantile(0.50),
        verifyMs.quantile(0.95),
        verifyMs.quantile(0.99),
        cycleMs.quantile(0.50),
        cycleMs.quantile(0.95),
        cycleMs.quantile(0.99),
        meanCycleMs(),
        effectiveTokSPerRequest(),
        batchTokS(),
        meanBatchSize(),
        null, // baselineStepMs .. acceptMargin: the baseline stage's
        null,
        null,
        null,
        null,
        null,
        null, // runContextId: the run-context lookup's
        lateEvents);
  }

  private static boolean isFinite(Double value) {
    return value != null && Double.isFinite(value);
  }

  private static Double ratio(double numerator, double denominator) {
    return denominator > 0 ? numerator / denominator : null;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof WindowAccumulator a)) {
      return false;
    }
    return events == a.events
        && cycles == a.cycles
        && Double.compare(acceptLengthWeighted, a.acceptLengthWeighted) == 0
        && acceptLengthCycles == a.acceptLengthCycles
        && acceptedTokens == a.acceptedTokens
        && draftedTokens == a.draftedTokens
        && Double.compare(cycleMsWeighted, a.cycleMsWeighted) == 0
        && cycleMsCycles == a.cycleMsCycles
        && Double.compare(throughputTimed, a.throughputTimed) == 0
        && Double.compare(throughputIntervalMs, a.throughputIntervalMs) == 0
        && throughputTimedEvents == a.throughputTimedEvents
        && Double.compare(throughputUntimed, a.throughputUntimed) == 0
        && throughputUntimedEvents == a.throughputUntimedEvents
        && Double.compare(batchSizeWeighted, a.batchSizeWeighted) == 0
        && batchSizeCycles == a.batchSizeCycles
        && Arrays.equals(perPositionAccepted, a.perPositionAccepted)
        && perPositionCycles == a.perPositionCycles
        && draftMs.equals(a.draftMs)
        && verifyMs.equals(a.verifyMs)
        && cycleMs.equals(a.cycleMs)
        && acceptLength.equals(a.acceptLength)
        && lateEvents == a.lateEvents;
  }

  @Override
  public int hashCode() {
    return Objects.hash(events, cycles, acceptLengthWeighted, cycleMsWeighted, batchSizeWeighted);
  }

  @Override
  public String toString() {
    return "WindowAccumulator{events="
        + events
        + ", cycles="
        + cycles
        + ", lateEvents="
        + lateEvents
        + "}";
  }
}
