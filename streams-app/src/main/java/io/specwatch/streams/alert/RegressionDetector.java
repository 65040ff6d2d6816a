package io.specwatch.streams.alert;

import io.specwatch.schemas.WindowResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * REGRESSION: a recent block of windows against a trailing reference block, per metric, with
 * Welch's t-test, Bonferroni across the metrics tested, a minimum relative effect and a minimum
 * shift in reference standard deviations. A pure function of the state, kept in a state store per
 * deployment.
 *
 * <p>A window is a breach when some metric is worse, by at least the minimum effect and by at least
 * {@code minShiftSds} of the reference's window-to-window standard deviation, with a
 * Bonferroni-adjusted p below 1 - confidence; healthy when no metric is worse by the minimum effect
 * (so a clear needs the recent block back near the reference, not merely a test that stopped being
 * significant); otherwise inconclusive.
 *
 * <p>The reference only takes windows that leave the recent block while nothing is suspected (not
 * raised, no breach streak). Windows leaving it during a breach streak or while raised are held
 * back: appended to the reference if the streak ends without a raise, discarded when a raised
 * regression recovers, or made the new reference when it does not recover within {@code
 * rebaselineWindows} windows (cleared with reason {@code rebaselined}). So a new regime never
 * poisons the reference it is tested against.
 */
public final class RegressionDetector {

  /** A metric tested for a shift, and which direction is worse. */
  public enum Metric {
    VERIFY_MS_P50("verifyMsP50", true, MetricPoint::verifyMsP50),
    MEAN_CYCLE_MS("meanCycleMs", true, MetricPoint::meanCycleMs),
    MEAN_ACCEPT_LENGTH("meanAcceptLength", false, MetricPoint::meanAcceptLength),
    EFFECTIVE_TOK_S("effectiveTokSPerRequest", false, MetricPoint::effectiveTokS);

    private final String field;
    private final boolean higherIsWorse;
    private final Function<MetricPoint, Double> value;

    Metric(String field, boolean higherIsWorse, Function<MetricPoint, Double> value) {
      this.field = field;
      this.higherIsWorse = higherIsWorse;
      this.value = value;
    }

    /** WindowResult field name. */
    public String field() {
      return field;
    }

    /** True when an increase is a regression (times), false when a decrease is (tau, tok/s). */
    public boolean higherIsWorse() {
      return higherIsWorse;
    }

    Double of(MetricPoint p) {
      return value.apply(p);
    }
  }

  /**
   * The tested values of one window.
   *
   * @param windowStart window start, epoch ms
   * @param windowEnd window end, epoch ms
   * @param verifyMsP50 WindowResult.verifyMsP50
   * @param meanCycleMs WindowResult.meanCycleMs
   * @param meanAcceptLength WindowResult.meanAcceptLength
   * @param effectiveTokS WindowResult.effectiveTokSPerRequest
   */
  public record MetricPoint(
      long windowStart,
      long windowEnd,
      Double verifyMsP50,
      Double meanCycleMs,
      Double meanAcceptLength,
      Double effectiveTokS) {

    /** The point of {@code w}; NaN and infinite values become null (not tested). */
    public static MetricPoint of(WindowResult w) {
      return new MetricPoint(
          w.getWindowStart().toEpochMilli(),
          w.getWindowEnd().toEpochMilli(),
          finite(w.getVerifyMsP50()),
          finite(w.getMeanCycleMs()),
          finite(w.getMeanAcceptLength()),
          finite(w.getEffectiveTokSPerRequest()));
    }

    private static Double finite(Double d) {
      return d == null || d.isNaN() || d.isInfinite() ? null : d;
    }
  }

  /**
   * Detector state of one deployment.
   *
   * @param reference trailing reference windows, oldest first
   * @param recent the recent block, oldest first
   * @param held windows that left the recent block while a shift was suspected
   * @param hysteresis raise/clear state
   * @param windowsSinceRaise windows seen since the raise (for rebaselining)
   */
  public record State(
      List<MetricPoint> reference,
      List<MetricPoint> recent,
      List<MetricPoint> held,
      Hysteresis.State hysteresis,
      int windowsSinceRaise) {
    /** Nothing seen yet. */
    public static final State INITIAL =
        new State(List.of(), List.of(), List.of(), Hysteresis.State.INITIAL, 0);

    public State {
      reference = List.copyOf(reference == null ? List.of() : reference);
      recent = List.copyOf(recent == null ? List.of() : recent);
      held = List.copyOf(held == null ? List.of() : held);
      hysteresis = hysteresis == null ? Hysteresis.State.INITIAL : hysteresis;
    }
  }

  /**
   * The test of one metric.
   *
   * @param metric the metric
   * @param test Welch's test, recent against reference
   * @param pAdjusted Bonferroni-adjusted p: min(1, p x metrics tested)
   * @param breach significant at the configured confidence, worse, and at least the minimum effect
   */
  public record MetricTest(Metric metric, WelchTest test, double pAdjusted, boolean breach) {}

  /**
   * The outcome of one window.
   *
   * @param state state after the window
   * @param transition raise, clear or none
   * @param tests the metric tests of this window (empty when not evaluated)
   * @param clearReason {@code recovered} or {@code rebaselined} on a clear, else null
   * @param referenceEnd end of the newest reference window (0 when none)
   * @param referenceLastStart start of the newest reference window (0 when none): a run-context
   *     change observed after it and up to the current window is attributed
   */
  public record Outcome(
      State state,
      Hysteresis.Transition transition,
      List<MetricTest> tests,
      String clearReason,
      long referenceEnd,
      long referenceLastStart) {

    /** The breaching test with the smallest p, if any. */
    public Optional<MetricTest> strongest() {
      return tests.stream()
          .filter(MetricTest::breach)
          .min((a, b) -> Double.compare(a.test().p(), b.test().p()));
    }
  }

