package io.specwatch.ingest.normalise;

import io.specwatch.schemas.DecodeEvent;
import java.util.List;

/**
 * Values no engine can have, which the parsers let through because each is a well-formed number: an
 * event carrying one is dead-lettered (error class {@code ImplausibleValue}) instead of published.
 * Checked: every number is finite; counts, milliseconds and throughput are not negative; the
 * normalised accept length is at most {@link #MAX_ACCEPT_LENGTH}, the normalised acceptance rate
 * and every per-position acceptance at most 1; throughput at most {@link #MAX_TOKENS_PER_S}.
 */
public final class EventPlausibility {

  /** Accept length ceiling: 1 + the largest draft length any engine supports, with room. */
  public static final double MAX_ACCEPT_LENGTH = 1024;

  /** Throughput ceiling of one engine, tokens/s. */
  public static final double MAX_TOKENS_PER_S = 1e9;

  private static final double RATE_SLACK = 1e-9;

  private EventPlausibility() {}

  /** Why the event is implausible (naming the field and value), or null when it is plausible. */
  public static String problem(DecodeEvent e) {
    String p;
    if ((p = range("acceptLength", e.getAcceptLength(), 0, MAX_ACCEPT_LENGTH)) != null
        || (p = range("acceptRate", e.getAcceptRate(), 0, 1 + RATE_SLACK)) != null
        || (p = range("genThroughputTokS", e.getGenThroughputTokS(), 0, MAX_TOKENS_PER_S)) != null
        || (p = range("intervalMs", e.getIntervalMs(), 0, Double.MAX_VALUE)) != null
        || (p = range("draftMs", e.getDraftMs(), 0, Double.MAX_VALUE)) != null
        || (p = range("verifyMs", e.getVerifyMs(), 0, Double.MAX_VALUE)) != null
        || (p = range("overheadMs", e.getOverheadMs(), 0, Double.MAX_VALUE)) != null
        || (p = range("cycleMs", e.getCycleMs(), 0, Double.MAX_VALUE)) != null
        || (p = range("tokenUsage", e.getTokenUsage(), 0, Double.MAX_VALUE)) != null
        || (p = finite("rawAcceptRate", e.getRawAcceptRate())) != null
        || (p = count("decodePasses", e.getDecodePasses())) != null
        || (p = count("cycles", e.getCycles())) != null
        || (p = count("acceptedTokens", e.getAcceptedTokens())) != null
        || (p = count("draftedTokens", e.getDraftedTokens())) != null
        || (p = count("emittedTokens", e.getEmittedTokens())) != null
        || (p = count("runningRequests", toLong(e.getRunningRequests()))) != null
        || (p = count("queuedRequests", toLong(e.getQueuedRequests()))) != null) {
      return p;
    }
    List<Double> positions = e.getPerPositionAcceptance();
    for (int i = 0; i < positions.size(); i++) {
      if ((p = range("perPositionAcceptance[" + i + "]", positions.get(i), 0, 1 + RATE_SLACK))
          != null) {
        return p;
      }
    }
    List<Long> accepted = e.getPerPositionAccepted();
    for (int i = 0; i < accepted.size(); i++) {
      if ((p = count("perPositionAccepted[" + i + "]", accepted.get(i))) != null) {
        return p;
      }
    }
    return null;
  }

  /**
   * Whether an SGLang interval event with these values passes {@link #problem}: the values its line
   * gives without per-source state (its {@code intervalMs} and {@code cycleMs}, the ones with
   * state, are never negative or infinite, and its other fields are null or empty). The shipper's
   * pre-encoded SGLang path checks this before it writes such an event without building it; a line
   * that fails goes the normalisers' way and gets its dead letter there.
   */
  public static boolean sglangPlausible(
      Double acceptLength,
      Double acceptRate,
      double genThroughputTokS,
      double tokenUsage,
      Double rawAcceptRate,
      long decodePasses,
      long cycles,
      long acceptedTokens,
      long emittedTokens,
      int runningRequests,
      int queuedRequests) {
    return range("acceptLength", acceptLength, 0, MAX_ACCEPT_LENGTH) == null
        && range("acceptRate", acceptRate, 0, 1 + RATE_SLACK) == null
        && range("genThroughputTokS", genThroughputTokS, 0, MAX_TOKENS_PER_S) == null
        && range("tokenUsage", tokenUsage, 0, Double.MAX_VALUE) == null
        && finite("rawAcceptRate", rawAcceptRate) == null
        && (decodePasses | cycles | acceptedTokens | emittedTokens) >= 0
        && (runningRequests | queuedRequests) >= 0;
  }

  private static Long toLong(Integer v) {
    return v == null ? null : v.longValue();
  }

  private static String finite(String name, Double v) {
    return v != null && !Double.isFinite(v) ? name + " is not a finite number: " + v : null;
  }

  private static String range(String name, Double v, double min, double max) {
    if (v == null) {
      return null;
    }
    if (!Double.isFinite(v)) {
      return name + " is not a finite number: " + v;
    }
    if (v < min || v > max) {
      return name + " " + v + " is outside the plausible range [" + min + ", " + max + "]";
    }
    return null;
  }

  private static String count(String name, Long v) {
    return v != null && v < 0 ? name + " is negative: " + v : null;
  }
}
