package io.specwatch.sink.dashboard;

import java.util.ArrayList;
import java.util.List;

/**
 * One row of {@code window_results} as the dashboard reads it: a (category, batch bucket) slice of
 * one window. {@link #METRICS} lists the nullable metric columns in the order of {@link
 * #metrics()}.
 */
record SliceRow(
    long t,
    String category,
    String bucket,
    boolean specEnabled,
    long cycles,
    long events,
    long lateEvents,
    Double[] metrics,
    List<Double> perPosition) {

  /** The "all categories" / "all batch sizes" marker of streams-app's total rows. */
  static final String ALL = "*";

  /** Whether this is a total row (every category and batch size of the window). */
  boolean isTotal() {
    return ALL.equals(category) && ALL.equals(bucket);
  }

  /** Nullable metric columns of window_results, in {@link WindowPoint}'s order. */
  static final List<String> METRICS =
      List.of(
          "mean_accept_length",
          "break_even_accept_length",
          "effective_tok_s_per_request",
          "baseline_tok_s",
          "speedup",
          "draft_ms_p50",
          "draft_ms_p95",
          "draft_ms_p99",
          "verify_ms_p50",
          "verify_ms_p95",
          "verify_ms_p99",
          "cycle_ms_p50",
          "cycle_ms_p95",
          "cycle_ms_p99");

  /** Columns selected, matching {@link #fromTsv(List)}. */
  static String selectList() {
    return "toUInt32(window_start) AS t, prompt_category, batch_bucket, spec_enabled, cycles, events,"
        + " late_events, "
        + String.join(", ", METRICS)
        + ", per_position_acceptance";
  }

  static SliceRow fromTsv(List<String> cells) {
    Double[] metrics = new Double[METRICS.size()];
    for (int i = 0; i < metrics.length; i++) {
      metrics[i] = number(cells.get(7 + i));
    }
    return new SliceRow(
        Long.parseLong(cells.get(0)),
        cells.get(1),
        cells.get(2),
        "1".equals(cells.get(3)),
        Long.parseLong(cells.get(4)),
        Long.parseLong(cells.get(5)),
        Long.parseLong(cells.get(6)),
        metrics,
        array(cells.get(7 + metrics.length)));
  }

  /** A Nullable(Float64) cell: null for NULL and for nan/inf (no meaningful value to chart). */
  static Double number(String cell) {
    if (cell == null || cell.isEmpty()) {
      return null;
    }
    double v;
    try {
      v = Double.parseDouble(cell);
    } catch (NumberFormatException e) {
      return null; // nan, inf, -inf as ClickHouse prints them
    }
    return Double.isFinite(v) ? v : null;
  }

  /** An Array(Float64) cell, {@code [0.8,0.6]}. */
  static List<Double> array(String cell) {
    String inner = cell.strip();
    if (inner.startsWith("[")) {
      inner = inner.substring(1, inner.length() - 1);
    }
    List<Double> out = new ArrayList<>();
    if (inner.isBlank()) {
      return out;
    }
    for (String part : inner.split(",")) {
      out.add(number(part.strip()));
    }
    return out;
  }
}
