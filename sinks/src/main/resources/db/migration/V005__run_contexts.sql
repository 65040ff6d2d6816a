-- Run contexts: the configuration a deployment ran with, one row per RunContext. Natural key
-- context_id (hash of every field except observed_at), so the same configuration observed again
-- collapses to one row (the latest delivery's observed_at wins); reads use FINAL. No partitioning:
-- the table is small and observed_at is not part of the identity. env / extra (Avro maps) are
-- parallel key / value arrays, e.g. env_keys = ['NCCL_P2P_LEVEL'], env_values = ['NVL'].
CREATE TABLE IF NOT EXISTS ${database}.run_contexts
(
    context_id String,
    deployment_id String,
    observed_at DateTime('UTC'),
    engine String,
    engine_version Nullable(String),
    engine_commit Nullable(String),
    model String,
    draft_model Nullable(String),
    draft_model_version Nullable(String),
    spec_method String,
    num_steps Nullable(Int32),
    topk Nullable(Int32),
    num_draft_tokens Nullable(Int32),
    gpu_model Nullable(String),
    gpu_count Nullable(Int32),
    interconnect Nullable(String),
    hardware_class Nullable(String),
    tp Int32,
    dp Int32,
    ep Int32,
    cuda_graph Nullable(UInt8),
    env_keys Array(String),
    env_values Array(String),
    extra_keys Array(String),
    extra_values Array(String),
    kafka_topic String,
    kafka_partition Int32,
    kafka_offset Int64,
    inserted_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(inserted_at)
ORDER BY (deployment_id, context_id);
