package io.specwatch.sink.rows;

import io.specwatch.schemas.RequestAcceptance;
import java.time.Instant;
import java.util.List;

/** {@link RequestAcceptance} to one row of {@code request_acceptance} (V003, V006). */
public final class RequestAcceptanceRows implements RowMapping<RequestAcceptance> {

  public static final String TABLE = "request_acceptance";

  private static final List<String> COLUMNS =
      DecodeEventRows.withProvenance(
          "event_id",
          "request_id",
          "deployment_id",
          "host",
          "source",
          "engine",
          "finished_at",
          "finished_at_ms",
          "prompt_hash",
          "prompt_ref",
          "prompt_category",
          "model",
          "draft_model_version",
          "prompt_tokens",
          "output_tokens",
          "verify_cycles",
          "accepted_tokens",
          "drafted_tokens",
          "accept_length",
          "raw_accept_rate",
          "accept_histogram",
          "raw_fields_keys",
          "raw_fields_values",
          "run_context_id");

  @Override
  public Class<RequestAcceptance> type() {
    return RequestAcceptance.class;
  }

  /**
   * When the request finished ({@code finished_at_ms}; {@code finished_at}, the partition key, in
   * seconds).
   */
  @Override
  public Instant eventTime(RequestAcceptance r) {
    return r.getFinishedAt();
  }

  @Override
  public List<String> columns() {
    return COLUMNS;
  }

  @Override
  public void write(RequestAcceptance r, Source source, Instant insertedAt, ColumnWriter out) {
    out.string("event_id", r.getEventId());
    out.string("request_id", r.getRequestId());
    out.string("deployment_id", r.getDeploymentId());
    out.string("host", r.getHost());
    out.string("source", r.getSource());
    out.string("engine", r.getEngine().name());
    out.dateTime("finished_at", r.getFinishedAt());
    out.int64("finished_at_ms", r.getFinishedAt().toEpochMilli());
    out.nullableString("prompt_hash", r.getPromptHash());
    out.nullableString("prompt_ref", r.getPromptRef());
    out.nullableString("prompt_category", r.getPromptCategory());
    out.nullableString("model", r.getModel());
    out.nullableString("draft_model_version", r.getDraftModelVersion());
    out.nullableInt64("prompt_tokens", r.getPromptTokens());
    out.int64("output_tokens", r.getOutputTokens());
    out.int64("verify_cycles", r.getVerifyCycles());
    out.nullableInt64("accepted_tokens", r.getAcceptedTokens());
    out.nullableInt64("drafted_tokens", r.getDraftedTokens());
    out.float64("accept_length", r.getAcceptLength());
    out.nullableFloat64("raw_accept_rate", r.getRawAcceptRate());
    out.int64Array("accept_histogram", r.getAcceptHistogram());
    MapColumns.write("raw_fields", r.getRawFields(), out);
    out.nullableString("run_context_id", r.getRunContextId());
    RowMapping.provenance(source, insertedAt, out);
  }
}
