-- NO_DATA alerts of the run (scripts/demo.sh, step 7): counted apart, not part of the story.
SELECT count() FROM alerts FINAL WHERE ${A_RUN} AND ${RANGE} AND state = 'RAISED' AND type = 'NO_DATA'
