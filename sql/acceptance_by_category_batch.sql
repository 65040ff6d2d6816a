-- question: Where does the drafter do well or badly? Cycle-weighted tau, acceptance rate and speedup per deployment, prompt category and batch-size bucket.
-- param: from DateTime 2000-01-01 first window included (UTC)
-- param: to DateTime 2100-01-01 end, excluded (UTC)
-- param: deployment String '' one deployment id, or '' for all
-- Source: window_results FINAL. Acceptance depends on the workload (raw completion can double chat's
-- tau) and MoE step time on the batch size, so compare within a category and bucket, not overall.
SELECT
    deployment_id,
    prompt_category,
    batch_bucket,
    count() AS windows,
    sum(cycles) AS total_cycles,
    round(sumIf(mean_accept_length * cycles, isNotNull(mean_accept_length)) / sumIf(cycles, isNotNull(mean_accept_length)), 3) AS tau,
    round(sum(accepted_tokens) / sum(drafted_tokens), 3) AS accepted_per_drafted,
    round(sumIf(speedup * cycles, isNotNull(speedup)) / sumIf(cycles, isNotNull(speedup)), 3) AS speedup,
    countIf(accept_margin < 0) AS below_break_even_windows
FROM window_results FINAL
WHERE window_start >= {from:DateTime} AND window_start < {to:DateTime}
  AND ({deployment:String} = '' OR deployment_id = {deployment:String})
GROUP BY deployment_id, prompt_category, batch_bucket
ORDER BY deployment_id, prompt_category, batch_bucket
