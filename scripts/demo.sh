#!/usr/bin/env bash
# ./specwatch demo: the whole pipeline on real local services (Kafka broker, Apicurio registry,
# ClickHouse server as plain processes). The generator writes the engine logs of the demo scenario
# (ingest/README.md, "Generating a synthetic fleet": SGLang, vLLM and TRT-LLM deployments, EAGLE-3
# and plain baselines of the same models, the seeds' below-baseline case, a tau collapse, an NCCL
# verify-ms regression, a within-noise shift) at wall-clock pace sped up SPEED times; one
# `ingest tail` per deployment follows the files while they grow; streams-app windows them and
# raises alerts; the sink loads every topic into ClickHouse. Then the report is read back from
# ClickHouse and checked against the generator's manifest.json: the alerts each episode expects (and
# none elsewhere) and each deployment's verdict (healthy / below baseline / drafter broken / plain)
# for the episode its run ends in (exit 1 on a mismatch).
#
# Each run uses its own topics, Streams application id and consumer group (suffix = run id), so a
# rerun never mixes with an earlier one; ClickHouse rows of a rerun replace the earlier ones by key
# only where keys match, so the report reads the run's own rows (generated event-time span).
# Ctrl-C stops the apps this script started; services and data stay.
set -euo pipefail
SPECWATCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SPECWATCH_HOME
# shellcheck source=lib.sh
source "$SPECWATCH_HOME/scripts/lib.sh"

VERSION=0.1.0-SNAPSHOT
RUN_ID=${SPECWATCH_DEMO_RUN_ID:-$(date -u +%Y%m%d%H%M%S)}
DB=${SPECWATCH_DEMO_DATABASE:-specwatch_demo}
DURATION=${SPECWATCH_DEMO_DURATION:-30m}
SPEED=${SPECWATCH_DEMO_SPEED:-20}
# Event-time lateness streams-app accepts: tails that start or poll a few wall-clock seconds apart
# are minutes apart in event time at SPEED x.
GRACE=${SPECWATCH_DEMO_GRACE:-5m}
SEED=${SPECWATCH_DEMO_SEED:-42}
SETTLE_TIMEOUT=${SPECWATCH_DEMO_SETTLE_TIMEOUT:-600}
DEMO_DIR="$SPECWATCH_RUN_DIR/demo/$RUN_ID"
GEN="$DEMO_DIR/logs"
mkdir -p "$DEMO_DIR"

T_EVENTS="specwatch.demo-$RUN_ID.decode-events.v1"
T_WINDOWS="specwatch.demo-$RUN_ID.window-results.v1"
T_DLQ="specwatch.demo-$RUN_ID.dead-letter.v1"
T_CONTEXT="specwatch.demo-$RUN_ID.run-context.v1"
T_ALERTS="specwatch.demo-$RUN_ID.alerts.v1"
T_REQUESTS="specwatch.demo-$RUN_ID.request-acceptance.v1"
JAVA_OPTS=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k)

