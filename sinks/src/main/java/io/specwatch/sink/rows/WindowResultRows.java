package io.specwatch.sink.rows;

import io.specwatch.schemas.WindowResult;
import java.time.Instant;
import java.util.List;

/**
 * {@link WindowResult} to one row of {@code window_results} (V001). Window bounds are whole
 * minutes, so second-precision DateTime loses nothing.
 */
public final class WindowResultRows implements RowMapping<WindowResult> {

  public static final String TABLE = "window_results";

  private static final List<String> COLUMNS =
      DecodeEventRows.withProvenance(
          "deployment_id",
          "prompt_category",
          "batch_bucket",
          "window_start",
          "window_end",
          "events",
          "cycles",
          "requests",
          "spec_enabled",
          "mean_accept_length",
          "accept_length_p50",
          "accept_length_p95",
          "accept_rate",
          "accepted_tokens",
          "drafted_tokens",
          "per_position_acceptance",
          "per_position_conditional",
          "draft_ms_p50",
          "draft_ms_p95",
          "draft_ms_p99",
          "verify_ms_p50",
          "verify_ms_p95",
          "verify_ms_p99",
          "cycle_ms_p50",
          "cycle_ms_p95",
          "cycle_ms_p99",
          "mean_cycle_ms",
          "effective_tok_s_per_request",
          "batch_tok_s",
          "mean_batch_size",
          "baseline_step_ms",
          "baseline_tok_s",
          "baseline_source",
          "speedup",
          "break_even_accept_length",
          "accept_margin",
          "run_context_id",
          "late_events");

  @Override
  public Class<WindowResult> type() {
    return WindowResult.class;
  }

  /** The window's start ({@code window_start}, the table's partition and sort key). */
  @Override
  public Instant eventTime(WindowResult w) {
    return w.getWindowStart();
  }

  @Override
  public List<String> columns() {
    return COLUMNS;
  }

  @Override
  public void write(WindowResult w, Source source, Instant insertedAt, ColumnWriter out) {
    out.string("deployment_id", w.getDeploymentId());
    out.string("prompt_category", w.getPromptCategory());
    out.string("batch_bucket", w.getBatchBucket());
    out.dateTime("window_start", w.getWindowStart());
    out.dateTime("window_end", w.getWindowEnd());
    out.int64("events", w.getEvents());
    out.int64("cycles", w.getCycles());
    out.int64("requests", w.getRequests());
    out.bool("spec_enabled", w.getSpecEnabled());
    out.nullableFloat64("mean_accept_length", w.getMeanAcceptLength());
    out.nullableFloat64("accept_length_p50", w.getAcceptLengthP50());
    out.nullableFloat64("accept_length_p95", w.getAcceptLengthP95());
    out.nullableFloat64("accept_rate", w.getAcceptRate());
    out.int64("accepted_tokens", w.getAcceptedTokens());
    out.int64("drafted_tokens", w.getDraftedTokens());
    out.float64Array("per_position_acceptance", w.getPerPositionAcceptance());
    out.float64Array("per_position_conditional", w.getPerPositionConditional());
    out.nullableFloat64("draft_ms_p50", w.getDraftMsP50());
    out.nullableFloat64("draft_ms_p95", w.getDraftMsP95());
    out.nullableFloat64("draft_ms_p99", w.getDraftMsP99());
    out.nullableFloat64("verify_ms_p50", w.getVerifyMsP50());
    out.nullableFloat64("verify_ms_p95", w.getVerifyMsP95());
    out.nullableFloat64("verify_ms_p99", w.getVerifyMsP99());
    out.nullableFloat64("cycle_ms_p50", w.getCycleMsP50());
    out.nullableFloat64("cycle_ms_p95", w.getCycleMsP95());
    out.nullableFloat64("cycle_ms_p99", w.getCycleMsP99());
    out.nullableFloat64("mean_cycle_ms", w.getMeanCycleMs());
    out.nullableFloat64("effective_tok_s_per_request", w.getEffectiveTokSPerRequest());
    out.nullableFloat64("batch_tok_s", w.getBatchTokS());
    out.nullableFloat64("mean_batch_size", w.getMeanBatchSize());
    out.nullableFloat64("baseline_step_ms", w.getBaselineStepMs());
    out.nullableFloat64("baseline_tok_s", w.getBaselineTokS());
    out.nullableString("baseline_source", w.getBaselineSource());
    out.nullableFloat64("speedup", w.getSpeedup());
    out.nullableFloat64("break_even_accept_length", w.getBreakEvenAcceptLength());
    out.nullableFloat64("accept_margin", w.getAcceptMargin());
    out.nullableString("run_context_id", w.getRunContextId());
    out.int64("late_events", w.getLateEvents());
    RowMapping.provenance(source, insertedAt, out);
  }
}
