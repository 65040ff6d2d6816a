-- Rollups of request_acceptance, hourly and daily, per (deployment, prompt category, model, draft
-- model version): AggregatingMergeTree tables fed by materialized views, and views that finalise
-- them (request_hourly, request_daily). Missing category / model / version are '' (sort keys
-- cannot be Nullable on modern servers). tau is weighted by verify cycles (= tokens emitted per
-- verify pass over all requests); tau_p10_p50_p90 are per-request quantiles (t-digest, approximate);
-- no_acceptance_requests counts requests with tau <= 1 (the broken-drafter signature).
-- Same replay caveat as V010: a replayed batch counts twice until Rollups.rebuild recomputes the
-- month from request_acceptance FINAL. State columns end in _state.

CREATE TABLE IF NOT EXISTS ${database}.request_rollup_hourly
(
    deployment_id ${LowCardinality(String)},
    prompt_category ${LowCardinality(String)},
    model ${LowCardinality(String)},
    draft_model_version ${LowCardinality(String)},
    period_start DateTime('UTC'),
    requests_state AggregateFunction(count),
    output_tokens_state AggregateFunction(sum, Int64),
    verify_cycles_state AggregateFunction(sum, Int64),
    accepted_tokens_state AggregateFunction(sum, Int64),
    drafted_tokens_state AggregateFunction(sum, Int64),
    tau_x_cycles_state AggregateFunction(sum, Float64),
    tau_quantiles_state AggregateFunction(quantilesTDigest(0.1, 0.5, 0.9), Float64),
    no_acceptance_requests_state AggregateFunction(sum, UInt64)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(period_start)
ORDER BY (deployment_id, prompt_category, model, draft_model_version, period_start)
${ttl(period_start + INTERVAL 800 DAY)};

CREATE TABLE IF NOT EXISTS ${database}.request_rollup_daily
(
    deployment_id ${LowCardinality(String)},
    prompt_category ${LowCardinality(String)},
    model ${LowCardinality(String)},
    draft_model_version ${LowCardinality(String)},
    period_start DateTime('UTC'),
    requests_state AggregateFunction(count),
    output_tokens_state AggregateFunction(sum, Int64),
    verify_cycles_state AggregateFunction(sum, Int64),
    accepted_tokens_state AggregateFunction(sum, Int64),
    drafted_tokens_state AggregateFunction(sum, Int64),
    tau_x_cycles_state AggregateFunction(sum, Float64),
    tau_quantiles_state AggregateFunction(quantilesTDigest(0.1, 0.5, 0.9), Float64),
    no_acceptance_requests_state AggregateFunction(sum, UInt64)
)
ENGINE = AggregatingMergeTree()
PARTITION BY toYYYYMM(period_start)
ORDER BY (deployment_id, prompt_category, model, draft_model_version, period_start)
${ttl(period_start + INTERVAL 1830 DAY)};

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.request_rollup_hourly_mv
TO ${database}.request_rollup_hourly
AS SELECT
    deployment_id,
    ifNull(prompt_category, '') AS prompt_category,
    ifNull(model, '') AS model,
    ifNull(draft_model_version, '') AS draft_model_version,
    toStartOfHour(finished_at) AS period_start,
    countState() AS requests_state,
    sumState(output_tokens) AS output_tokens_state,
    sumState(verify_cycles) AS verify_cycles_state,
    sumState(toInt64(ifNull(accepted_tokens, 0))) AS accepted_tokens_state,
    sumState(toInt64(ifNull(drafted_tokens, 0))) AS drafted_tokens_state,
    sumState(accept_length * verify_cycles) AS tau_x_cycles_state,
    quantilesTDigestState(0.1, 0.5, 0.9)(accept_length) AS tau_quantiles_state,
    sumState(toUInt64(accept_length <= 1.0)) AS no_acceptance_requests_state
FROM ${database}.request_acceptance
GROUP BY deployment_id, prompt_category, model, draft_model_version, period_start;

CREATE MATERIALIZED VIEW IF NOT EXISTS ${database}.request_rollup_daily_mv
TO ${database}.request_rollup_daily
AS SELECT
    deployment_id,
    ifNull(prompt_category, '') AS prompt_category,
    ifNull(model, '') AS model,
    ifNull(draft_model_version, '') AS draft_model_version,
    toStartOfDay(finished_at) AS period_start,
    countState() AS requests_state,
    sumState(output_tokens) AS output_tokens_state,
    sumState(verify_cycles) AS verify_cycles_state,
    sumState(toInt64(ifNull(accepted_tokens, 0))) AS accepted_tokens_state,
    sumState(toInt64(ifNull(drafted_tokens, 0))) AS drafted_tokens_state,
    sumState(accept_length * verify_cycles) AS tau_x_cycles_state,
    quantilesTDigestState(0.1, 0.5, 0.9)(accept_length) AS tau_quantiles_state,
    sumState(toUInt64(accept_length <= 1.0)) AS no_acceptance_requests_state
FROM ${database}.request_acceptance
GROUP BY deployment_id, prompt_category, model, draft_model_version, period_start;

CREATE VIEW IF NOT EXISTS ${database}.request_hourly AS
SELECT
    deployment_id,
    prompt_category,
    model,
    draft_model_version,
    period_start,
    countMerge(requests_state) AS requests,
    sumMerge(output_tokens_state) AS output_tokens,
    sumMerge(verify_cycles_state) AS verify_cycles,
    sumMerge(accepted_tokens_state) AS accepted_tokens,
    sumMerge(drafted_tokens_state) AS drafted_tokens,
    if(sumMerge(verify_cycles_state) = 0, NULL, sumMerge(tau_x_cycles_state) / sumMerge(verify_cycles_state)) AS tau,
    quantilesTDigestMerge(0.1, 0.5, 0.9)(tau_quantiles_state) AS tau_p10_p50_p90,
    sumMerge(no_acceptance_requests_state) AS no_acceptance_requests
FROM ${database}.request_rollup_hourly
GROUP BY deployment_id, prompt_category, model, draft_model_version, period_start;

CREATE VIEW IF NOT EXISTS ${database}.request_daily AS
SELECT
    deployment_id,
    prompt_category,
    model,
    draft_model_version,
    period_start,
    countMerge(requests_state) AS requests,
    sumMerge(output_tokens_state) AS output_tokens,
    sumMerge(verify_cycles_state) AS verify_cycles,
    sumMerge(accepted_tokens_state) AS accepted_tokens,
    sumMerge(drafted_tokens_state) AS drafted_tokens,
    if(sumMerge(verify_cycles_state) = 0, NULL, sumMerge(tau_x_cycles_state) / sumMerge(verify_cycles_state)) AS tau,
    quantilesTDigestMerge(0.1, 0.5, 0.9)(tau_quantiles_state) AS tau_p10_p50_p90,
    sumMerge(no_acceptance_requests_state) AS no_acceptance_requests
FROM ${database}.request_rollup_daily
GROUP BY deployment_id, prompt_category, model, draft_model_version, period_start;
