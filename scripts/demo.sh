#!/usr/bin/env bash
# ./specwatch demo: replay the bundled engine logs through the whole pipeline on real local services
# (Kafka broker, Apicurio registry, ClickHouse server as plain processes) and print the window rows
# read back from ClickHouse.
#
# Each run uses its own topics and Streams application id (suffix = run id), so a rerun never mixes
# with an earlier one; ClickHouse rows are keyed by (deployment, window) and replace each other.
set -euo pipefail
SPECWATCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SPECWATCH_HOME
# shellcheck source=lib.sh
source "$SPECWATCH_HOME/scripts/lib.sh"

VERSION=0.1.0-SNAPSHOT
RUN_ID=${SPECWATCH_DEMO_RUN_ID:-$(date -u +%Y%m%d%H%M%S)}
DB=${SPECWATCH_DEMO_DATABASE:-specwatch_demo}
LOGS=${SPECWATCH_DEMO_LOGS:-$SPECWATCH_HOME/demo/logs}
DEMO_DIR="$SPECWATCH_RUN_DIR/demo/$RUN_ID"
mkdir -p "$DEMO_DIR"

T_EVENTS="specwatch.demo-$RUN_ID.decode-events.v1"
T_WINDOWS="specwatch.demo-$RUN_ID.window-results.v1"
T_DLQ="specwatch.demo-$RUN_ID.dead-letter.v1"
T_CONTEXT="specwatch.demo-$RUN_ID.run-context.v1"
T_ALERTS="specwatch.demo-$RUN_ID.alerts.v1"

PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]:-}"; do
    [[ -n "$p" ]] && kill "$p" 2>/dev/null || true
  done
  for p in "${PIDS[@]:-}"; do
    [[ -n "$p" ]] && wait "$p" 2>/dev/null || true
  done
}
trap 'cleanup; echo; log "demo interrupted: apps stopped; services keep running (./specwatch services stop), data stays in ClickHouse database $DB"; exit 130' INT TERM
trap cleanup EXIT

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
jar() { echo "$SPECWATCH_HOME/$1/target/specwatch-$1-$VERSION.jar"; }

t0=$SECONDS
step "1/6 build (skipped when the jars exist; ./specwatch build rebuilds)"
for m in ingest streams-app sinks; do
  if [[ ! -f "$(jar "$m")" ]]; then "$SPECWATCH_HOME/specwatch" build; break; fi
done

step "2/6 local services: Kafka 4.4.0 (KRaft), Apicurio registry, ClickHouse (logs in $SPECWATCH_RUN_DIR/services)"
"$SPECWATCH_HOME/scripts/services.sh" start
eval "$("$SPECWATCH_HOME/scripts/services.sh" env)"
: "${SPECWATCH_BOOTSTRAP:?}" "${SPECWATCH_REGISTRY_URL:?}" "${SPECWATCH_CLICKHOUSE_URL:?}"

step "3/6 topics for run $RUN_ID"
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_EVENTS" 3
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_WINDOWS" 3 append-time
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_DLQ" 1
# co-partitioned with the events: same partition count, both keyed by deployment
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_CONTEXT" 3 compact
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_ALERTS" 1 append-time

step "4/6 ingest: ship the sample engine logs ($LOGS) to $T_EVENTS"
for f in "$LOGS"/*.log; do
  dep=$(basename "$f" .log)
  log "shipping $f as deployment $dep"
  java -jar "$(jar ingest)" ship --file "$f" --deployment "$dep" --host demo-gpu-01 \
    --bootstrap "$SPECWATCH_BOOTSTRAP" --registry-url "$SPECWATCH_REGISTRY_URL" \
    --topic "$T_EVENTS" --dlq-topic "$T_DLQ" --run-context-topic "$T_CONTEXT"
done

step "5/6 streams-app (exactly_once_v2, 1-minute windows) and ClickHouse sink"
java -jar "$(jar sinks)" migrate --clickhouse-url "$SPECWATCH_CLICKHOUSE_URL" --database "$DB" \
  >"$DEMO_DIR/sink-migrate.log" 2>&1 || { cat "$DEMO_DIR/sink-migrate.log"; die "ClickHouse migration failed"; }
java -jar "$(jar streams-app)" run --bootstrap "$SPECWATCH_BOOTSTRAP" --registry-url "$SPECWATCH_REGISTRY_URL" \
  --application-id "specwatch-demo-$RUN_ID" --state-dir "$DEMO_DIR/streams-state" \
  --decode-events-topic "$T_EVENTS" --window-results-topic "$T_WINDOWS" --run-context-topic "$T_CONTEXT" \
  --dead-letter-topic "$T_DLQ" --alerts-topic "$T_ALERTS" --no-create-topics --exit-when-idle 10s \
  >"$DEMO_DIR/streams.log" 2>&1 &
streams_pid=$!
PIDS+=("$streams_pid")
log "logs: $DEMO_DIR/streams.log, $DEMO_DIR/sink.log"
# The sink starts once streams-app has processed the whole replay and committed its last
# transaction, so its idle timeout cannot fire while streams-app is still starting up.
while kill -0 "$streams_pid" 2>/dev/null; do
  printf '\r  streams-app windowing the replayed events (%ss)   ' "$((SECONDS - t0))"
  sleep 2
done
echo
wait "$streams_pid" || die "streams-app failed: see $DEMO_DIR/streams.log"
grep -h "final metrics" "$DEMO_DIR/streams.log" | sed 's/^.*final metrics /  streams-app: /' || true
java -jar "$(jar sinks)" run --bootstrap "$SPECWATCH_BOOTSTRAP" --registry-url "$SPECWATCH_REGISTRY_URL" \
  --clickhouse-url "$SPECWATCH_CLICKHOUSE_URL" --database "$DB" --tables window_results,decode_events \
  --topic "$T_WINDOWS" --decode-events-topic "$T_EVENTS" --dead-letter-topic "$T_DLQ" \
  --group-id "specwatch-demo-sink-$RUN_ID" --exit-when-idle PT8S \
  >"$DEMO_DIR/sink.log" 2>&1 &
sink_pid=$!
PIDS+=("$sink_pid")
while kill -0 "$sink_pid" 2>/dev/null; do
  printf '\r  sink inserting window results and decode events into ClickHouse (%ss)   ' "$((SECONDS - t0))"
  sleep 2
done
echo
wait "$sink_pid" || die "sink failed: see $DEMO_DIR/sink.log"
grep -h "sink done" "$DEMO_DIR/sink.log" | sed 's/^/  /' || true
PIDS=()

step "6/6 window rows read back from ClickHouse ($DB.window_results)"
java -jar "$(jar sinks)" windows --clickhouse-url "$SPECWATCH_CLICKHOUSE_URL" --database "$DB"

log "demo done in $((SECONDS - t0)) s. Services are still running: ./specwatch services status | stop"
log "query yourself: curl '$SPECWATCH_CLICKHOUSE_URL/' --data-binary 'SELECT * FROM $DB.window_results FINAL FORMAT PrettyCompact'"
