-- Window results: one row per (deployment, prompt category, batch bucket, window start).
-- ReplacingMergeTree on the natural key makes replays harmless: duplicates collapse on merge,
-- and every read uses FINAL (or argMax by inserted_at) so they are invisible before the merge.
-- Version-aware template (see SqlTemplate): ClickHouse 18.16 gets DateTime/String and no codec or
-- TTL; 22.3+ gets DateTime64(3), LowCardinality, codecs, a 400-day TTL and insert dedup by token.
-- The earlier 18.16-only text of this file created exactly what the LEGACY rendering creates:
-- replaces-checksum: 39291fd49473084e49381fc4657551770c9b1688b1c79326da1cad715af888c2
CREATE DATABASE IF NOT EXISTS ${database};

CREATE TABLE IF NOT EXISTS ${database}.window_results
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
ORDER BY (deployment_id, prompt_category, batch_bucket, window_start)
${ttl(window_start + INTERVAL 400 DAY)}
${modern(SETTINGS non_replicated_deduplication_window = 1000)};
