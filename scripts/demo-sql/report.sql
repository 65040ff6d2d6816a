-- The demo's verdict table (scripts/demo.sh, step 7; run in SqlCompatibilityIT on 18.16 and chdb):
-- per deployment, the last 10 closed 1-minute windows of the run (the state it ended in), cycle-weighted;
-- verdict thresholds are streams-app's defaults (S < 1: below baseline; tau < 1.05: collapse).
-- ${W_RUN}: the run's window rows (kafka_topic = '...'); ${FROM} / ${TO}: the run's event-time span.
SELECT deployment_id AS deployment,
  max(spec_enabled) AS spec,
  round(sum(mean_accept_length * cycles) / sum(cycles), 2) AS tau,
  round(sum(effective_tok_s_per_request * cycles) / sum(cycles), 1) AS tok_s,
  round(sumIf(baseline_tok_s * cycles, baseline_tok_s IS NOT NULL) / nullIf(sumIf(cycles, baseline_tok_s IS NOT NULL), 0), 1) AS baseline_tok_s,
  round(sumIf(break_even_accept_length * cycles, break_even_accept_length IS NOT NULL) / nullIf(sumIf(cycles, break_even_accept_length IS NOT NULL), 0), 2) AS tau_star,
  round(sumIf(speedup * cycles, speedup IS NOT NULL) / nullIf(sumIf(cycles, speedup IS NOT NULL), 0), 2) AS speedup,
  multiIf(spec = 0, 'plain decoding (the baseline)',
          tau < 1.05, concat('drafter broken: tau ', toString(tau)),
          isNull(speedup), 'no baseline yet',
          speedup < 1, concat('speculation costs throughput (S=', toString(speedup), ')'),
          concat('healthy ', toString(speedup), 'x')) AS verdict
FROM window_results FINAL
WHERE ${W_RUN} AND prompt_category = '*' AND batch_bucket = '*' AND cycles > 0
  AND window_start >= toDateTime('${FROM}', 'UTC') AND window_start < toDateTime('${TO}', 'UTC')
  AND window_start > (SELECT max(window_start) FROM window_results WHERE ${W_RUN}) - 600
GROUP BY deployment_id
ORDER BY spec DESC, deployment_id
