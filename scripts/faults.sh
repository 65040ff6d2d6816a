#!/usr/bin/env bash
# Fault suite (./specwatch faults): the LONG variant of every `*FaultIT` class of e2e/ (PipelineFaultIT:
# broker kill -9, streams kill -9 with one and two instances, ClickHouse stopped 60 s, shipper kill -9
# mid-file, rename + copytruncate rotation, 10,000 hostile lines, duplicate delivery; plus
# SchemaEvolutionFaultIT and any later *FaultIT), each checked by the zero-loss oracle
# (testkit ZeroLossOracle) and followed by its negative control. The short variants of the same classes
# run inside `./specwatch test`.
#
# Needs the Docker engine of the integration tests (provided here as `./specwatch test` does).
# Settings (env): SPECWATCH_FAULTS_LONG=true|false (default true), SPECWATCH_FAULTS_TESTS='*FaultIT'
# (a failsafe -Dit.test pattern). Extra arguments go to Maven.
# Prints, per scenario: events in, rows out, lost, duplicated, windows checked (lines `[oracle] ...`),
# durations (`[faults] ...`), and exits non-zero when any scenario failed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

LONG=${SPECWATCH_FAULTS_LONG:-true}
[[ "$LONG" == true || "$LONG" == false ]] || die "setting SPECWATCH_FAULTS_LONG must be true or false, got '$LONG'"
TESTS=${SPECWATCH_FAULTS_TESTS:-*FaultIT}
cd "$SPECWATCH_HOME"

"$SPECWATCH_HOME/scripts/docker.sh" up
"$SPECWATCH_HOME/scripts/images.sh" build
eval "$("$SPECWATCH_HOME/scripts/docker.sh" env)"

summary="$SPECWATCH_HOME/e2e/target/faults-summary.txt"
rm -f "$summary"
t0=$SECONDS
rc=0
log "faults: ${TESTS} (long variant: $LONG) on real Kafka / registry / ClickHouse containers"
mvn -B verify -pl e2e -am \
  -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test="$TESTS" -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dspecwatch.faults.long="$LONG" -Djacoco.skip=true "$@" || rc=$?
echo
log "faults: per scenario (events in, rows out, lost, duplicated, windows checked; negative controls must be NOT CLEAN)"
if [[ -s "$summary" ]]; then
  cat "$summary"
else
  log "faults: no oracle output (see e2e/target/failsafe-reports/)"
fi
log "faults: finished in $((SECONDS - t0)) s with exit code $rc"
exit $rc
