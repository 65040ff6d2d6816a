package io.specwatch.streams;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.WindowResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The state of one deployment's tumbling window: one {@link WindowAccumulator} per {@link
 * BreakdownKey} row (speculative or not, prompt category, batch-size bucket).
 *
 * <p>Keeping every row of a deployment in one window value keeps the aggregation keyed by
 * deploymentId: no repartition topic, the results stay co-partitioned with the input and with the
 * run-context table, and one stream time closes every row of a deployment at once.
 */
public final class DeploymentWindow {
  final SortedMap<BreakdownKey, WindowAccumulator> rows;

  DeploymentWindow(SortedMap<BreakdownKey, WindowAccumulator> rows) {
    this.rows = rows;
  }

  /** An empty window (the aggregation's initial value). */
  public static DeploymentWindow empty() {
    return new DeploymentWindow(new TreeMap<>());
  }

  /** Adds one input to every row it counts in; returns this window. */
  public DeploymentWindow add(WindowInput input) {
    DecodeEvent event = input.event();
    for (BreakdownKey key : BreakdownKey.of(event)) {
      WindowAccumulator acc = rows.computeIfAbsent(key, k -> WindowAccumulator.empty());
      if (input.late()) {
        acc.addLate();
      } else {
        acc.add(event);
      }
    }
    return this;
  }

  /** Row-wise sums of both windows, as a new window. */
  public DeploymentWindow merge(DeploymentWindow other) {
    SortedMap<BreakdownKey, WindowAccumulator> m = new TreeMap<>();
    rows.forEach((k, v) -> m.put(k, WindowAccumulator.empty().merge(v)));
    other.rows.forEach((k, v) -> m.merge(k, v, WindowAccumulator::merge));
    return new DeploymentWindow(m);
  }

  /** The rows, read-only. */
  public Map<BreakdownKey, WindowAccumulator> rows() {
    return Collections.unmodifiableSortedMap(rows);
  }

  /** One WindowResult per row, speculative rows first, totals before breakdowns. */
  public List<WindowResult> toResults(String deploymentId, long windowStartMs, long windowEndMs) {
    List<WindowResult> results = new ArrayList<>(rows.size());
    rows.forEach(
        (key, acc) -> results.add(acc.toResult(deploymentId, key, windowStartMs, windowEndMs)));
    return results;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DeploymentWindow w && rows.equals(w.rows);
  }

  @Override
  public int hashCode() {
    return rows.hashCode();
  }

  @Override
  public String toString() {
    return "DeploymentWindow" + rows;
  }
}
