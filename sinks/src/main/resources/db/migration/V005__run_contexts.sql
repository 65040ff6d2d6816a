-- Run contexts: the configuration a deployment ran with, one row per RunContext. Natural key
-- context_id (hash of every field except observed_at), so the same configuration observed again
-- collapses to one row (the latest delivery's observed_at wins); reads use FINAL. No partitioning:
-- the table is small and observed_at is not part of the identity. env / extra (Avro maps) are
-- parallel key / value arrays, e.g. env_keys = ['NCCL_P2P_LEVEL'], env_values = ['NVL'].
-- Version-aware template (SqlTemplate): modern servers get LowCardinality and
-- DateTime64(3) observed/inserted times; a small table, kept (no TTL).
-- The earlier 18.16-only text of this file created exactly what the LEGACY rendering creates:
-- replaces-checksum: 200387c3f2ae4f636deb60dca0db9e64dc6d9233c8b98dca38f650b9c8a92ab9
CREATE TABLE IF NOT EXISTS ${database}.run_contexts
(
    context_id String,
    deployment_id ${LowCardinality(String)},
    observed_at ${DateTimeMs},
    engine ${LowCardinality(String)},
    engine_version ${LowCardinality(Nullable(String))},
    engine_commit Nullable(String),
    model ${LowCardinality(String)},
    draft_model ${LowCardinality(Nullable(String))},
    draft_model_version ${LowCardinality(Nullable(String))},
    spec_method ${LowCardinality(String)},
    num_steps Nullable(Int32),
    topk Nullable(Int32),
    num_draft_tokens Nullable(Int32),
    gpu_model ${LowCardinality(Nullable(String))},
    gpu_count Nullable(Int32),
    interconnect ${LowCardinality(Nullable(String))},
    hardware_class ${LowCardinality(Nullable(String))},
    tp Int32,
    dp Int32,
    ep Int32,
    cuda_graph Nullable(UInt8),
    env_keys Array(String),
    env_values Array(String),
    extra_keys Array(String),
    extra_values Array(String),
    kafka_topic ${LowCardinality(String)},
    kafka_partition Int32,
    kafka_offset Int64,
    inserted_at ${DateTimeMs}
)
ENGINE = ReplacingMergeTree(inserted_at)
ORDER BY (deployment_id, context_id);
