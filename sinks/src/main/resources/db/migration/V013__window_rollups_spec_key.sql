-- The window rollups (V010) gain spec_enabled in their key (issue 5). V012 put spec_enabled in
-- window_results' key, but the rollup tables, their materialized views and the window_hourly /
-- window_daily views still grouped by (deployment, prompt category, batch bucket, period), so a
-- deployment's speculative and plain windows were merged into one rollup row (tau and speedup
-- averaged over both sides). Now every rollup row is one spec side; a reader wanting both merges the
-- states over spec_enabled (sql/acceptance_trend.sql and sql/speculation_vs_baseline.sql read the
-- speculative side, spec_enabled = 1).
-- An AggregatingMergeTree's key cannot change in place, so: drop the views and the materialized
-- views, drop the rollup tables, create them with the new key, refill them from window_results FINAL
-- (exact: no replay double counts), recreate the materialized views and the views. Rows inserted into
-- window_results while this runs (the sink runs migrations at its start, before consuming) may be
-- missing from the rollups: Rollups.rebuild recomputes a month (sink rollups --rebuild-month).
-- Failure midway (statements run one by one, V13 recorded after the last): every statement can run
-- again from the start (IF EXISTS / IF NOT EXISTS, the refill follows the re-create of empty tables).
-- DROP TABLE (not DROP VIEW) also drops views on 18.16.
DROP TABLE IF EXISTS ${database}.window_rollup_hourly_mv;

DROP TABLE IF EXISTS ${database}.window_rollup_daily_mv;

DROP TABLE IF EXISTS ${database}.window_hourly;

DROP TABLE IF EXISTS ${database}.window_daily;

DROP TABLE IF EXISTS ${database}.window_rollup_hourly;

DROP TABLE IF EXISTS ${database}.window_rollup_daily;

