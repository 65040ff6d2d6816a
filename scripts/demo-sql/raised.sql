-- What the demo checks the manifest against (scripts/demo.sh, step 7): "deployment TYPE" per raised alert.
SELECT DISTINCT concat(deployment_id, ' ', type) FROM alerts FINAL WHERE ${A_RUN} AND ${RANGE} AND state = 'RAISED'
