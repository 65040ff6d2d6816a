-- question: What did the alerting see? Regression and below-baseline alerts, raised and cleared, with the observed value against its reference, the test's p-value and the run-context change it was attributed to.
-- param: from DateTime 2000-01-01 first window included (UTC)
-- param: to DateTime 2100-01-01 end, excluded (UTC)
-- param: deployment String '' one deployment id, or '' for all
-- param: type String '' one alert type (SPEC_BELOW_BASELINE, ACCEPT_COLLAPSE, NO_DATA, REGRESSION), or '' for all
-- Source: alerts FINAL (one row per state change). A phantom regression (the seeds' 89 vs 82
-- tok/s) shows as a REGRESSION without a small p-value or without an attributed change.
SELECT
    window_start,
    emitted_at,
    deployment_id,
    type,
    state,
    metric,
    round(observed, 4) AS observed_value,
    round(reference, 4) AS reference_value,
    p_value,
    attributed_change,
    message
FROM alerts FINAL
WHERE window_start >= {from:DateTime} AND window_start < {to:DateTime}
  AND ({deployment:String} = '' OR deployment_id = {deployment:String})
  AND ({type:String} = '' OR type = {type:String})
ORDER BY window_start, deployment_id, type, state