CREATE TABLE IF NOT EXISTS ${database}.window_rollup_hourly
(
    deployment_id ${LowCardinality(String)},
    prompt_category ${LowCardinality(String)},
    batch_bucket ${LowCardinality(String)},
    spec_enabled UInt8,
    period_start DateTime('UTC'),
    windows_state AggregateFunction(count),
    events_state AggregateFunction(sum, Int64),
    cycles_state AggregateFunction(sum, Int64),
    requests_state AggregateFunction(sum, Int64),
    accepted_tokens_state AggregateFunction(sum, Int64),
    drafted_tokens_state AggregateFunction(sum, Int64),
    late_events_state AggregateFunction(sum, Int64),
    tau_cycles_state AggregateFunction(sum, Int64),
    tau_x_cycles_state AggregateFunction(sum, Float64),
    tau_min_state AggregateFunction(min, Float64),
    cycle_ms_cycles_state AggregateFunction(sum, Int64),
    cycle_ms_x_cycles_state AggregateFunction(sum, Float64),
    tok_s_cycles_state AggregateFunction(sum, Int64),
    tok_s_x_cycles_state AggregateFunction(sum, Float64),
    baseline_tok_s_cycles_state AggregateFunction(sum, Int64),
    baseline_tok_s_x_cycles_state AggregateFunction(sum, Float64),
    break_even_cycles_state AggregateFunction(sum, Int64),
    break_even_x_cycles_state AggregateFunction(sum, Float64),
    speedup_cycles_state AggregateFunction(sum, Int64),
    speedup_x_cycles_state AggregateFunction(sum, Float64),
    below_break_even_windows_state AggregateFunction(sum, UInt64),
    verify_ms_p99_max_state AggregateFunction(max, Float64)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(period_start)
ORDER BY (deployment_id, prompt_category, batch_bucket, spec_enabled, period_start)
${ttl(period_start + INTERVAL 800 DAY)};

CREATE TABLE IF NOT EXISTS ${database}.window_rollup_daily
(
    deployment_id ${LowCardinality(String)},
    prompt_category ${LowCardinality(String)},
    batch_bucket ${LowCardinality(String)},
    spec_enabled UInt8,
    period_start DateTime('UTC'),
    windows_state AggregateFunction(count),
    events_state AggregateFunction(sum, Int64),
    cycles_state AggregateFunction(sum, Int64),
    requests_state AggregateFunction(sum, Int64),
    accepted_tokens_state AggregateFunction(sum, Int64),
    drafted_tokens_state AggregateFunction(sum, Int64),
    late_events_state AggregateFunction(sum, Int64),
    tau_cycles_state AggregateFunction(sum, Int64),
    tau_x_cycles_state AggregateFunction(sum, Float64),
    tau_min_state AggregateFunction(min, Float64),
    cycle_ms_cycles_state AggregateFunction(sum, Int64),
    cycle_ms_x_cycles_state AggregateFunction(sum, Float64),
    tok_s_cycles_state AggregateFunction(sum, Int64),
    tok_s_x_cycles_state AggregateFunction(sum, Float64),
    baseline_tok_s_cycles_state AggregateFunction(sum, Int64),
    baseline_tok_s_x_cycles_state AggregateFunction(sum, Float64),
    break_even_cycles_state AggregateFunction(sum, Int64),
    break_even_x_cycles_state AggregateFunction(sum, Float64),
    speedup_cycles_state AggregateFunction(sum, Int64),
    speedup_x_cycles_state AggregateFunction(sum, Float64),
    below_break_even_windows_state AggregateFunction(sum, UInt64),
    verify_ms_p99_max_state AggregateFunction(max, Float64)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(period_start)
ORDER BY (deployment_id, prompt_category, batch_bucket, spec_enabled, period_start)
${ttl(period_start + INTERVAL 1830 DAY)};

INSERT INTO ${database}.window_rollup_hourly
SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    spec_enabled,
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
FROM ${database}.window_results FINAL
GROUP BY deployment_id, prompt_category, batch_bucket, spec_enabled, period_start;

INSERT INTO ${database}.window_rollup_daily
SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    spec_enabled,
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
FROM ${database}.window_results FINAL
GROUP BY deployment_id, prompt_category, batch_bucket, spec_enabled, period_start;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.window_rollup_hourly_mv
TO ${database}.window_rollup_hourly
AS SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    spec_enabled,
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
GROUP BY deployment_id, prompt_category, batch_bucket, spec_enabled, period_start;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.window_rollup_daily_mv
TO ${database}.window_rollup_daily
AS SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    spec_enabled,
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
GROUP BY deployment_id, prompt_category, batch_bucket, spec_enabled, period_start;

CREATE VIEW IF NOT EXISTS ${database}.window_hourly AS
SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    spec_enabled,
    period_start,
    countMerge(windows_state) AS windows,
    sumMerge(events_state) AS events,
    sumMerge(cycles_state) AS cycles,
    sumMerge(requests_state) AS requests,
    sumMerge(accepted_tokens_state) AS accepted_tokens,
    sumMerge(drafted_tokens_state) AS drafted_tokens,
    sumMerge(late_events_state) AS late_events,
    sumMerge(tau_cycles_state) AS tau_cycles,
    sumMerge(tau_x_cycles_state) AS tau_x_cycles,
    if(sumMerge(tau_cycles_state) = 0, NULL, sumMerge(tau_x_cycles_state) / sumMerge(tau_cycles_state)) AS tau,
    if(isInfinite(minMerge(tau_min_state)), NULL, minMerge(tau_min_state)) AS tau_min,
    sumMerge(cycle_ms_cycles_state) AS cycle_ms_cycles,
    sumMerge(cycle_ms_x_cycles_state) AS cycle_ms_x_cycles,
    if(sumMerge(cycle_ms_cycles_state) = 0, NULL, sumMerge(cycle_ms_x_cycles_state) / sumMerge(cycle_ms_cycles_state)) AS mean_cycle_ms,
    sumMerge(tok_s_cycles_state) AS tok_s_cycles,
    sumMerge(tok_s_x_cycles_state) AS tok_s_x_cycles,
    if(sumMerge(tok_s_cycles_state) = 0, NULL, sumMerge(tok_s_x_cycles_state) / sumMerge(tok_s_cycles_state)) AS effective_tok_s,
    sumMerge(baseline_tok_s_cycles_state) AS baseline_tok_s_cycles,
    sumMerge(baseline_tok_s_x_cycles_state) AS baseline_tok_s_x_cycles,
    if(sumMerge(baseline_tok_s_cycles_state) = 0, NULL, sumMerge(baseline_tok_s_x_cycles_state) / sumMerge(baseline_tok_s_cycles_state)) AS baseline_tok_s,
    sumMerge(break_even_cycles_state) AS break_even_cycles,
    sumMerge(break_even_x_cycles_state) AS break_even_x_cycles,
    if(sumMerge(break_even_cycles_state) = 0, NULL, sumMerge(break_even_x_cycles_state) / sumMerge(break_even_cycles_state)) AS break_even_tau,
    sumMerge(speedup_cycles_state) AS speedup_cycles,
    sumMerge(speedup_x_cycles_state) AS speedup_x_cycles,
    if(sumMerge(speedup_cycles_state) = 0, NULL, sumMerge(speedup_x_cycles_state) / sumMerge(speedup_cycles_state)) AS speedup,
    sumMerge(below_break_even_windows_state) AS below_break_even_windows,
    maxMerge(verify_ms_p99_max_state) AS verify_ms_p99_max
FROM ${database}.window_rollup_hourly
GROUP BY deployment_id, prompt_category, batch_bucket, spec_enabled, period_start;

CREATE VIEW IF NOT EXISTS ${database}.window_daily AS
SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    spec_enabled,
    period_start,
    countMerge(windows_state) AS windows,
    sumMerge(events_state) AS events,
    sumMerge(cycles_state) AS cycles,
    sumMerge(requests_state) AS requests,
    sumMerge(accepted_tokens_state) AS accepted_tokens,
    sumMerge(drafted_tokens_state) AS drafted_tokens,
    sumMerge(late_events_state) AS late_events,
    sumMerge(tau_cycles_state) AS tau_cycles,
    sumMerge(tau_x_cycles_state) AS tau_x_cycles,
    if(sumMerge(tau_cycles_state) = 0, NULL, sumMerge(tau_x_cycles_state) / sumMerge(tau_cycles_state)) AS tau,
    if(isInfinite(minMerge(tau_min_state)), NULL, minMerge(tau_min_state)) AS tau_min,
    sumMerge(cycle_ms_cycles_state) AS cycle_ms_cycles,
    sumMerge(cycle_ms_x_cycles_state) AS cycle_ms_x_cycles,
    if(sumMerge(cycle_ms_cycles_state) = 0, NULL, sumMerge(cycle_ms_x_cycles_state) / sumMerge(cycle_ms_cycles_state)) AS mean_cycle_ms,
    sumMerge(tok_s_cycles_state) AS tok_s_cycles,
    sumMerge(tok_s_x_cycles_state) AS tok_s_x_cycles,
    if(sumMerge(tok_s_cycles_state) = 0, NULL, sumMerge(tok_s_x_cycles_state) / sumMerge(tok_s_cycles_state)) AS effective_tok_s,
    sumMerge(baseline_tok_s_cycles_state) AS baseline_tok_s_cycles,
    sumMerge(baseline_tok_s_x_cycles_state) AS baseline_tok_s_x_cycles,
    if(sumMerge(baseline_tok_s_cycles_state) = 0, NULL, sumMerge(baseline_tok_s_x_cycles_state) / sumMerge(baseline_tok_s_cycles_state)) AS baseline_tok_s,
    sumMerge(break_even_cycles_state) AS break_even_cycles,
    sumMerge(break_even_x_cycles_state) AS break_even_x_cycles,
    if(sumMerge(break_even_cycles_state) = 0, NULL, sumMerge(break_even_x_cycles_state) / sumMerge(break_even_cycles_state)) AS break_even_tau,
    sumMerge(speedup_cycles_state) AS speedup_cycles,
    sumMerge(speedup_x_cycles_state) AS speedup_x_cycles,
    if(sumMerge(speedup_cycles_state) = 0, NULL, sumMerge(speedup_x_cycles_state) / sumMerge(speedup_cycles_state)) AS speedup,
    sumMerge(below_break_even_windows_state) AS below_break_even_windows,
    maxMerge(verify_ms_p99_max_state) AS verify_ms_p99_max
FROM ${database}.window_rollup_daily
GROUP BY deployment_id, prompt_category, batch_bucket, spec_enabled, period_start;
