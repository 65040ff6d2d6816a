package io.specwatch.sink.rows;

import io.specwatch.schemas.DecodeEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@link DecodeEvent} to one row of {@code decode_events} (V002). */
public final class DecodeEventRows implements RowMapping<DecodeEvent> {

  public static final String TABLE = "decode_events";

  private static final List<String> COLUMNS =
      withProvenance(
          "event_id",
          "deployment_id",
          "host",
          "source",
          "source_offset",
          "line_number",
          "engine",
          "format",
          "kind",
          "event_time",
          "event_time_ms",
          "ingest_time",
          "rank",
          "tp_rank",
          "dp_rank",
          "ep_rank",
          "request_id",
          "prompt_category",
          "interval_ms",
          "decode_passes",
          "cycles",
          "running_requests",
          "queued_requests",
          "token_usage",
          "accept_length",
          "accept_rate",
          "raw_accept_rate",
          "raw_accept_rate_definition",
          "accepted_tokens",
          "drafted_tokens",
          "emitted_tokens",
          "per_position_acceptance",
          "per_position_accepted",
          "gen_throughput_tok_s",
          "draft_ms",
          "verify_ms",
          "overhead_ms",
          "cycle_ms",
          "cuda_graph",
          "spec_enabled",
          "run_context_id",
          "raw_fields_keys",
          "raw_fields_values");

  @Override
  public Class<DecodeEvent> type() {
    return DecodeEvent.class;
  }

  /**
   * The engine log's time of the event ({@code event_time_ms}; {@code event_time} is it in seconds,
   * the table's partition key).
   */
  @Override
  public Instant eventTime(DecodeEvent e) {
    return e.getEventTime();
  }

  @Override
  public List<String> columns() {
    return COLUMNS;
  }

  @Override
  public void write(DecodeEvent e, Source source, Instant insertedAt, ColumnWriter out) {
    out.string("event_id", e.getEventId());
    out.string("deployment_id", e.getDeploymentId());
    out.string("host", e.getHost());
    out.string("source", e.getSource());
    out.nullableInt64("source_offset", e.getSourceOffset());
    out.nullableInt64("line_number", e.getLineNumber());
    out.string("engine", e.getEngine().name());
    out.string("format", e.getFormat());
    out.string("kind", e.getKind().name());
    out.dateTime("event_time", e.getEventTime());
    out.int64("event_time_ms", e.getEventTime().toEpochMilli());
    out.dateTimeMs("ingest_time", e.getIngestTime());
    out.nullableString("rank", e.getRank());
    out.nullableInt32("tp_rank", e.getTpRank());
    out.nullableInt32("dp_rank", e.getDpRank());
    out.nullableInt32("ep_rank", e.getEpRank());
    out.nullableString("request_id", e.getRequestId());
    out.nullableString("prompt_category", e.getPromptCategory());
    out.nullableFloat64("interval_ms", e.getIntervalMs());
    out.nullableInt64("decode_passes", e.getDecodePasses());
    out.nullableInt64("cycles", e.getCycles());
    out.nullableInt32("running_requests", e.getRunningRequests());
    out.nullableInt32("queued_requests", e.getQueuedRequests());
    out.nullableFloat64("token_usage", e.getTokenUsage());
    out.nullableFloat64("accept_length", e.getAcceptLength());
    out.nullableFloat64("accept_rate", e.getAcceptRate());
    out.nullableFloat64("raw_accept_rate", e.getRawAcceptRate());
    out.nullableString("raw_accept_rate_definition", e.getRawAcceptRateDefinition());
    out.nullableInt64("accepted_tokens", e.getAcceptedTokens());
    out.nullableInt64("drafted_tokens", e.getDraftedTokens());
    out.nullableInt64("emitted_tokens", e.getEmittedTokens());
    out.float64Array("per_position_acceptance", e.getPerPositionAcceptance());
    out.int64Array("per_position_accepted", e.getPerPositionAccepted());
    out.nullableFloat64("gen_throughput_tok_s", e.getGenThroughputTokS());
    out.nullableFloat64("draft_ms", e.getDraftMs());
    out.nullableFloat64("verify_ms", e.getVerifyMs());
    out.nullableFloat64("overhead_ms", e.getOverheadMs());
    out.nullableFloat64("cycle_ms", e.getCycleMs());
    out.nullableBool("cuda_graph", e.getCudaGraph());
    out.bool("spec_enabled", e.getSpecEnabled());
    out.nullableString("run_context_id", e.getRunContextId());
    MapColumns.write("raw_fields", e.getRawFields(), out);
    RowMapping.provenance(source, insertedAt, out);
  }

  static List<String> withProvenance(String... columns) {
    List<String> all = new ArrayList<>(List.of(columns));
    all.addAll(PROVENANCE);
    return List.copyOf(all);
  }
}
