package io.specwatch.streams.alert;

import io.specwatch.schemas.Alert;
import io.specwatch.schemas.AlertState;
import io.specwatch.schemas.AlertType;
import io.specwatch.schemas.WindowResult;
import io.specwatch.streams.TaskSensors;
import io.specwatch.streams.TopologyNames;
import io.specwatch.streams.alert.Hysteresis.Observation;
import io.specwatch.streams.alert.Hysteresis.Transition;
import io.specwatch.streams.alert.RegressionDetector.MetricPoint;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * Evaluates the alert rules on each deployment's final window results (the "*" / "*" rows of
 * speculative deployments) and forwards raise and clear events. See docs/DESIGN.md, Alerts.
 *
 * <p>State (all changelogged): {@link TopologyNames#ALERT_HYSTERESIS_STORE} (deployment|TYPE ->
 * {@link Hysteresis.State}) for SPEC_BELOW_BASELINE and ACCEPT_COLLAPSE, {@link
 * TopologyNames#ALERT_REGRESSION_STORE} (deployment -> {@link RegressionDetector.State}), {@link
 * TopologyNames#ALERT_LAST_SEEN_STORE} (deployment -> {@link LastSeen}) for NO_DATA; it reads
 * {@link TopologyNames#RUN_CONTEXT_HISTORY_STORE} for attribution.
 */
final class AlertProcessor implements Processor<String, WindowResult, String, Alert> {
  /** Keys per alert state store whose value stays deserialized on the heap. */
  static final int HEAP_STATES = 4096;

  private final AlertConfig config;
  private final RegressionDetector detector;
  private ProcessorContext<String, Alert> context;
  private HeapStateCache<Hysteresis.State> hysteresis;
  private HeapStateCache<RegressionDetector.State> regression;
  private HeapStateCache<LastSeen> lastSeen;
  private KeyValueStore<String, RunContextHistory> history;
  private Sensor raised;
  private Sensor cleared;
  private Sensor outOfOrder;
  private long initWallMs;
  private long clock = Long.MIN_VALUE; // newest window end seen: the alert stream time

  AlertProcessor(AlertConfig config) {
    this.config = config;
    this.detector = new RegressionDetector(config);
  }

  @Override
  public void init(ProcessorContext<String, Alert> context) {
    this.context = context;
    clock = Long.MIN_VALUE; // init() runs again on this instance after a task revive: re-read it
    // heap copies of the stores only this processor writes, new on every init (a revived task
    // restores its stores); the run-context history is written by another processor: read as is
    hysteresis =
        new HeapStateCache<>(
            context.getStateStore(TopologyNames.ALERT_HYSTERESIS_STORE), HEAP_STATES);
    regression =
        new HeapStateCache<>(
            context.getStateStore(TopologyNames.ALERT_REGRESSION_STORE), HEAP_STATES);
    lastSeen =
        new HeapStateCache<>(
            context.getStateStore(TopologyNames.ALERT_LAST_SEEN_STORE), HEAP_STATES);
    history = context.getStateStore(TopologyNames.RUN_CONTEXT_HISTORY_STORE);
    raised =
        TaskSensors.rateTotal(
            context.metrics(), context.taskId(), TopologyNames.ALERTS_RAISED_METRIC);
    cleared =
        TaskSensors.rateTotal(
            context.metrics(), context.taskId(), TopologyNames.ALERTS_CLEARED_METRIC);
    outOfOrder =
        TaskSensors.rateTotal(
            context.metrics(), context.taskId(), TopologyNames.ALERT_WINDOWS_OUT_OF_ORDER_METRIC);
    initWallMs = context.currentSystemTimeMs();
    context.schedule(
        config.noDataCheckInterval(), PunctuationType.WALL_CLOCK_TIME, this::wallClockCheck);
  }

  @Override
  public void process(Record<String, WindowResult> record) {
    String deployment = record.key();
    WindowResult w = record.value();
    if (deployment == null || w == null) {
      return;
    }
    long start = w.getWindowStart().toEpochMilli();
    long end = w.getWindowEnd().toEpochMilli();
    if (clock == Long.MIN_VALUE) {
      // before this window is recorded: read after it, the restored clock would already be its
      // end, and the first window after an init() would skip the stream-time silence check
      clock = restoredClock();
    }
    LastSeen seen = lastSeen.get(deployment);
    if (seen != null && start <= seen.lastWindowStart()) {
      // a window that arrives after a newer one of its deployment (it overtook it on the way,
      // docs/DESIGN.md, Window order) or again: evaluating it would put it out of order in the
      // streaks and the regression's reference, so the rules skip it; counted
      outOfOrder.record();
      return;
    }
    if (w.getEvents() > 0 || w.getCycles() > 0) {
      // a window made only of late events (the aggregation opens one at stream time to count
      // them) is no sign of life: a dead engine whose old lines are replayed stays silent
      dataReturned(deployment, w, start, end);
    }
    if (end > clock) {
      clock = end;
      silenceCheck(clock, "stream-time", true);
    }
    boolean conclusive = w.getCycles() >= config.minCycles();
    Double speedup = w.getSpeedup();
    threshold(
        deployment,
        AlertType.SPEC_BELOW_BASELINE,
        w,
        !conclusive || speedup == null || speedup.isNaN()
            ? Observation.INCONCLUSIVE
            : speedup < config.belowBaselineSpeedup() ? Observation.BREACH : Observation.HEALTHY);
    Double tau = w.getMeanAcceptLength();
    threshold(
        deployment,
        AlertType.ACCEPT_COLLAPSE,
        w,
        !conclusive || tau == null || tau.isNaN()
            ? Observation.INCONCLUSIVE
            : tau <= config.collapseAcceptLength() ? Observation.BREACH : Observation.HEALTHY);
    if (conclusive) {
      regression(deployment, w);
    }
  }

  // ---- NO_DATA ----------------------------------------------------------------------------

  private void dataReturned(String deployment, WindowResult w, long start, long end) {
    LastSeen seen = lastSeen.get(deployment);
    if (seen != null && seen.noDataRaised()) {
      Map<String, String> ev = new LinkedHashMap<>();
      ev.put("lastWindowEnd", Instant.ofEpochMilli(seen.lastWindowEnd()).toString());
      ev.put("gapMs", Long.toString(start - seen.lastWindowEnd()));
      ev.put("cycles", Long.toString(w.getCycles()));
      emit(
          Alerts.alert(
              deployment,
              AlertType.NO_DATA,
              AlertState.CLEARED,
              start,
              end,
              "windows",
              1.0,
              null,
              null,
              null,
              "data returned after a gap of " + (start - seen.lastWindowEnd()) / 1000 + " s",
              ev));
    }
    long lastStart = seen == null ? start : Math.max(seen.lastWindowStart(), start);
    long lastEnd = seen == null ? end : Math.max(seen.lastWindowEnd(), end);
    lastSeen.put(
        deployment, new LastSeen(lastStart, lastEnd, context.currentSystemTimeMs(), false));
  }

  private long restoredClock() {
    long max = Long.MIN_VALUE;
    try (KeyValueIterator<String, LastSeen> it = lastSeen.store().all()) {
      while (it.hasNext()) {
        max = Math.max(max, it.next().value.lastWindowEnd());
      }
    }
    return max;
  }

  private void wallClockCheck(long nowMs) {
    silenceCheck(nowMs, "wall-clock", false);
  }

  /**
   * Raises NO_DATA for every deployment silent for at least the configured silence. streamTime:
   * {@code now} is the alert stream time (newest window end) compared with the deployment's last
   * window end, and its last window was processed at least the check interval ago in wall-clock
   * time (a lagging partition in a replay is behind, not silent); otherwise {@code now} is
   * wall-clock compared with when its last window was processed (or the processor started,
   * whichever is later).
   */
  private void silenceCheck(long now, String trigger, boolean streamTime) {
    long silence = config.noDataSilence().toMillis();
    long wallNow = context.currentSystemTimeMs();
    long arrivalGuard = config.noDataCheckInterval().toMillis();
    List<KeyValue<String, LastSeen>> silent = new ArrayList<>();
    try (KeyValueIterator<String, LastSeen> it = lastSeen.store().all()) {
      while (it.hasNext()) {
        KeyValue<String, LastSeen> kv = it.next();
        LastSeen s = kv.value;
        long sinceArrival = wallNow - Math.max(s.lastArrivalWallMs(), initWallMs);
        boolean silentNow =
            streamTime
                // a deployment whose windows still arrive (a lagging partition in a replay) is
                // behind, not silent
                ? now - s.lastWindowEnd() >= silence && sinceArrival >= arrivalGuard
                : sinceArrival >= silence;
        if (!s.noDataRaised() && silentNow) {
          silent.add(kv);
        }
      }
    }
    for (KeyValue<String, LastSeen> kv : silent) {
      LastSeen s = kv.value;
      Map<String, String> ev = new LinkedHashMap<>();
      ev.put("lastWindowStart", Instant.ofEpochMilli(s.lastWindowStart()).toString());
      ev.put("lastWindowEnd", Instant.ofEpochMilli(s.lastWindowEnd()).toString());
      ev.put("silence", config.noDataSilence().toString());
      ev.put("trigger", trigger);
      ev.put(streamTime ? "streamTime" : "wallClock", Instant.ofEpochMilli(now).toString());
      emit(
          Alerts.alert(
              kv.key,
              AlertType.NO_DATA,
              AlertState.RAISED,
              s.lastWindowEnd(), // the first missing window: the same id whichever check fires
              s.lastWindowEnd() + silence,
              "windows",
              0.0,
              null,
              null,
              null,
              "no window since "
                  + Instant.ofEpochMilli(s.lastWindowEnd())
                  + " ("
                  + trigger
                  + " silence >= "
                  + config.noDataSilence()
                  + ")",
              ev));
      lastSeen.put(
          kv.key,
          new LastSeen(s.lastWindowStart(), s.lastWindowEnd(), s.lastArrivalWallMs(), true));
    }
  }

  // ---- SPEC_BELOW_BASELINE, ACCEPT_COLLAPSE ------------------------------------------------

  private void threshold(String deployment, AlertType type, WindowResult w, Observation obs) {
    String key = deployment + "|" + type.name();
    Hysteresis.State before = hysteresis.get(key);
    if (before == null) {
      before = Hysteresis.State.INITIAL;
    }
    long start = w.getWindowStart().toEpochMilli();
    Hysteresis.Step step =
        Hysteresis.step(before, obs, start, config.raiseWindows(), config.clearWindows());
    if (!step.state().equals(before)) {
      hysteresis.put(key, step.state());
    }
    if (step.transition() == Transition.NONE) {
      return;
    }
    emit(ThresholdAlerts.alert(deployment, type, w, step, config));
  }

  // ---- REGRESSION --------------------------------------------------------------------------

  private void regression(String deployment, WindowResult w) {
    RegressionDetector.State before = regression.get(deployment);
    RegressionDetector.Outcome out =
        detector.step(
            before == null ? RegressionDetector.State.INITIAL : before, MetricPoint.of(w));
    regression.put(deployment, out.state());
    if (out.transition() == Transition.NONE) {
      return;
    }
    Optional<RunContextHistory.Change> change = Optional.empty();
    if (out.transition() == Transition.RAISE) {
      RunContextHistory h = history.get(deployment);
      change =
          h == null
              ? Optional.empty()
              : h.changeIn(out.referenceLastStart(), w.getWindowEnd().toEpochMilli());
    }
    emit(RegressionAlerts.alert(deployment, w, out, change, config));
  }

  private void emit(Alert alert) {
    (alert.getState() == AlertState.RAISED ? raised : cleared).record();
    context.forward(
        new Record<>(alert.getDeploymentId(), alert, alert.getEmittedAt().toEpochMilli()));
  }
}