PIDS=()
stop_apps() {
  local p
  for p in "${PIDS[@]:-}"; do
    [[ -n "$p" ]] && kill "$p" 2>/dev/null || true
  done
  for p in "${PIDS[@]:-}"; do
    [[ -n "$p" ]] && wait "$p" 2>/dev/null || true
  done
  PIDS=()
}
how_to_query() {
  log "services keep running (./specwatch services status | stop); data stays in ClickHouse database $DB:"
  log "  SPECWATCH_CLICKHOUSE_DATABASE=$DB ./specwatch sql speculation_vs_baseline   (or: clickhouse-client --port ${SPECWATCH_CLICKHOUSE_TCP_PORT:-19000} -d $DB)"
}
trap 'stop_apps; echo; log "demo interrupted: the apps it started are stopped"; how_to_query; exit 130' INT TERM
trap stop_apps EXIT

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
jar() { echo "$SPECWATCH_HOME/$1/target/specwatch-$1-$VERSION.jar"; }
app() { # module args... (foreground)
  local m=$1
  shift
  java "${JAVA_OPTS[@]}" -jar "$(jar "$m")" "$@"
}
ch() { # SQL -> TSV
  curl -sS --fail-with-body "$SPECWATCH_CLICKHOUSE_URL/?database=$DB" --data-binary "$1"
}
demo_sql() { # scripts/demo-sql/FILE with this run's ${W_RUN} ${A_RUN} ${RANGE} ${FROM} ${TO} filled in
  local sql
  sql=$(<"$SPECWATCH_HOME/scripts/demo-sql/$1")
  sql=${sql//'${W_RUN}'/"$W_RUN"}
  sql=${sql//'${A_RUN}'/"$A_RUN"}
  sql=${sql//'${RANGE}'/"$RANGE"}
  sql=${sql//'${FROM}'/"$FROM"}
  sql=${sql//'${TO}'/"$TO"}
  printf '%s' "$sql"
}
ch_count() { ch "SELECT count() FROM $1 FINAL WHERE $2 FORMAT TSV" 2>/dev/null || echo '?'; }
elapsed() { printf '%dm%02ds' $(((SECONDS - t0) / 60)) $(((SECONDS - t0) % 60)); }

t0=$SECONDS
command -v jq >/dev/null 2>&1 || ensure_apt jq
command -v curl >/dev/null 2>&1 || ensure_apt curl

step "1/7 build (skipped when the jars exist; ./specwatch build rebuilds)"
for m in ingest streams-app sinks; do
  if [[ ! -f "$(jar "$m")" ]]; then "$SPECWATCH_HOME/specwatch" build; break; fi
done

step "2/7 local services: Kafka 4.4.0 (KRaft), Apicurio registry, ClickHouse (logs in $SPECWATCH_RUN_DIR/services)"
"$SPECWATCH_HOME/scripts/services.sh" start
eval "$("$SPECWATCH_HOME/scripts/services.sh" env)"
: "${SPECWATCH_BOOTSTRAP:?}" "${SPECWATCH_REGISTRY_URL:?}" "${SPECWATCH_CLICKHOUSE_URL:?}"
KAFKA=(--bootstrap "$SPECWATCH_BOOTSTRAP" --registry-url "$SPECWATCH_REGISTRY_URL")

step "3/7 topics for run $RUN_ID, ClickHouse tables in database $DB"
# The deployments (ids, hosts, hardware, log formats) come from a manifest of the same scenario (a
# 1-minute replay into preview/), so the tails can be up before the first line is written.
app ingest generate --scenario demo --seed "$SEED" --duration 1m --out "$DEMO_DIR/preview" \
  >"$DEMO_DIR/generate-preview.log" 2>&1 || die "generator failed: see $DEMO_DIR/generate-preview.log"
PREVIEW="$DEMO_DIR/preview/manifest.json"
# Stream time is per partition: every deployment gets an events partition of its own, so a tail
# that falls behind (a busy machine) never sees its events arrive after another deployment closed
# their windows. Run contexts and requests are co-partitioned with the events (same count, same key).
PARTS=$(jq -r '.separatingPartitions // 0' "$PREVIEW")
[[ "$PARTS" =~ ^[1-9][0-9]*$ ]] || PARTS=3
log "event partitions: $PARTS (one per deployment)"
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_EVENTS" "$PARTS"
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_WINDOWS" 3 append-time
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_DLQ" 1
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_CONTEXT" "$PARTS" compact
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_ALERTS" 1 append-time
"$SPECWATCH_HOME/scripts/services.sh" topics-create "$T_REQUESTS" "$PARTS"
app sinks migrate --clickhouse-url "$SPECWATCH_CLICKHOUSE_URL" --database "$DB" \
  >"$DEMO_DIR/sink-migrate.log" 2>&1 || { cat "$DEMO_DIR/sink-migrate.log"; die "ClickHouse migration failed"; }

step "4/7 streams-app (exactly_once_v2, 1-minute windows, grace $GRACE, baselines, alerts), ClickHouse sink, dashboard"
log "app logs: $DEMO_DIR/{streams,sink,tail-*,generate}.log"
# Speculative deployments with a plain twin on the same model and hardware get a learned baseline;
# the others (DeepSeek MTP, Llama-70B n-gram) a configured t_AR, as an operator would set it.
STATIC=$(jq -r '. as $m | [.deployments[] | select((.specMethod | ascii_downcase) != "none" and ((.baseline // "") == "")) | . as $d
  | ($m.episodes[] | select(.deployment == $d.id and .figures.tArMsBatch1 != null) | .figures.tArMsBatch1) as $t
  | "\($d.model)|\($d.hardware.hardwareClass)|\($d.tp)|*=\($t)"] | unique | join(",")' "$PREVIEW")
STATIC_ARGS=()
[[ -n "$STATIC" ]] && STATIC_ARGS=(--static-baseline "$STATIC") && log "configured baselines (t_AR ms): $STATIC"
# --max-event-ahead: the demo writes $DURATION of event time in $DURATION / $SPEED of wall time, so its
# events run up to ~$DURATION ahead of when the tails read them (ingest time); the default 15m would
# dead-letter them as stamped by a wrong --log-zone.
java "${JAVA_OPTS[@]}" -jar "$(jar streams-app)" run "${KAFKA[@]}" \
  --application-id "specwatch-demo-$RUN_ID" --state-dir "$DEMO_DIR/streams-state" \
  --decode-events-topic "$T_EVENTS" --window-results-topic "$T_WINDOWS" --run-context-topic "$T_CONTEXT" \
  --dead-letter-topic "$T_DLQ" --alerts-topic "$T_ALERTS" --no-create-topics --grace "$GRACE" "${STATIC_ARGS[@]}" \
  --max-event-ahead "$DURATION" >"$DEMO_DIR/streams.log" 2>&1 &
PIDS+=("$!")
java "${JAVA_OPTS[@]}" -jar "$(jar sinks)" run "${KAFKA[@]}" \
  --clickhouse-url "$SPECWATCH_CLICKHOUSE_URL" --database "$DB" \
  --window-results-topic "$T_WINDOWS" --alerts-topic "$T_ALERTS" --decode-events-topic "$T_EVENTS" \
  --request-acceptance-topic "$T_REQUESTS" --run-context-topic "$T_CONTEXT" --dead-letter-topic "$T_DLQ" \
  --group-id "specwatch-demo-sink-$RUN_ID" \
  >"$DEMO_DIR/sink.log" 2>&1 &
PIDS+=("$!")

DASH_PORT=${SPECWATCH_DASHBOARD_PORT:-8088}
java "${JAVA_OPTS[@]}" -Xmx256m -jar "$(jar sinks)" dashboard --clickhouse-url "$SPECWATCH_CLICKHOUSE_URL" \
  --database "$DB" --port "$DASH_PORT" >"$DEMO_DIR/dashboard.log" 2>&1 &
PIDS+=("$!")
log "dashboard (live while the demo runs): http://127.0.0.1:$DASH_PORT/"

step "5/7 generate $DURATION of engine logs at ${SPEED}x wall-clock pace; one 'ingest tail' per deployment follows them"
LOG_YEAR=$(date -u +%Y)
DEPLOYMENTS=$(jq -r '.deployments[].id' "$PREVIEW")
# What an operator configures on each host's shipper: the hardware (no engine log prints it; the
# baseline key is model|hardware class|tp) and, for vLLM v1/v2 spec lines, the draft steps.
tail_args() { # deployment -> tail options from the manifest
  jq -r --arg d "$1" '.deployments[] | select(.id == $d) |
    "--deployment\n\(.id)\n--host\n\(.host)" +
    "\n--hardware-class\n\(.hardware.hardwareClass)\n--gpu-model\n\(.hardware.gpuModel)" +
    "\n--gpu-count\n\(.hardware.gpuCount)\n--interconnect\n\(.hardware.interconnect)" +
    (if (.logFormat | test("^VLLM_V1_SPEC_V[12]$")) then "\n--speculative-num-steps\n\(.draftTokens)" else "" end)' \
    "$PREVIEW"
}
start_tail() { # deployment [extra tail options]; run it with & (exec: $! is the JVM)
  local d=$1 args
  shift
  mapfile -t args < <(tail_args "$d")
  mkdir -p "$GEN/$d" "$DEMO_DIR/checkpoints/$d"
  exec java "${JAVA_OPTS[@]}" -Xmx192m -jar "$(jar ingest)" tail --glob "$GEN/$d/*" \
    --checkpoint-dir "$DEMO_DIR/checkpoints/$d" "${args[@]}" "${KAFKA[@]}" --log-year "$LOG_YEAR" \
    --topic "$T_EVENTS" --dlq-topic "$T_DLQ" --run-context-topic "$T_CONTEXT" --request-topic "$T_REQUESTS" \
    --producer-property max.block.ms=120000 "$@" >>"$DEMO_DIR/tail-$d.log" 2>&1
}
TAIL_PIDS=()
for d in $DEPLOYMENTS; do
  start_tail "$d" &
  TAIL_PIDS+=("$!")
  PIDS+=("$!")
done
NDEP=$(wc -w <<<"$DEPLOYMENTS")
log "$NDEP deployments: $(tr '\n' ' ' <<<"$DEPLOYMENTS")"
tails_ready() { [[ $(cat "$DEMO_DIR"/tail-*.log 2>/dev/null | grep -c 'tailing globs=') -ge $NDEP ]]; }
wait_until 300 "the tails to start" tails_ready || die "the tails did not start: see $DEMO_DIR/tail-*.log"

# The generator starts at the current minute, so windows line up with wall-clock minutes.
START=$(date -u +%Y-%m-%dT%H:%M:00Z)
java "${JAVA_OPTS[@]}" -jar "$(jar ingest)" generate --scenario demo --seed "$SEED" --start "$START" \
  --duration "$DURATION" --realtime --speed "$SPEED" --out "$GEN" >"$DEMO_DIR/generate.log" 2>&1 &
gen_pid=$!
PIDS+=("$gen_pid")
wait_until 60 "manifest.json" test -s "$GEN/manifest.json" || die "generator wrote no manifest: $DEMO_DIR/generate.log"
MANIFEST="$GEN/manifest.json"
FROM=$(jq -r '.start' "$MANIFEST" | sed 's/T/ /; s/Z$//')
TO=$(jq -r '.end' "$MANIFEST" | sed 's/T/ /; s/Z$//')
RANGE="window_start >= toDateTime('$FROM', 'UTC') AND window_start < toDateTime('$TO', 'UTC')"
# a rerun within the same event-time span shares ClickHouse keys with the earlier run: read this
# run's rows only (the sink records the topic of every row)
W_RUN="kafka_topic = '$T_WINDOWS'"
A_RUN="kafka_topic = '$T_ALERTS'"

progress() { # label
  local lines events windows alerts
  lines=$(cat "$GEN"/*/* 2>/dev/null | wc -l)
  events=$(ch_count decode_events "kafka_topic = '$T_EVENTS'")
  windows=$(ch_count window_results "$W_RUN AND $RANGE AND prompt_category = '*' AND batch_bucket = '*'")
  alerts=$(ch_count alerts "$A_RUN AND $RANGE AND state = 'RAISED'")
  printf '\r  [%s] %s: log lines written %s | decode events in ClickHouse %s | windows %s | alerts raised %s   ' \
    "$(elapsed)" "$1" "$lines" "$events" "$windows" "$alerts"
  LAST_PROGRESS="$events/$windows/$alerts"
}
while kill -0 "$gen_pid" 2>/dev/null; do
  progress "generating"
  sleep 2
done
echo
wait "$gen_pid" || die "generator failed: see $DEMO_DIR/generate.log"
grep -h "generated demo" "$DEMO_DIR/generate.log" | sed 's/^/  /' || true

# Every line is shipped once each file's checkpoint offset equals its size; then the tails stop
# (SIGTERM: clean, after the acknowledgements).
unshipped() { # -> number of files whose checkpoint is behind their size
  local n=0 f size off
  for f in "$GEN"/*/*; do
    [[ "$f" == */manifest.json ]] && continue
    size=$(stat -c %s "$f")
    off=$(cat "$DEMO_DIR/checkpoints/$(basename "$(dirname "$f")")"/*.json 2>/dev/null |
      jq -rs --arg s "$f" '[.[] | select(.source? == $s) | .offset] | max // 0')
    ((off < size)) && n=$((n + 1))
  done
  echo "$n"
}
deadline=$((SECONDS + SETTLE_TIMEOUT))
while (($(unshipped) > 0)); do
  for p in "${TAIL_PIDS[@]}"; do kill -0 "$p" 2>/dev/null || die "a tail stopped early: see $DEMO_DIR/tail-*.log"; done
  ((SECONDS < deadline)) || die "the tails did not ship every line within ${SETTLE_TIMEOUT}s: see $DEMO_DIR/tail-*.log"
  progress "shipping"
  sleep 2
done
for p in "${TAIL_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
for p in "${TAIL_PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
echo
log "every generated line shipped (checkpoints in $DEMO_DIR/checkpoints)"

step "6/7 waiting for the last windows and alerts to reach ClickHouse"
# Windows close as event time passes (1-minute windows + grace): the last ones of every deployment
# start grace + ~3 minutes before the end of the generated span; then the report is read once the counts
# stop growing for 3 consecutive polls.
LAST="window_start >= toDateTime('$TO', 'UTC') - INTERVAL 8 MINUTE AND prompt_category = '*' AND batch_bucket = '*'"
stable=0
prev=""
deadline=$((SECONDS + SETTLE_TIMEOUT))
while ((SECONDS < deadline)); do
  progress "settling"
  done_deps=$(ch "SELECT uniqExact(deployment_id) FROM window_results WHERE $W_RUN AND $LAST FORMAT TSV" 2>/dev/null || echo 0)
  if ((done_deps >= NDEP)) && [[ "$LAST_PROGRESS" == "$prev" && "$LAST_PROGRESS" != *'?'* ]]; then
    stable=$((stable + 1))
    ((stable >= 3)) && break
  else
    stable=0
  fi
  prev=$LAST_PROGRESS
  sleep 4
done
echo
((stable >= 3)) || log "WARNING: the pipeline did not settle within ${SETTLE_TIMEOUT}s (${done_deps:-0}/$NDEP deployments have their last windows); the report shows what arrived"
stop_apps
log "streams-app and sink stopped ($(elapsed))"

step "7/7 report read back from ClickHouse ($DB), event time $FROM .. $TO UTC"
# The report's SQL is in scripts/demo-sql/ (SqlCompatibilityIT runs the same files on 18.16 and chdb).
REPORT_SQL=$(demo_sql report.sql)
ch "$REPORT_SQL FORMAT PrettyCompactMonoBlock" || die "report query failed"
VERDICTS=$(ch "SELECT deployment, verdict FROM ($REPORT_SQL) FORMAT TSV") || die "verdict query failed"

echo
echo "Alerts raised (first window per deployment and type; evidence from the alert):"
ch "$(demo_sql alerts.sql)
FORMAT PrettyCompactMonoBlock" || die "alert query failed"

NODATA=$(ch "$(demo_sql no-data.sql) FORMAT TSV")
echo "(plus $NODATA NO_DATA alerts: windows without events while the tails start up; not part of the story)"
echo
echo "Expectations from $MANIFEST:"
RAISED=$(ch "$(demo_sql raised.sql) FORMAT TSV")
mismatch=0
ok=0
while IFS=$'\t' read -r dep type episode; do
  if grep -qx "$dep $type" <<<"$RAISED"; then
    printf '  OK        %-28s %-20s raised (episode %s)\n' "$dep" "$type" "$episode"
    ok=$((ok + 1))
  else
    printf '  MISMATCH  %-28s %-20s expected, not raised (episode %s)\n' "$dep" "$type" "$episode"
    mismatch=1
  fi
done < <(jq -r '.episodes[] | .id as $e | .deployment as $d | .expectedAlerts[] | [$d, ., $e] | @tsv' "$MANIFEST" | sort -u)
# Deployments none of whose episodes expects an alert (the within-noise shift, baselines, healthy
# ones) must raise nothing; NO_DATA at the end of the replay is not part of the story.
while IFS=$'\t' read -r dep episodes; do
  extra=$(grep "^$dep " <<<"$RAISED" | grep -v ' NO_DATA$' | cut -d' ' -f2 | tr '\n' ' ' || true)
  if [[ -z "$extra" ]]; then
    printf '  OK        %-28s %-20s not flagged (%s)\n' "$dep" "no alert" "$episodes"
    ok=$((ok + 1))
  else
    printf '  MISMATCH  %-28s %-20s flagged %s(%s)\n' "$dep" "no alert" "$extra" "$episodes"
    mismatch=1
  fi
done < <(jq -r '[.episodes | group_by(.deployment)[] | select(all(.expectedAlerts | length == 0))
  | [.[0].deployment, (map(.id) | join(", "))] | @tsv] | .[]' "$MANIFEST")

# The verdict of every deployment (report above) against the episode its run ended in: healthy,
# below baseline, drafter broken, or plain decoding (the baselines).
while IFS=$'\t' read -r dep type episode; do
  case "$type" in
    HEALTHY) want='healthy' ;;
    SPEC_BELOW_BASELINE) want='speculation costs throughput' ;;
    ACCEPT_COLLAPSE) want='drafter broken' ;;
    *) want='plain decoding' ;;
  esac
  got=$(awk -F'\t' -v d="$dep" '$1 == d { print $2 }' <<<"$VERDICTS")
  if [[ "$got" == "$want"* ]]; then
    printf '  OK        %-28s %-20s %s (episode %s)\n' "$dep" "verdict" "$got" "$episode"
    ok=$((ok + 1))
  else
    printf '  MISMATCH  %-28s %-20s %s, expected %s (episode %s)\n' "$dep" "verdict" "${got:-no windows}" "$want" "$episode"
    mismatch=1
  fi
done < <(jq -r '[.episodes[] | select(.type == "HEALTHY" or .type == "SPEC_BELOW_BASELINE"
    or .type == "ACCEPT_COLLAPSE" or .type == "BASELINE")] | group_by(.deployment)[]
  | max_by([.to, .from]) | [.deployment, .type, .id] | @tsv' "$MANIFEST")

cat <<EOF

Where to look next:
  dashboard      ./specwatch dashboard --database $DB   then http://127.0.0.1:$DASH_PORT/
  cookbook       SPECWATCH_CLICKHOUSE_DATABASE=$DB ./specwatch sql speculation_vs_baseline
                 SPECWATCH_CLICKHOUSE_DATABASE=$DB ./specwatch sql alert_history
                 SPECWATCH_CLICKHOUSE_DATABASE=$DB ./specwatch sql verify_ms_by_run_context
  clickhouse     clickhouse-client --port ${SPECWATCH_CLICKHOUSE_TCP_PORT:-19000} -d $DB \\
                   -q "SELECT deployment_id, window_start, mean_accept_length, speedup FROM window_results FINAL WHERE prompt_category = '*' AND batch_bucket = '*' ORDER BY window_start DESC LIMIT 10"
EOF
log "demo done in $(elapsed); logs in $DEMO_DIR"
how_to_query
if ((mismatch)); then
  log "MISMATCH: the pipeline's alerts or verdicts differ from the manifest (see above; $ok OK)"
  exit 1
fi
log "all $ok expectations OK"
