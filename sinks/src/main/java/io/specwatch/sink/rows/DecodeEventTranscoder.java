package io.specwatch.sink.rows;

import io.specwatch.schemas.DecodeEvent;
import io.specwatch.schemas.Engine;
import io.specwatch.schemas.EventKind;
import java.io.IOException;

/** {@link DecodeEventRows} straight from the Avro bytes of the current {@link DecodeEvent}. */
final class DecodeEventTranscoder extends RowTranscoder {

  private static final Engine[] ENGINES = Engine.values();
  private static final EventKind[] KINDS = EventKind.values();

  DecodeEventTranscoder() {
    super(DecodeEvent.SCHEMA$);
  }

  @Override
  protected void row() throws IOException {
    string(); // event_id
    string(); // deployment_id
    string(); // host
    string(); // source
    nullableInt64(); // source_offset
    nullableInt64(); // line_number
    enumName(ENGINES);
    string(); // format
    enumName(KINDS);
    long eventTime = dateTime("event_time");
    outInt64(eventTime); // event_time_ms
    dateTimeMs("ingest_time");
    nullableString(); // rank
    nullableInt32(); // tp_rank
    nullableInt32(); // dp_rank
    nullableInt32(); // ep_rank
    nullableString(); // request_id
    nullableString(); // prompt_category
    nullableFloat64(); // interval_ms
    nullableInt64(); // decode_passes
    nullableInt64(); // cycles
    nullableInt32(); // running_requests
    nullableInt32(); // queued_requests
    nullableFloat64(); // token_usage
    nullableFloat64(); // accept_length
    nullableFloat64(); // accept_rate
    nullableFloat64(); // raw_accept_rate
    nullableString(); // raw_accept_rate_definition
    nullableInt64(); // accepted_tokens
    nullableInt64(); // drafted_tokens
    nullableInt64(); // emitted_tokens
    float64Array(); // per_position_acceptance
    int64Array(); // per_position_accepted
    nullableFloat64(); // gen_throughput_tok_s
    nullableFloat64(); // draft_ms
    nullableFloat64(); // verify_ms
    nullableFloat64(); // overhead_ms
    nullableFloat64(); // cycle_ms
    nullableBool(); // cuda_graph
    bool(); // spec_enabled
    nullableString(); // run_context_id
    stringMap("raw_fields");
  }
}
