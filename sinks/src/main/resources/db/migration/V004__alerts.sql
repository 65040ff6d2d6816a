-- Alert state changes (raise / clear), one row per Alert. Natural key alert_id (a hash of deployment,
-- type, state and window start; deployment and window start lead the sort key), so a re-emitted alert
-- collapses on merge; reads use FINAL. evidence (Avro map) is two parallel arrays.
-- Version-aware template (SqlTemplate): modern servers get LowCardinality,
-- DateTime64(3) emitted/inserted times and a codec; alerts are kept (no TTL).
-- The earlier 18.16-only text of this file created exactly what the LEGACY rendering creates:
-- replaces-checksum: b4a75376d3bbd2d8211eea07f00a54081670ebabc59ba96353e4fb806cabde1f
CREATE TABLE IF NOT EXISTS ${database}.alerts
(
    alert_id String,
    deployment_id ${LowCardinality(String)},
    type ${LowCardinality(String)},
    state ${LowCardinality(String)},
    window_start DateTime('UTC'),
    emitted_at ${DateTimeMs},
    metric ${LowCardinality(Nullable(String))},
    observed Nullable(Float64),
    reference Nullable(Float64),
    p_value Nullable(Float64),
    attributed_change ${LowCardinality(Nullable(String))},
    message String,
    evidence_keys Array(String),
    evidence_values Array(String),
    kafka_topic ${LowCardinality(String)},
    kafka_partition Int32,
    kafka_offset Int64 ${codec(Delta, ZSTD(1))},
    inserted_at ${DateTimeMs}
)
ENGINE = ReplacingMergeTree(inserted_at)
PARTITION BY toYYYYMM(window_start)
ORDER BY (deployment_id, window_start, alert_id);
