-- question: Did the run context move verify time? Verify ms percentiles per deployment and run context, with the context's CUDA graphs setting, NCCL environment and engine commit.
-- param: from DateTime 2000-01-01 first window included (UTC)
-- param: to DateTime 2100-01-01 end, excluded (UTC)
-- param: deployment String '' one deployment id, or '' for all
-- Source: window_results FINAL joined with run_contexts FINAL on the context id. The per-window
-- percentiles (KLL sketches in streams-app) are aggregated over windows: p50 is the cycle-weighted
-- mean of the windows' p50, p95 the median of their p95, p99 the worst window's p99. The seeds:
-- verify 19 -> 29 ms once the NCCL env stopped reaching the workers. A context the sink has not
-- seen shows empty settings.
SELECT
    deployment_id,
    run_context,
    windows,
    total_cycles,
    round(p50, 2) AS verify_ms_p50,
    round(p95, 2) AS verify_ms_p95,
    round(p99, 2) AS verify_ms_p99,
    round(cycle_ms, 2) AS mean_cycle_ms,
    cuda_graph,
    nccl_env,
    engine_version,
    engine_commit,
    first_window,
    last_window
FROM
(
    SELECT
        deployment_id,
        ifNull(run_context_id, '(none)') AS run_context,
        count() AS windows,
        sum(cycles) AS total_cycles,
        sumIf(verify_ms_p50 * cycles, isNotNull(verify_ms_p50)) / sumIf(cycles, isNotNull(verify_ms_p50)) AS p50,
        quantileExact(0.5)(verify_ms_p95) AS p95,
        max(verify_ms_p99) AS p99,
        sumIf(mean_cycle_ms * cycles, isNotNull(mean_cycle_ms)) / sumIf(cycles, isNotNull(mean_cycle_ms)) AS cycle_ms,
        min(window_start) AS first_window,
        max(window_start) AS last_window
    FROM window_results FINAL
    WHERE window_start >= {from:DateTime} AND window_start < {to:DateTime}
      AND ({deployment:String} = '' OR deployment_id = {deployment:String})
    GROUP BY deployment_id, run_context
) AS w
ALL LEFT JOIN
(
    SELECT
        deployment_id,
        context_id AS run_context,
        multiIf(isNull(cuda_graph), '?', cuda_graph = 1, 'on', 'off') AS cuda_graph,
        arrayStringConcat(arrayFilter(kv -> kv LIKE 'NCCL%', arrayMap((k, v) -> concat(k, '=', v), env_keys, env_values)), ' ') AS nccl_env,
        ifNull(engine_version, '') AS engine_version,
        ifNull(engine_commit, '') AS engine_commit
    FROM run_contexts FINAL
) AS c USING (deployment_id, run_context)
ORDER BY deployment_id, first_window
