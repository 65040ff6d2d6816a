-- window_results natural key gains spec_enabled (issue 5). streams-app emits one window row per
-- (deployment, spec side, prompt category, batch bucket, window): a deployment restarted with
-- speculation toggled inside a minute has a speculative and a plain row with the same old key
-- (V001), and FINAL / merges kept only one. ORDER BY (the ReplacingMergeTree key) cannot change in
-- place, so: copy every row into a table with the new key, swap names, drop the old table.
-- The V010 rollup materialized views read FROM window_results; a view is bound to its source table
-- (it would keep feeding from, or break with, the renamed old table), so they are dropped first and
-- recreated on the new table (same text as V010, same target tables, no POPULATE: the rollup
-- tables already hold every row). Rows inserted while this runs (the sink normally runs it at its
-- start, before consuming) reach window_results but not the rollups: Rollups.rebuild recomputes a
-- month (sink rollups --rebuild-month).
-- Failure midway (the Migrator runs statements one by one, records V12 only after the last): every
-- step can run again. window_results_v12 exists only before the swap (a leftover is dropped and
-- refilled); window_results_v11 exists only after the swap, when window_results already holds every
-- row (so dropping it first is safe). DROP TABLE (not DROP VIEW) also drops views on 18.16.
DROP TABLE IF EXISTS ${database}.window_rollup_hourly_mv;

DROP TABLE IF EXISTS ${database}.window_rollup_daily_mv;

DROP TABLE IF EXISTS ${database}.window_results_v11;

DROP TABLE IF EXISTS ${database}.window_results_v12;

CREATE TABLE ${database}.window_results_v12
(
    deployment_id ${LowCardinality(String)},
    prompt_category ${LowCardinality(String)},
    batch_bucket ${LowCardinality(String)},
    window_start DateTime('UTC') ${codec(DoubleDelta, ZSTD(1))},
    window_end DateTime('UTC') ${codec(DoubleDelta, ZSTD(1))},
    events Int64,
    cycles Int64,
    requests Int64,
    spec_enabled UInt8,
    mean_accept_length Nullable(Float64),
    accept_length_p50 Nullable(Float64),
    accept_length_p95 Nullable(Float64),
    accept_rate Nullable(Float64),
    accepted_tokens Int64,
    drafted_tokens Int64,
    per_position_acceptance Array(Float64) ${codec(ZSTD(1))},
    per_position_conditional Array(Float64) ${codec(ZSTD(1))},
    draft_ms_p50 Nullable(Float64),
    draft_ms_p95 Nullable(Float64),
    draft_ms_p99 Nullable(Float64),
    verify_ms_p50 Nullable(Float64),
    verify_ms_p95 Nullable(Float64),
    verify_ms_p99 Nullable(Float64),
    cycle_ms_p50 Nullable(Float64),
    cycle_ms_p95 Nullable(Float64),
    cycle_ms_p99 Nullable(Float64),
    mean_cycle_ms Nullable(Float64),
    effective_tok_s_per_request Nullable(Float64),
    batch_tok_s Nullable(Float64),
    mean_batch_size Nullable(Float64),
    baseline_step_ms Nullable(Float64),
    baseline_tok_s Nullable(Float64),
    baseline_source ${LowCardinality(Nullable(String))},
    speedup Nullable(Float64),
    break_even_accept_length Nullable(Float64),
    accept_margin Nullable(Float64),
    run_context_id Nullable(String),
    late_events Int64,
    kafka_topic ${LowCardinality(String)},
    kafka_partition Int32,
    kafka_offset Int64 ${codec(Delta, ZSTD(1))},
    inserted_at ${DateTimeMs}
)
ENGINE = ReplacingMergeTree(inserted_at)
PARTITION BY toYYYYMM(window_start)
ORDER BY (deployment_id, prompt_category, batch_bucket, spec_enabled, window_start)
${ttl(window_start + INTERVAL 400 DAY)}
${modern(SETTINGS non_replicated_deduplication_window = 1000)};

INSERT INTO ${database}.window_results_v12 SELECT * FROM ${database}.window_results;

RENAME TABLE ${database}.window_results TO ${database}.window_results_v11, ${database}.window_results_v12 TO ${database}.window_results;

