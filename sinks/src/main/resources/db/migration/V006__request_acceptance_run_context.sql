-- RequestAcceptance gained runContextId (the RunContext in force when the request was shipped).
-- ClickHouse 18.16 has no ADD COLUMN IF NOT EXISTS; the statement is single, so it either applied
-- (and was recorded) or not.
ALTER TABLE ${database}.request_acceptance ADD COLUMN run_context_id Nullable(String) AFTER raw_fields_values;