  private final AlertConfig config;

  public RegressionDetector(AlertConfig config) {
    this.config = config;
  }

  /** Adds one (conclusive, enough cycles) window and evaluates. */
  public Outcome step(State s, MetricPoint point) {
    List<MetricPoint> reference = new ArrayList<>(s.reference());
    List<MetricPoint> recent = new ArrayList<>(s.recent());
    List<MetricPoint> held = new ArrayList<>(s.held());
    Hysteresis.State h = s.hysteresis();
    boolean suspected = h.raised() || h.breachStreak() > 0;

    recent.add(point);
    while (recent.size() > config.recentWindows()) {
      MetricPoint old = recent.remove(0);
      if (suspected) {
        addCapped(held, old);
      } else {
        addCapped(reference, old);
      }
    }

    List<MetricTest> tests = evaluate(reference, recent);
    Hysteresis.Observation obs;
    if (tests.isEmpty()) {
      obs = Hysteresis.Observation.INCONCLUSIVE;
    } else if (tests.stream().anyMatch(MetricTest::breach)) {
      obs = Hysteresis.Observation.BREACH;
    } else if (tests.stream().noneMatch(t -> worseByMinEffect(t.metric(), t.test()))) {
      obs = Hysteresis.Observation.HEALTHY;
    } else {
      // worse by the minimum effect but not significant: neither a breach nor a recovery
      obs = Hysteresis.Observation.INCONCLUSIVE;
    }
    Hysteresis.Step step =
        Hysteresis.step(h, obs, point.windowStart(), config.raiseWindows(), config.clearWindows());
    h = step.state();
    Hysteresis.Transition transition = step.transition();
    String clearReason = null;
    int sinceRaise = transition == Hysteresis.Transition.RAISE ? 0 : s.windowsSinceRaise();

    if (transition == Hysteresis.Transition.CLEAR) {
      held.clear(); // the windows of the regression that recovered are not a reference
      clearReason = "recovered";
      sinceRaise = 0;
    } else if (h.raised() && transition != Hysteresis.Transition.RAISE) {
      sinceRaise++;
      if (config.rebaselineWindows() > 0 && sinceRaise >= config.rebaselineWindows()) {
        reference = new ArrayList<>(held);
        held.clear();
        h = Hysteresis.State.INITIAL;
        transition = Hysteresis.Transition.CLEAR;
        clearReason = "rebaselined";
        sinceRaise = 0;
      }
    } else if (!h.raised() && obs == Hysteresis.Observation.HEALTHY && !held.isEmpty()) {
      // a breach streak that did not reach a raise: its windows were normal after all
      for (MetricPoint p : held) {
        addCapped(reference, p);
      }
      held.clear();
    }
    long referenceEnd = reference.isEmpty() ? 0L : reference.get(reference.size() - 1).windowEnd();
    long referenceLastStart =
        reference.isEmpty() ? 0L : reference.get(reference.size() - 1).windowStart();
    return new Outcome(
        new State(reference, recent, held, h, sinceRaise),
        transition,
        tests,
        clearReason,
        referenceEnd,
        referenceLastStart);
  }

  private List<MetricTest> evaluate(List<MetricPoint> reference, List<MetricPoint> recent) {
    if (recent.size() < config.recentWindows() || reference.size() < config.minReferenceWindows()) {
      return List.of();
    }
    List<Metric> metrics = new ArrayList<>();
    List<WelchTest> raw = new ArrayList<>();
    for (Metric m : Metric.values()) {
      double[] ref = values(reference, m);
      double[] rec = values(recent, m);
      if (ref.length >= config.minReferenceWindows() && rec.length >= 2) {
        metrics.add(m);
        raw.add(WelchTest.of(ref, rec));
      }
    }
    int family = metrics.size();
    List<MetricTest> out = new ArrayList<>(family);
    for (int i = 0; i < family; i++) {
      Metric m = metrics.get(i);
      WelchTest t = raw.get(i);
      double pAdjusted = Math.min(1.0, t.p() * family);
      boolean breach = pAdjusted < config.alpha() && worseByMinEffect(m, t) && beyondNoise(t);
      out.add(new MetricTest(m, t, pAdjusted, breach));
    }
    return out;
  }

  /**
   * Whether the shift is at least {@code minShiftSds} of the reference windows' standard deviation:
   * a shift one ordinary window's noise could explain is not a regression, however small its p (a
   * run of noisy windows can make Welch's test significant: a healthy vLLM deployment whose window
   * cycle ms vary by 12 % raised on a 0.9-sd shift in 1 of 8 demo runs).
   */
  private boolean beyondNoise(WelchTest t) {
    double shift = Math.abs(t.recentMean() - t.referenceMean());
    return t.referenceSd() == 0.0 ? shift > 0.0 : shift >= config.minShiftSds() * t.referenceSd();
  }

  /** Whether {@code m} moved in its worse direction by at least the minimum relative effect. */
  private boolean worseByMinEffect(Metric m, WelchTest t) {
    double effect = t.relativeEffect();
    boolean worse = m.higherIsWorse() ? effect > 0 : effect < 0;
    return worse && Math.abs(effect) >= config.minEffect();
  }

  private static double[] values(List<MetricPoint> points, Metric m) {
    return points.stream()
        .map(m::of)
        .filter(v -> v != null)
        .mapToDouble(Double::doubleValue)
        .toArray();
  }

  private void addCapped(List<MetricPoint> list, MetricPoint p) {
    list.add(p);
    while (list.size() > config.referenceWindows()) {
      list.remove(0);
    }
  }
}
