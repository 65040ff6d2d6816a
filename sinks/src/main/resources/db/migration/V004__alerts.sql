-- Alert state changes (raise / clear), one row per Alert. Natural key alert_id (a hash of deployment,
-- type, state and window start; deployment and window start lead the sort key), so a re-emitted alert
-- collapses on merge; reads use FINAL. evidence (Avro map) is two parallel arrays.
CREATE TABLE IF NOT EXISTS ${database}.alerts
(
    alert_id String,
    deployment_id String,
    type String,
    state String,
    window_start DateTime('UTC'),
    emitted_at DateTime('UTC'),
    metric Nullable(String),
    observed Nullable(Float64),
    reference Nullable(Float64),
    p_value Nullable(Float64),
    attributed_change Nullable(String),
    message String,
    evidence_keys Array(String),
    evidence_values Array(String),
    kafka_topic String,
    kafka_partition Int32,
    kafka_offset Int64,
    inserted_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(inserted_at)
PARTITION BY toYYYYMM(window_start)
ORDER BY (deployment_id, window_start, alert_id);
