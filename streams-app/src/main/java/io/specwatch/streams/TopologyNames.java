package io.specwatch.streams;

/**
 * Stable names of every processor, store and internal topic of the topology.
 *
 * <p>State stores and changelog topics are named after these: renaming one orphans state in
 * production. Once released, add a {@code -v2} name instead of renaming.
 */
public final class TopologyNames {
  /** Source processor reading the decode-events topic. */
  public static final String DECODE_EVENTS_SOURCE = "decode-events-source";

  /** Source processor of the run-context table (topic keyed by deploymentId). */
  public static final String RUN_CONTEXT_SOURCE = "run-context-source";

  /** Store of the run-context table: deploymentId -> latest RunContext. */
  public static final String RUN_CONTEXT_STORE = "run-context-store";

  /** Validates keys ({@link EventGate}). */
  public static final String EVENT_GATE = "event-gate";

  /**
   * Windowed aggregation processor ({@link WindowAggregator}): tumbling windows per deployment, one
   * WindowResult per breakdown row of a closed window.
   */
  public static final String WINDOW_AGGREGATE = "acceptance-window-aggregate";

  /**
   * Key-value store of the open windows and the stream time ({@link OpenWindowStore}; changelog
   * topic suffix). It replaced the DSL window store {@code acceptance-window-store} (2026-12),
   * whose changelog an upgraded app no longer reads.
   */
  public static final String OPEN_WINDOW_STORE = "open-window-store";

  /** Looks up the run context, sets runContextId and keys the row by its comparison key. */
  public static final String RUN_CONTEXT_LOOKUP = "run-context-lookup";

  /** Repartition by comparison key (topic {@code <application.id>-baseline-by-key-repartition}). */
  public static final String BASELINE_REPARTITION = "baseline-by-key";

  /** Learns baselines from non-speculative rows and fills the baseline fields of the others. */
  public static final String BASELINE_JOIN = "baseline-join";

  /** Learned baselines: comparison key -> recent non-speculative windows' step times. */
  public static final String BASELINE_STORE = "baseline-store";

  /** Sink processor writing the window-results topic. */
  public static final String WINDOW_RESULTS_SINK = "window-results-sink";

  /** Table-to-stream conversion of run-context updates (input of the attribution history). */
  public static final String RUN_CONTEXT_CHANGES = "alert-run-context-changes";

  /** Repartition of run-context updates onto the alert partitions (topic suffix). */
  public static final String ALERT_RUN_CONTEXT_REPARTITION = "alert-run-contexts";

  /** Processor keeping the last run contexts per deployment. */
  public static final String RUN_CONTEXT_HISTORY = "alert-run-context-history";

  /** Store of the last run contexts per deployment (attribution of regressions). */
  public static final String RUN_CONTEXT_HISTORY_STORE = "alert-run-context-history-store";

  /** Keeps the per-deployment total rows of speculative deployments for the alert rules. */
  public static final String ALERT_WINDOW_FILTER = "alert-window-filter";

  /** Repartition of those rows onto the alert partitions (topic suffix). */
  public static final String ALERT_WINDOW_REPARTITION = "alert-window-results";

  /** Processor evaluating the alert rules. */
  public static final String ALERT_EVALUATOR = "alert-evaluator";

  /** Hysteresis state of SPEC_BELOW_BASELINE and ACCEPT_COLLAPSE (key deployment|TYPE). */
  public static final String ALERT_HYSTERESIS_STORE = "alert-hysteresis-store";

  /** REGRESSION detector state per deployment (reference and recent blocks). */
  public static final String ALERT_REGRESSION_STORE = "alert-regression-store";

  /** NO_DATA state per deployment (last window, arrival time). */
  public static final String ALERT_LAST_SEEN_STORE = "alert-last-seen-store";

  /** Sink processor writing the alerts topic. */
  public static final String ALERTS_SINK = "alerts-sink";

  /** Operation name of the sensor counting late events (events later than the grace). */
  public static final String LATE_EVENTS_METRIC = "late-events";

  /** Operation name of the sensor counting duplicate events (an event id seen before). */
  public static final String DUPLICATE_EVENTS_METRIC = "duplicate-events";

  /** Operation name of the sensor counting skipped records (tombstones). */
  public static final String SKIPPED_METRIC = "skipped-records";

  /** Operation name of the sensor counting alert raises ({@code alerts-raised-total}). */
  public static final String ALERTS_RAISED_METRIC = "alerts-raised";

  /** Operation name of the sensor counting alert clears ({@code alerts-cleared-total}). */
  public static final String ALERTS_CLEARED_METRIC = "alerts-cleared";

  /**
   * Operation name of the sensor counting window rows the alert rules skipped because a newer
   * window of their deployment had already been evaluated ({@code
   * alert-windows-out-of-order-total}).
   */
  public static final String ALERT_WINDOWS_OUT_OF_ORDER_METRIC = "alert-windows-out-of-order";

  /** Metric scope of the custom sensors: metric group {@code stream-specwatch-metrics}. */
  public static final String METRIC_SCOPE = "specwatch";

  private TopologyNames() {}
}
