-- The demo's alert table (scripts/demo.sh, step 7): first window per deployment and type, evidence from the alert.
-- ${A_RUN}: the run's alert rows (kafka_topic = '...'); ${RANGE}: the run's window_start span.
SELECT deployment_id AS deployment, type, min(window_start) AS first_window,
  argMin(concat(ifNull(metric, ''), if(isNull(observed), '', concat(' observed ', toString(round(observed, 2)))),
    if(isNull(reference), '', concat(' vs ', toString(round(reference, 2)))),
    -- p: 4 decimals, below 0.001 two significant digits (round(p, 6) showed p=0 for the seeds' 1e-12)
    if(isNull(p_value), '', concat(' p=', multiIf(p_value >= 0.001, toString(round(p_value, 4)), p_value > 0,
      if((round(p_value / exp10(floor(log10(p_value))), 1) AS p_mantissa) >= 10,
        concat('1e', toString(toInt32(floor(log10(p_value))) + 1)),
        concat(toString(p_mantissa), 'e', toString(toInt32(floor(log10(p_value)))))),
      '<1e-300')))), window_start) AS evidence,
  argMin(ifNull(attributed_change, ''), window_start) AS attributed_change
FROM alerts FINAL
WHERE ${A_RUN} AND ${RANGE} AND state = 'RAISED' AND type != 'NO_DATA'
GROUP BY deployment_id, type
ORDER BY deployment_id, type
