-- question: How fast does acceptance decay along the draft? Per deployment and draft position: the share of cycles whose i-th draft token was accepted, the acceptance conditional on reaching position i, and the ratio to position 1.
-- param: from DateTime 2000-01-01 first window included (UTC)
-- param: to DateTime 2100-01-01 end, excluded (UTC)
-- param: deployment String '' one deployment id, or '' for all
-- Source: window_results FINAL (per_position_acceptance / per_position_conditional arrays),
-- cycle-weighted over windows. A steep drop after position 1 says extra draft steps are wasted
-- verify work; with i.i.d. acceptance a, position i is a^i and conditional stays at a.
SELECT
    deployment_id,
    position,
    n_windows AS windows,
    total_cycles,
    round(acc, 4) AS acceptance,
    round(cond, 4) AS conditional,
    round(acc / first_position, 4) AS relative_to_position_1
FROM
(
    SELECT
        deployment_id,
        position,
        count() AS n_windows,
        sum(cycles) AS total_cycles,
        sum(accepted_share * cycles) / sum(cycles) AS acc,
        if(sumIf(cycles, length(per_position_conditional) >= position) = 0, NULL,
           sumIf(per_position_conditional[position] * cycles, length(per_position_conditional) >= position)
             / sumIf(cycles, length(per_position_conditional) >= position)) AS cond
    FROM window_results FINAL
    ARRAY JOIN
        per_position_acceptance AS accepted_share,
        arrayEnumerate(per_position_acceptance) AS position
    WHERE window_start >= {from:DateTime} AND window_start < {to:DateTime}
      AND ({deployment:String} = '' OR deployment_id = {deployment:String})
      AND cycles > 0
    GROUP BY deployment_id, position
) AS cur
ALL LEFT JOIN
(
    SELECT
        deployment_id,
        sum(per_position_acceptance[1] * cycles) / sum(cycles) AS first_position
    FROM window_results FINAL
    WHERE window_start >= {from:DateTime} AND window_start < {to:DateTime}
      AND ({deployment:String} = '' OR deployment_id = {deployment:String})
      AND cycles > 0 AND length(per_position_acceptance) > 0
    GROUP BY deployment_id
) AS p1 USING (deployment_id)
ORDER BY deployment_id, position
