-- Window results: one row per (deployment, prompt category, batch bucket, window start).
-- ReplacingMergeTree on the natural key makes replays harmless: duplicates collapse on merge,
-- and every read uses FINAL (or argMax by inserted_at) so they are invisible before the merge.
-- SQL kept to what ClickHouse 18.16 and 24.x+ both accept: no DateTime64, LowCardinality, TTL, CODEC.
CREATE DATABASE IF NOT EXISTS ${database};

CREATE TABLE IF NOT EXISTS ${database}.window_results
(
    deployment_id String,
    prompt_category String,
    batch_bucket String,
    window_start DateTime('UTC'),
    window_end DateTime('UTC'),
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
    per_position_acceptance Array(Float64),
    per_position_conditional Array(Float64),
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
    baseline_source Nullable(String),
    speedup Nullable(Float64),
    break_even_accept_length Nullable(Float64),
    accept_margin Nullable(Float64),
    run_context_id Nullable(String),
    late_events Int64,
    kafka_topic String,
    kafka_partition Int32,
    kafka_offset Int64,
    inserted_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(inserted_at)
PARTITION BY toYYYYMM(window_start)
ORDER BY (deployment_id, prompt_category, batch_bucket, window_start);
