package io.specwatch.sink.rows;

import io.specwatch.schemas.WindowResult;
import java.io.IOException;

/** {@link WindowResultRows} straight from the Avro bytes of the current {@link WindowResult}. */
final class WindowResultTranscoder extends RowTranscoder {

  WindowResultTranscoder() {
    super(WindowResult.SCHEMA$);
  }

  @Override
  protected void row() throws IOException {
    string(); // deployment_id
    string(); // prompt_category
    string(); // batch_bucket
    dateTime("window_start");
    dateTime("window_end");
    int64(); // events
    int64(); // cycles
    int64(); // requests
    bool(); // spec_enabled
    nullableFloat64(); // mean_accept_length
    nullableFloat64(); // accept_length_p50
    nullableFloat64(); // accept_length_p95
    nullableFloat64(); // accept_rate
    int64(); // accepted_tokens
    int64(); // drafted_tokens
    float64Array(); // per_position_acceptance
    float64Array(); // per_position_conditional
    for (int i = 0; i < 9; i++) {
      nullableFloat64(); // draft/verify/cycle ms p50, p95, p99
    }
    for (int i = 0; i < 6; i++) {
      nullableFloat64(); // mean_cycle_ms .. baseline_tok_s
    }
    nullableString(); // baseline_source
    nullableFloat64(); // speedup
    nullableFloat64(); // break_even_accept_length
    nullableFloat64(); // accept_margin
    nullableString(); // run_context_id
    int64(); // late_events
  }
}
