-- Per-request acceptance: one row per RequestAcceptance, columns are the snake_case Avro field names.
-- Natural key event_id (deterministic like DecodeEvent.event_id); ReplacingMergeTree on
-- (deployment_id, finished_at, event_id) collapses replayed copies, reads use FINAL. The input of draft
-- fine-tuning data selection (low accept_length by prompt_category / model / draft_model_version).
-- finished_at is second precision; finished_at_ms keeps the exact epoch milliseconds.
-- acceptance histogram: index i = cycles that accepted i drafts. raw_fields is two parallel arrays.
-- Version-aware template (SqlTemplate): modern servers get LowCardinality,
-- DateTime64(3) inserted_at, codecs, a 400-day TTL and insert dedup by token.
-- The earlier 18.16-only text of this file created exactly what the LEGACY rendering creates:
-- replaces-checksum: af8d4f35f5875d3f7e18704f59bbeb70a9440cf3a39203de6d3a1adc2837a299
CREATE TABLE IF NOT EXISTS ${database}.request_acceptance
(
    event_id String,
    request_id String,
    deployment_id ${LowCardinality(String)},
    host ${LowCardinality(String)},
    source ${LowCardinality(String)},
    engine ${LowCardinality(String)},
    finished_at DateTime('UTC') ${codec(DoubleDelta, ZSTD(1))},
    finished_at_ms Int64 ${codec(DoubleDelta, ZSTD(1))},
    prompt_hash Nullable(String),
    prompt_ref Nullable(String),
    prompt_category ${LowCardinality(Nullable(String))},
    model ${LowCardinality(Nullable(String))},
    draft_model_version ${LowCardinality(Nullable(String))},
    prompt_tokens Nullable(Int64),
    output_tokens Int64,
    verify_cycles Int64,
    accepted_tokens Nullable(Int64),
    drafted_tokens Nullable(Int64),
    accept_length Float64,
    raw_accept_rate Nullable(Float64),
    accept_histogram Array(Int64) ${codec(ZSTD(1))},
    raw_fields_keys Array(String),
    raw_fields_values Array(String) ${codec(ZSTD(3))},
    kafka_topic ${LowCardinality(String)},
    kafka_partition Int32,
    kafka_offset Int64 ${codec(Delta, ZSTD(1))},
    inserted_at ${DateTimeMs}
)
ENGINE = ReplacingMergeTree(inserted_at)
PARTITION BY toYYYYMM(finished_at)
ORDER BY (deployment_id, finished_at, event_id)
${ttl(finished_at + INTERVAL 400 DAY)}
${modern(SETTINGS non_replicated_deduplication_window = 1000)};
