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

  /** Drops non-speculative events (counted in {@link #NON_SPECULATIVE_METRIC}). */
  public static final String SPECULATIVE_FILTER = "speculative-events-filter";

  /** Grouping by deploymentId (already the record key: no repartition topic). */
  public static final String GROUP_BY_DEPLOYMENT = "group-by-deployment";

  /** Windowed aggregation processor. */
  public static final String WINDOW_AGGREGATE = "acceptance-window-aggregate";

  /** Window store of the aggregation (and its changelog topic suffix). */
  public static final String WINDOW_STORE = "acceptance-window-store";

  /** Table-to-stream conversion of the closed windows. */
  public static final String WINDOW_TO_STREAM = "acceptance-window-to-stream";

  /** Mapping of a closed window accumulator to a WindowResult. */
  public static final String WINDOW_TO_RESULT = "acceptance-window-to-result";

  /** Sink processor writing the window-results topic. */
  public static final String WINDOW_RESULTS_SINK = "window-results-sink";

  /** Operation name of the sensor counting skipped (non-speculative or null) events. */
  public static final String NON_SPECULATIVE_METRIC = "non-speculative-skipped";

  /** Metric scope of the custom sensors: metric group {@code stream-specwatch-metrics}. */
  public static final String METRIC_SCOPE = "specwatch";

  private TopologyNames() {}
}
