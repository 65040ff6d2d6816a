package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.time.Instant;
import java.util.Objects;

/**
 * Running sums of one deployment's tumbling window. Every derived metric is a ratio of sums, so
 * accumulators {@link #merge merge} associatively (future session windows, scale-out).
 *
 * <p>Weights: an event weighs {@code cycles} (null means 1) in cycle-weighted means; NaN and
 * infinite inputs count as missing.
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
    return this;
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
    return m;
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

  /** The final WindowResult of this window; fields outside this slice keep their defaults. */
  public WindowResult toResult(String deploymentId, long windowStartMs, long windowEndMs) {
    return WindowResult.newBuilder()
        .setDeploymentId(deploymentId)
        .setWindowStart(Instant.ofEpochMilli(windowStartMs))
        .setWindowEnd(Instant.ofEpochMilli(windowEndMs))
        .setEvents(events)
        .setCycles(cycles)
        .setSpecEnabled(true)
        .setMeanAcceptLength(meanAcceptLength())
        .setAcceptRate(acceptRate())
        .setAcceptedTokens(acceptedTokens)
        .setDraftedTokens(draftedTokens)
        .setMeanCycleMs(meanCycleMs())
        .setEffectiveTokSPerRequest(effectiveTokSPerRequest())
        .setBatchTokS(batchTokS())
        .setMeanBatchSize(meanBatchSize())
        .build();
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
        && batchSizeCycles == a.batchSizeCycles;
  }

  @Override
  public int hashCode() {
    return Objects.hash(events, cycles, acceptLengthWeighted, cycleMsWeighted, batchSizeWeighted);
  }

  @Override
  public String toString() {
    return "WindowAccumulator{events=" + events + ", cycles=" + cycles + "}";
  }
}