DROP TABLE ${database}.window_results_v11;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.window_rollup_hourly_mv
TO ${database}.window_rollup_hourly
AS SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    toStartOfHour(window_start) AS period_start,
    countState() AS windows_state,
    sumState(events) AS events_state,
    sumState(cycles) AS cycles_state,
    sumState(requests) AS requests_state,
    sumState(accepted_tokens) AS accepted_tokens_state,
    sumState(drafted_tokens) AS drafted_tokens_state,
    sumState(late_events) AS late_events_state,
    sumState(if(isNull(mean_accept_length), toInt64(0), cycles)) AS tau_cycles_state,
    sumState(toFloat64(ifNull(mean_accept_length, 0) * cycles)) AS tau_x_cycles_state,
    minState(toFloat64(ifNull(mean_accept_length, inf))) AS tau_min_state,
    sumState(if(isNull(mean_cycle_ms), toInt64(0), cycles)) AS cycle_ms_cycles_state,
    sumState(toFloat64(ifNull(mean_cycle_ms, 0) * cycles)) AS cycle_ms_x_cycles_state,
    sumState(if(isNull(effective_tok_s_per_request), toInt64(0), cycles)) AS tok_s_cycles_state,
    sumState(toFloat64(ifNull(effective_tok_s_per_request, 0) * cycles)) AS tok_s_x_cycles_state,
    sumState(if(isNull(baseline_tok_s), toInt64(0), cycles)) AS baseline_tok_s_cycles_state,
    sumState(toFloat64(ifNull(baseline_tok_s, 0) * cycles)) AS baseline_tok_s_x_cycles_state,
    sumState(if(isNull(break_even_accept_length), toInt64(0), cycles)) AS break_even_cycles_state,
    sumState(toFloat64(ifNull(break_even_accept_length, 0) * cycles)) AS break_even_x_cycles_state,
    sumState(if(isNull(speedup), toInt64(0), cycles)) AS speedup_cycles_state,
    sumState(toFloat64(ifNull(speedup, 0) * cycles)) AS speedup_x_cycles_state,
    sumState(toUInt64(ifNull(accept_margin, 0) < 0)) AS below_break_even_windows_state,
    maxState(toFloat64(ifNull(verify_ms_p99, 0))) AS verify_ms_p99_max_state
FROM ${database}.window_results
GROUP BY deployment_id, prompt_category, batch_bucket, period_start;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.window_rollup_daily_mv
TO ${database}.window_rollup_daily
AS SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    toStartOfDay(window_start) AS period_start,
    countState() AS windows_state,
    sumState(events) AS events_state,
    sumState(cycles) AS cycles_state,
    sumState(requests) AS requests_state,
    sumState(accepted_tokens) AS accepted_tokens_state,
    sumState(drafted_tokens) AS drafted_tokens_state,
    sumState(late_events) AS late_events_state,
    sumState(if(isNull(mean_accept_length), toInt64(0), cycles)) AS tau_cycles_state,
    sumState(toFloat64(ifNull(mean_accept_length, 0) * cycles)) AS tau_x_cycles_state,
    minState(toFloat64(ifNull(mean_accept_length, inf))) AS tau_min_state,
    sumState(if(isNull(mean_cycle_ms), toInt64(0), cycles)) AS cycle_ms_cycles_state,
    sumState(toFloat64(ifNull(mean_cycle_ms, 0) * cycles)) AS cycle_ms_x_cycles_state,
    sumState(if(isNull(effective_tok_s_per_request), toInt64(0), cycles)) AS tok_s_cycles_state,
    sumState(toFloat64(ifNull(effective_tok_s_per_request, 0) * cycles)) AS tok_s_x_cycles_state,
    sumState(if(isNull(baseline_tok_s), toInt64(0), cycles)) AS baseline_tok_s_cycles_state,
    sumState(toFloat64(ifNull(baseline_tok_s, 0) * cycles)) AS baseline_tok_s_x_cycles_state,
    sumState(if(isNull(break_even_accept_length), toInt64(0), cycles)) AS break_even_cycles_state,
    sumState(toFloat64(ifNull(break_even_accept_length, 0) * cycles)) AS break_even_x_cycles_state,
    sumState(if(isNull(speedup), toInt64(0), cycles)) AS speedup_cycles_state,
    sumState(toFloat64(ifNull(speedup, 0) * cycles)) AS speedup_x_cycles_state,
    sumState(toUInt64(ifNull(accept_margin, 0) < 0)) AS below_break_even_windows_state,
    maxState(toFloat64(ifNull(verify_ms_p99, 0))) AS verify_ms_p99_max_state
FROM ${database}.window_results
GROUP BY deployment_id, prompt_category, batch_bucket, period_start;
