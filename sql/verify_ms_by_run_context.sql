-- question: Did the run context move verify time? Verify ms percentiles per deployment and run context (the context id names CUDA graphs on/off, NCCL env, engine commit).
-- param: from DateTime 2000-01-01 first window included (UTC)
-- param: to DateTime 2100-01-01 end, excluded (UTC)
-- param: deployment String '' one deployment id, or '' for all
-- Source: window_results FINAL; per-window percentiles (KLL sketches in streams-app) aggregated over
-- windows: p50 is the cycle-weighted mean of the windows' p50, p95 the median of their p95, p99
-- the worst window's p99. The seeds: verify 19 -> 29 ms once the NCCL env stopped reaching workers.
SELECT
    deployment_id,
    ifNull(run_context_id, '(none)') AS run_context,
    count() AS windows,
    sum(cycles) AS total_cycles,
    round(sumIf(verify_ms_p50 * cycles, isNotNull(verify_ms_p50)) / sumIf(cycles, isNotNull(verify_ms_p50)), 2) AS verify_ms_p50,
    round(quantileExact(0.5)(verify_ms_p95), 2) AS verify_ms_p95,
    round(max(verify_ms_p99), 2) AS verify_ms_p99,
    round(sumIf(mean_cycle_ms * cycles, isNotNull(mean_cycle_ms)) / sumIf(cycles, isNotNull(mean_cycle_ms)), 2) AS mean_cycle_ms,
    min(window_start) AS first_window,
    max(window_start) AS last_window
FROM window_results FINAL
WHERE window_start >= {from:DateTime} AND window_start < {to:DateTime}
  AND ({deployment:String} = '' OR deployment_id = {deployment:String})
GROUP BY deployment_id, run_context
ORDER BY deployment_id, first_window
