-- Raw decode events: one row per DecodeEvent (a cycle or an interval summary), columns are the
-- snake_case Avro field names. Natural key event_id (deterministic from host, source, file identity,
-- byte offset and line text). ReplacingMergeTree keeps one row per sort key after merges, so a replayed
-- or retried batch adds no visible rows to FINAL reads. The key is (deployment_id, event_time, event_id):
-- a Kafka replay carries the same event_time; event_time is the printed timestamp, so re-shipping a line
-- from its file gives the same key too (lines without a printed time take the ingest time and are the one
-- case a re-ship from the file is not collapsed). Times are second precision (DateTime); the exact
-- milliseconds are kept in event_time_ms. raw_fields (Avro map) is two parallel arrays.
-- Version-aware template (SqlTemplate): modern servers get LowCardinality for
-- the repetitive strings, DateTime64(3) ingest/insert times, codecs, a 90-day TTL (raw events;
-- windows and rollups keep the history) and insert dedup by token.
-- The earlier 18.16-only text of this file created exactly what the LEGACY rendering creates:
-- replaces-checksum: bed6476e597947926e9c469576246bcffb7745d17da6a3a981d699a6a5e6854d
CREATE TABLE IF NOT EXISTS ${database}.decode_events
(
    event_id String,
    deployment_id ${LowCardinality(String)},
    host ${LowCardinality(String)},
    source ${LowCardinality(String)},
    source_offset Nullable(Int64),
    line_number Nullable(Int64),
    engine ${LowCardinality(String)},
    format ${LowCardinality(String)},
    kind ${LowCardinality(String)},
    event_time DateTime('UTC') ${codec(DoubleDelta, ZSTD(1))},
    event_time_ms Int64 ${codec(DoubleDelta, ZSTD(1))},
    ingest_time ${DateTimeMs},
    rank ${LowCardinality(Nullable(String))},
    tp_rank Nullable(Int32),
    dp_rank Nullable(Int32),
    ep_rank Nullable(Int32),
    request_id Nullable(String),
    prompt_category ${LowCardinality(Nullable(String))},
    interval_ms Nullable(Float64),
    decode_passes Nullable(Int64),
    cycles Nullable(Int64),
    running_requests Nullable(Int32),
    queued_requests Nullable(Int32),
    token_usage Nullable(Float64),
    accept_length Nullable(Float64),
    accept_rate Nullable(Float64),
    raw_accept_rate Nullable(Float64),
    raw_accept_rate_definition ${LowCardinality(Nullable(String))},
    accepted_tokens Nullable(Int64),
    drafted_tokens Nullable(Int64),
    emitted_tokens Nullable(Int64),
    per_position_acceptance Array(Float64),
    per_position_accepted Array(Int64),
    gen_throughput_tok_s Nullable(Float64),
    draft_ms Nullable(Float64),
    verify_ms Nullable(Float64),
    overhead_ms Nullable(Float64),
    cycle_ms Nullable(Float64),
    cuda_graph Nullable(UInt8),
    spec_enabled UInt8,
    run_context_id Nullable(String),
    raw_fields_keys Array(String) ${codec(ZSTD(1))},
    raw_fields_values Array(String) ${codec(ZSTD(3))},
    kafka_topic ${LowCardinality(String)},
    kafka_partition Int32,
    kafka_offset Int64 ${codec(Delta, ZSTD(1))},
    inserted_at ${DateTimeMs}
)
ENGINE = ReplacingMergeTree(inserted_at)
PARTITION BY toYYYYMM(event_time)
ORDER BY (deployment_id, event_time, event_id)
${ttl(event_time + INTERVAL 90 DAY)}
${modern(SETTINGS non_replicated_deduplication_window = 1000)};
