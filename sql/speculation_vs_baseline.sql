-- question: Is speculation paying off? Per deployment and hour: tau against the break-even tau* = T_cyc / t_AR, effective tok/s against the non-speculative baseline, speedup, and how many windows ran below break-even.
-- param: from DateTime 2000-01-01 first hour included (UTC)
-- param: to DateTime 2100-01-01 end, excluded (UTC)
-- param: deployment String '' one deployment id, or '' for all
-- Source: the hourly rollup window_rollup_hourly, speculative windows (spec_enabled = 1), all prompt
-- categories and batch buckets merged (cycle-weighted); the baseline comes with each window.
-- margin = tau - tau*; speedup < 1 means speculation cost throughput (the seeds' EAGLE-3 at 60 tok/s against 82 plain). Windows without a baseline leave tau*/speedup NULL.
SELECT
    deployment_id,
    period_start AS hour,
    n_windows AS windows,
    n_cycles AS cycles,
    round(tau_raw, 3) AS tau,
    round(tau_star_raw, 3) AS tau_star,
    round(tau_raw - tau_star_raw, 3) AS margin,
    round(tok_s_raw, 1) AS effective_tok_s,
    round(baseline_raw, 1) AS baseline_tok_s,
    round(speedup_raw, 3) AS speedup,
    n_below AS below_break_even_windows,
    multiIf(isNull(speedup_raw), 'no baseline', speedup_raw < 1, 'SLOWER than baseline', 'faster') AS verdict
FROM
(
    SELECT
        deployment_id,
        period_start,
        countMerge(windows_state) AS n_windows,
        sumMerge(cycles_state) AS n_cycles,
        if(sumMerge(tau_cycles_state) = 0, NULL, sumMerge(tau_x_cycles_state) / sumMerge(tau_cycles_state)) AS tau_raw,
        if(sumMerge(break_even_cycles_state) = 0, NULL, sumMerge(break_even_x_cycles_state) / sumMerge(break_even_cycles_state)) AS tau_star_raw,
        if(sumMerge(tok_s_cycles_state) = 0, NULL, sumMerge(tok_s_x_cycles_state) / sumMerge(tok_s_cycles_state)) AS tok_s_raw,
        if(sumMerge(baseline_tok_s_cycles_state) = 0, NULL, sumMerge(baseline_tok_s_x_cycles_state) / sumMerge(baseline_tok_s_cycles_state)) AS baseline_raw,
        if(sumMerge(speedup_cycles_state) = 0, NULL, sumMerge(speedup_x_cycles_state) / sumMerge(speedup_cycles_state)) AS speedup_raw,
        sumMerge(below_break_even_windows_state) AS n_below
    FROM window_rollup_hourly
    WHERE period_start >= {from:DateTime} AND period_start < {to:DateTime}
      AND spec_enabled = 1
      AND ({deployment:String} = '' OR deployment_id = {deployment:String})
    GROUP BY deployment_id, period_start
)
ORDER BY deployment_id, hour
