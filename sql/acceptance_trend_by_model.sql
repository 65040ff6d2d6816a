-- question: Did a new draft model (or target model) change acceptance? Per-request tau per deployment, model and draft-model version and day, beside the previous day's value.
-- param: from DateTime 2000-01-01 first day included (UTC)
-- param: to DateTime 2100-01-01 end, excluded (UTC)
-- param: deployment String '' one deployment id, or '' for all
-- param: category String '' one prompt category, or '' for all (compare like with like)
-- Source: the daily request rollup request_rollup_daily (V011), fed from request_acceptance.
-- tau = emitted tokens per verify pass over all requests (accept_length weighted by verify
-- cycles); p50 is the median request's tau (t-digest). '' = model/version not reported.
SELECT
    deployment_id,
    model,
    draft_model_version,
    day,
    day_requests AS requests,
    round(day_tau, 4) AS tau,
    round(day_p50, 4) AS tau_p50,
    if(prev_requests = 0, NULL, round(prev_tau, 4)) AS prev_day_tau,
    if(prev_requests = 0, NULL, round(day_tau - prev_tau, 4)) AS change
FROM
(
    SELECT
        deployment_id,
        model,
        draft_model_version,
        toDate(period_start) AS day,
        countMerge(requests_state) AS day_requests,
        sumMerge(tau_x_cycles_state) / sumMerge(verify_cycles_state) AS day_tau,
        quantilesTDigestMerge(0.1, 0.5, 0.9)(tau_quantiles_state)[2] AS day_p50
    FROM request_rollup_daily
    WHERE period_start >= {from:DateTime} AND period_start < {to:DateTime}
      AND ({deployment:String} = '' OR deployment_id = {deployment:String})
      AND ({category:String} = '' OR prompt_category = {category:String})
    GROUP BY deployment_id, model, draft_model_version, day
) AS cur
ALL LEFT JOIN
(
    SELECT
        deployment_id,
        model,
        draft_model_version,
        toDate(period_start) + 1 AS day,
        countMerge(requests_state) AS prev_requests,
        sumMerge(tau_x_cycles_state) / sumMerge(verify_cycles_state) AS prev_tau
    FROM request_rollup_daily
    WHERE period_start >= {from:DateTime} - 86400 AND period_start < {to:DateTime}
      AND ({deployment:String} = '' OR deployment_id = {deployment:String})
      AND ({category:String} = '' OR prompt_category = {category:String})
    GROUP BY deployment_id, model, draft_model_version, day
) AS prev USING (deployment_id, model, draft_model_version, day)
ORDER BY deployment_id, model, draft_model_version, day
