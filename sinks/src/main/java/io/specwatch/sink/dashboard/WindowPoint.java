package io.specwatch.sink.dashboard;

import java.util.List;

/**
 * One window of one deployment, merged over its prompt categories and batch buckets: every metric
 * is the cycle-weighted mean of the slices that have it (percentiles too: a cycle-weighted mean of
 * the slices' percentiles, an approximation of the merged percentile), null when no slice has it.
 */
public record WindowPoint(
    long t,
    long cycles,
    long events,
    long lateEvents,
    Double tau,
    Double tauStar,
    Double effectiveTokS,
    Double baselineTokS,
    Double speedup,
    Double draftMsP50,
    Double draftMsP95,
    Double draftMsP99,
    Double verifyMsP50,
    Double verifyMsP95,
    Double verifyMsP99,
    Double cycleMsP50,
    Double cycleMsP95,
    Double cycleMsP99,
    List<Double> perPosition) {}
