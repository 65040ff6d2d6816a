-- Per-request acceptance: one row per RequestAcceptance, columns are the snake_case Avro field names.
-- Natural key event_id (deterministic like DecodeEvent.event_id); ReplacingMergeTree on
-- (deployment_id, finished_at, event_id) collapses replayed copies, reads use FINAL. The input of draft
-- fine-tuning data selection (low accept_length by prompt_category / model / draft_model_version).
-- finished_at is second precision; finished_at_ms keeps the exact epoch milliseconds.
-- acceptance histogram: index i = cycles that accepted i drafts. raw_fields is two parallel arrays.
CREATE TABLE IF NOT EXISTS ${database}.request_acceptance
(
    event_id String,
    request_id String,
    deployment_id String,
    host String,
    source String,
    engine String,
    finished_at DateTime('UTC'),
    finished_at_ms Int64,
    prompt_hash Nullable(String),
    prompt_ref Nullable(String),
    prompt_category Nullable(String),
    model Nullable(String),
    draft_model_version Nullable(String),
    prompt_tokens Nullable(Int64),
    output_tokens Int64,
    verify_cycles Int64,
    accepted_tokens Nullable(Int64),
    drafted_tokens Nullable(Int64),
    accept_length Float64,
    raw_accept_rate Nullable(Float64),
    accept_histogram Array(Int64),
    raw_fields_keys Array(String),
    raw_fields_values Array(String),
    kafka_topic String,
    kafka_partition Int32,
    kafka_offset Int64,
    inserted_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(inserted_at)
PARTITION BY toYYYYMM(finished_at)
ORDER BY (deployment_id, finished_at, event_id);
