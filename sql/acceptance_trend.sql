-- question: How does acceptance move day over day? Cycle-weighted mean accept length (tau) per deployment and day, beside the previous day's tau and the change.
-- param: from DateTime 2000-01-01 first day included (UTC; a date or 'YYYY-MM-DD HH:MM:SS')
-- param: to DateTime 2100-01-01 end, excluded (UTC)
-- param: deployment String '' one deployment id, or '' for all
-- Source: the daily rollup window_rollup_daily, speculative windows only (spec_enabled = 1: plain
-- windows of a deployment toggled off have no tau; fast over years; a replayed batch counts twice
-- until `sink rollups --rebuild-month` recomputes the month). prev_day_tau is NULL when the day
-- before had no windows. No window functions or WITH: runs on ClickHouse 18.16 too.
SELECT
    deployment_id,
    day,
    day_cycles AS cycles,
    round(day_tau, 4) AS tau,
    if(prev_cycles = 0, NULL, round(prev_tau, 4)) AS prev_day_tau,
    if(prev_cycles = 0, NULL, round(day_tau - prev_tau, 4)) AS change
FROM
(
    SELECT
        deployment_id,
        toDate(period_start) AS day,
        sumMerge(cycles_state) AS day_cycles,
        if(sumMerge(tau_cycles_state) = 0, NULL, sumMerge(tau_x_cycles_state) / sumMerge(tau_cycles_state)) AS day_tau
    FROM window_rollup_daily
    WHERE period_start >= {from:DateTime} AND period_start < {to:DateTime}
      AND spec_enabled = 1
      AND ({deployment:String} = '' OR deployment_id = {deployment:String})
    GROUP BY deployment_id, day
) AS cur
ALL LEFT JOIN
(
    SELECT
        deployment_id,
        toDate(period_start) + 1 AS day,
        sumMerge(cycles_state) AS prev_cycles,
        if(sumMerge(tau_cycles_state) = 0, NULL, sumMerge(tau_x_cycles_state) / sumMerge(tau_cycles_state)) AS prev_tau
    FROM window_rollup_daily
    WHERE period_start >= {from:DateTime} - 86400 AND period_start < {to:DateTime}
      AND spec_enabled = 1
      AND ({deployment:String} = '' OR deployment_id = {deployment:String})
    GROUP BY deployment_id, day
) AS prev USING (deployment_id, day)
ORDER BY deployment_id, day
