#!/usr/bin/env bash
# The main job under test: runs scripts/demo.sh (`./specwatch demo`) as a user does, on its own
# services (free non-default ports, a private run dir, so a running demo is untouched), and fails
# unless it exits 0 and reports every expectation of the demo's manifest OK (alerts raised and not
# raised, verdicts per deployment). Run by `./specwatch test` after `mvn verify`, which built the
# jars the demo runs. DemoScenarioIT checks the same scenario through `ingest ship` in a test JVM;
# this checks the script's own path (realtime generation, one `ingest tail` per deployment, the
# apps as processes), which broke once unnoticed (2026-12-02: run contexts, docs/DESIGN.md).
# Then it stops the services and removes the run dir (kept on failure, for its logs).
# Env: SPECWATCH_DEMO_SMOKE_RUN_DIR (default <run dir>/demo-smoke), SPECWATCH_DEMO_SMOKE_KEEP=1
# keeps the run dir after success; the demo's own SPECWATCH_DEMO_* settings pass through.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

RUN_DIR="${SPECWATCH_DEMO_SMOKE_RUN_DIR:-$SPECWATCH_RUN_DIR/demo-smoke}"
T_START=$SECONDS

private_services_traps "demo smoke" "$RUN_DIR" "${SPECWATCH_DEMO_SMOKE_KEEP:-}"

USED_PORTS+="$(printf '%s ' 19092 19093 18081 18091 18123 19000 8088)" # the defaults: a user's demo
export SPECWATCH_RUN_DIR="$RUN_DIR"
rm -rf "$RUN_DIR"
mkdir -p "$RUN_DIR"
# Below the kernel's ephemeral range (32768-60999). These were 38xxx-39xxx until ClickHouse exited
# during startup in both attempts (CI, 2026-12-04 20:24 UTC; its log was not printed then). The likely
# cause, reproduced since: an outgoing connection held its port as its local port (maybe one of the
# smoke's own Kafka, started after the pick), and ClickHouse exits on "Address already in use".
# The other smokes and benches use 28xxx-29xxx.
# A retry after a service failed to start picks them anew (pick_port skips those handed out).
pick_ports() {
  pick_port SPECWATCH_KAFKA_PORT 27092
  pick_port SPECWATCH_KAFKA_CONTROLLER_PORT 27093
  pick_port SPECWATCH_REGISTRY_PORT 26081
  pick_port SPECWATCH_REGISTRY_MANAGEMENT_PORT 26091
  pick_port SPECWATCH_CLICKHOUSE_HTTP_PORT 26123
  pick_port SPECWATCH_CLICKHOUSE_TCP_PORT 27000
  pick_port SPECWATCH_DASHBOARD_PORT 26088
  export SPECWATCH_KAFKA_PORT SPECWATCH_KAFKA_CONTROLLER_PORT SPECWATCH_REGISTRY_PORT \
    SPECWATCH_REGISTRY_MANAGEMENT_PORT SPECWATCH_CLICKHOUSE_HTTP_PORT SPECWATCH_CLICKHOUSE_TCP_PORT \
    SPECWATCH_DASHBOARD_PORT
}
pick_ports
unset SPECWATCH_BOOTSTRAP SPECWATCH_REGISTRY_URL SPECWATCH_CLICKHOUSE_URL

# One retry: the demo writes its logs in real time on a machine that also runs everything else. A
# healthy deployment was once flagged REGRESSION on its last windows (2026-12-02 09:13 UTC,
# llama31-8b-eagle3-h100, cycle ms 10.11 vs 9.18, 1 of 8 runs that day: a shift within its
# window-to-window noise, which --alert-regression-min-shift-sds no longer lets raise, docs/DESIGN.md);
# the retry stays for what a loaded machine may still do. A broken pipeline fails both runs (the
# run-context regression gave the same 4 MISMATCH lines every time); a first failure is printed in
# full either way. After a service failed to start, the retry runs on services with fresh ports.
STARTED=1
summary="" rc=1
for attempt in 1 2; do
  OUT="$RUN_DIR/demo-$attempt.out"
  log "demo smoke: ./specwatch demo (attempt $attempt) on Kafka :$SPECWATCH_KAFKA_PORT, registry :$SPECWATCH_REGISTRY_PORT, ClickHouse :$SPECWATCH_CLICKHOUSE_HTTP_PORT (output: $OUT)"
  rc=0
  SPECWATCH_DEMO_RUN_ID="smoke$attempt$(date -u +%H%M%S)" SPECWATCH_DEMO_DATABASE="specwatch_demo_smoke$attempt" \
    "$SPECWATCH_HOME/scripts/demo.sh" >"$OUT" 2>&1 || rc=$?
  summary=$(grep -Eo "all [0-9]+ expectations OK|MISMATCH: .*" "$OUT" | tail -1 || true)
  if ((rc == 0)) && [[ "$summary" =~ ^all\ [0-9]+\ expectations\ OK$ ]]; then
    log "demo smoke: ok, $summary (attempt $attempt, $((SECONDS - T_START))s)"
    exit 0
  fi
  log "demo smoke: attempt $attempt failed, exit $rc: ${summary:-no summary line}"
  if [[ -n "$summary" ]]; then
    grep -E "MISMATCH|ERROR|failed" "$OUT" | head -20 >&2 || true
  else # it stopped before the checks: its last lines hold the cause (a failed service prints its log tail)
    tail -n 60 "$OUT" >&2 || true
  fi
  if ((attempt == 1)) && grep -q "failed to start:" "$OUT"; then
    "$SPECWATCH_HOME/scripts/services.sh" stop || true
    pick_ports
  fi
done
die "demo smoke: ./specwatch demo failed twice: ${summary:-no summary line} (outputs: $RUN_DIR/demo-*.out)"
