#!/usr/bin/env bash
# End-to-end benchmark (./specwatch bench e2e): engine log lines -> `ingest ship`/`ingest tail` ->
# Kafka (Avro, registry) -> streams app (exactly_once_v2) -> sink -> ClickHouse rows, on its OWN
# plain-process Kafka + registry + ClickHouse (non-default ports, own run dir; nothing shared is touched).
#   1. throughput: a generated fleet (`generate --scenario fleet`, replay) is shipped file by file while
#      the streams app and the sink run; clock from the first ship to the moment ClickHouse's
#      decode_events holds every record of the decode-events topic. Baseline: Kafka's
#      ConsumerPerformance reading that same decode-events topic (records/s). Ratio = pipeline
#      records/s (= ClickHouse decode_events rows/s) / consumer perf records/s; lines/s printed too.
#   2. latency: `generate --realtime` writes log files at wall-clock pace (event time ~ wall time),
#      `ingest tail` follows them, the app windows with --window/--grace below; p99 of
#      (inserted_at - event time) for decode_events rows, and p99 of (inserted_at - window_start) for
#      the window rows, i.e. from a window's first possible event to its row being visible, compared
#      with window + grace (target: p99 <= window + grace + 10 s for commit, sink flush and tail poll).
#
# Settings (env): SPECWATCH_BENCH_DEPLOYMENTS=4 SPECWATCH_BENCH_DURATION=10m (throughput fleet)
#   SPECWATCH_BENCH_LATENCY_DEPLOYMENTS=2 SPECWATCH_BENCH_LATENCY_DURATION=3m
#   SPECWATCH_BENCH_WINDOW=20s SPECWATCH_BENCH_GRACE=5s (seconds, suffix s)
#   SPECWATCH_BENCH_PORT_BASE=29300 (Kafka, controller +1, registry +2, management +3, ClickHouse HTTP +4,
#   TCP +5)  SPECWATCH_BENCH_RUN_DIR=<repo>/.run/bench-e2e  SPECWATCH_BENCH_KEEP_SERVICES=1
# Figures are printed as `BENCH <name> <value> <unit> [target]` lines (docs/BENCHMARKS.md).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

_int() { # NAME DEFAULT MIN
  local v="${!1:-$2}"
  [[ "$v" =~ ^[0-9]+$ ]] && ((v >= $3)) || die "setting $1 must be an integer >= $3, got '$v'"
  printf '%s' "$v"
}
_secs() { # NAME DEFAULT -> seconds
  local v="${!1:-$2}"
  [[ "$v" =~ ^[1-9][0-9]*s$ ]] || die "setting $1 must be seconds like 20s, got '$v'"
  printf '%s' "${v%s}"
}
DEPLOYMENTS=$(_int SPECWATCH_BENCH_DEPLOYMENTS 4 1)
DURATION=${SPECWATCH_BENCH_DURATION:-10m}
LAT_DEPLOYMENTS=$(_int SPECWATCH_BENCH_LATENCY_DEPLOYMENTS 2 1)
LAT_DURATION=${SPECWATCH_BENCH_LATENCY_DURATION:-3m}
WINDOW_S=$(_secs SPECWATCH_BENCH_WINDOW 20s)
GRACE_S=$(_secs SPECWATCH_BENCH_GRACE 5s)
BASE=$(_int SPECWATCH_BENCH_PORT_BASE 29300 1025)
((BASE < 65500)) || die "setting SPECWATCH_BENCH_PORT_BASE must be below 65500, got $BASE"
[[ "$DURATION" =~ ^[1-9][0-9]*[smh]$ ]] || die "setting SPECWATCH_BENCH_DURATION must look like 10m, got '$DURATION'"
[[ "$LAT_DURATION" =~ ^[1-9][0-9]*[smh]$ ]] \
  || die "setting SPECWATCH_BENCH_LATENCY_DURATION must look like 3m, got '$LAT_DURATION'"

export SPECWATCH_RUN_DIR="${SPECWATCH_BENCH_RUN_DIR:-$SPECWATCH_HOME/.run/bench-e2e}"
export SPECWATCH_KAFKA_PORT=$BASE SPECWATCH_KAFKA_CONTROLLER_PORT=$((BASE + 1))
export SPECWATCH_REGISTRY_PORT=$((BASE + 2)) SPECWATCH_REGISTRY_MANAGEMENT_PORT=$((BASE + 3))
export SPECWATCH_CLICKHOUSE_HTTP_PORT=$((BASE + 4)) SPECWATCH_CLICKHOUSE_TCP_PORT=$((BASE + 5))
BOOTSTRAP="127.0.0.1:$BASE"
REGISTRY="http://127.0.0.1:$((BASE + 2))/apis/ccompat/v7"
CH_URL="http://127.0.0.1:$((BASE + 4))"
RUN_ID="$(date +%s)"
WORK="$SPECWATCH_RUN_DIR/work/$RUN_ID"
mkdir -p "$WORK"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
SERVICES="$SPECWATCH_HOME/scripts/services.sh"
V=0.1.0-SNAPSHOT
jar() { printf '%s/%s/target/specwatch-%s-%s.jar' "$SPECWATCH_HOME" "$1" "$1" "$V"; }

PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  if [[ "${SPECWATCH_BENCH_KEEP_SERVICES:-}" != 1 ]]; then
    "$SERVICES" stop clickhouse registry kafka >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

for m in ingest streams-app sinks; do
  if [[ ! -f "$(jar "$m")" ]]; then
    log "bench e2e: building ingest, streams-app, sinks (package, no tests; nothing installed)"
    (cd "$SPECWATCH_HOME" && mvn -B -q -pl ingest,streams-app,sinks -am package -DskipTests -Djacoco.skip=true \
      -Dspotless.check.skip=true) || die "build failed: run 'mvn -B -pl ingest,streams-app,sinks -am package -DskipTests'"
    break
  fi
done

ch() { # SQL -> TSV on stdout
  curl -sfS "$CH_URL/" --data-binary "$1" || die "ClickHouse query failed: $1"
}

end_offsets() { # topic -> sum of end offsets
  SPECWATCH_BOOTSTRAP="$BOOTSTRAP" "$SERVICES" kafka-tool org.apache.kafka.tools.GetOffsetShell \
    --bootstrap-server "$BOOTSTRAP" --topic "$1" --time -1 2>/dev/null | awk -F: '{ n += $NF } END { print n + 0 }'
}

# pipeline PREFIX DB [streams options...]: topics, then the streams app and the sink in the background
pipeline() {
  local p="$1" db="$2" t
  shift 2
  for t in decode-events run-context request-acceptance dead-letter; do
    SPECWATCH_BOOTSTRAP="$BOOTSTRAP" "$SERVICES" topics-create "$p.$t" 3 >/dev/null
  done
  SPECWATCH_BOOTSTRAP="$BOOTSTRAP" "$SERVICES" topics-create "$p.window-results" 3 append-time >/dev/null
  "$JAVA" -Xmx512m -jar "$(jar streams-app)" run --bootstrap "$BOOTSTRAP" --registry-url "$REGISTRY" \
    --application-id "$p-streams" --state-dir "$WORK/state-$p" --decode-events-topic "$p.decode-events" \
    --window-results-topic "$p.window-results" --run-context-topic "$p.run-context" \
    --dead-letter-topic "$p.streams-dead-letter" --alerts-topic "$p.alerts" --topic-partitions 3 "$@" \
    >"$WORK/$p-streams.log" 2>&1 &
  PIDS+=($!)
  "$JAVA" -Xmx512m -jar "$(jar sinks)" run --bootstrap "$BOOTSTRAP" --registry-url "$REGISTRY" \
    --clickhouse-url "$CH_URL" --database "$db" --tables decode_events,window_results \
    --decode-events-topic "$p.decode-events" --window-results-topic "$p.window-results" \
    --dead-letter-topic "$p.sink-dead-letter" --group-id "$p-sink" >"$WORK/$p-sink.log" 2>&1 &
  PIDS+=($!)
  wait_until 300 "sink migrated $db" \
    bash -c "curl -sf '$CH_URL/' --data-binary 'EXISTS TABLE $db.decode_events' | grep -q 1" \
    || die "the sink did not create $db.decode_events, see $WORK/$p-sink.log"
}

ship_args() { # manifest deployment-index -> shipArgs, one per line
  python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print("\n".join(m["deployments"][int(sys.argv[2])]["shipArgs"]))' "$1" "$2"
}
dep_id() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["deployments"][int(sys.argv[2])]["id"])' "$1" "$2"; }

log "bench e2e: own services in $SPECWATCH_RUN_DIR (Kafka $BOOTSTRAP, registry $REGISTRY, ClickHouse $CH_URL)"
"$SERVICES" start kafka registry clickhouse
KAFKA_HOME="$(fetch_kafka_jars)"
CH_VERSION=$(ch "SELECT version()")

# ---- 1. throughput
GEN="$WORK/fleet"
log "generating a fleet of $DEPLOYMENTS deployments, $DURATION of logs (replay) in $GEN"
"$JAVA" -jar "$(jar ingest)" generate --scenario fleet --deployments "$DEPLOYMENTS" --duration "$DURATION" \
  --seed 11 --out "$GEN" >"$WORK/generate.log" 2>&1 || { tail "$WORK/generate.log" >&2; die "generate failed"; }
LINES=$(cat "$GEN"/*/engine.log | wc -l)
P="e2e$RUN_ID"
DB="bench_e2e_$RUN_ID"
pipeline "$P" "$DB"
log "throughput: shipping $LINES engine log lines of $DEPLOYMENTS deployments while streams app + sink run"
T0=$(date +%s.%N)
for ((i = 0; i < DEPLOYMENTS; i++)); do
  mapfile -t args < <(ship_args "$GEN/manifest.json" "$i")
  "$JAVA" -jar "$(jar ingest)" ship --file "$GEN/$(dep_id "$GEN/manifest.json" "$i")/engine.log" "${args[@]}" \
    --bootstrap "$BOOTSTRAP" --registry-url "$REGISTRY" --topic "$P.decode-events" --dlq-topic "$P.dead-letter" \
    --request-topic "$P.request-acceptance" --run-context-topic "$P.run-context" --no-progress \
    >>"$WORK/ship.out" 2>>"$WORK/ship.err" || { tail "$WORK/ship.err" >&2; die "ingest ship failed"; }
done
EVENTS=$(end_offsets "$P.decode-events")
((EVENTS > 0)) || die "the shipper produced no decode events"
log "throughput: $EVENTS decode events in Kafka; waiting until ClickHouse holds them all"
wait_until 1800 "$EVENTS rows in $DB.decode_events" \
  bash -c "[[ \$(curl -sf '$CH_URL/' --data-binary 'SELECT count() FROM $DB.decode_events') -ge $EVENTS ]]" \
  || die "ClickHouse has $(ch "SELECT count() FROM $DB.decode_events") of $EVENTS rows, see $WORK/$P-sink.log"
T1=$(date +%s.%N)
WINDOW_ROWS=$(ch "SELECT count() FROM $DB.window_results")

log "baseline: Kafka's ConsumerPerformance reading $P.decode-events"
"$JAVA" -Xmx512m -Dlog4j2.configurationFile="$KAFKA_HOME/config/tools-log4j2.yaml" \
  -cp "$KAFKA_HOME/lib/*" org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$BOOTSTRAP" \
  --topic "$P.decode-events" --num-records "$EVENTS" --group "bench-perf-$RUN_ID" --timeout 60000 \
  | tee "$WORK/consumer-perf.txt"
PERF_RATE=$(awk -F', *' 'NR > 1 && NF >= 10 {print $10}' "$WORK/consumer-perf.txt" | tail -1)
[[ -n "$PERF_RATE" ]] || die "could not read fetch.nMsg.sec from $WORK/consumer-perf.txt"
for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
PIDS=()

# ---- 2. latency, realtime
LGEN="$WORK/live"
LP="e2elat$RUN_ID"
LDB="bench_e2e_lat_$RUN_ID"
pipeline "$LP" "$LDB" --window "${WINDOW_S}s" --grace "${GRACE_S}s"
log "latency: generate --realtime ($LAT_DEPLOYMENTS deployments, $LAT_DURATION), ingest tail per deployment"
"$JAVA" -jar "$(jar ingest)" generate --scenario fleet --deployments "$LAT_DEPLOYMENTS" --duration "$LAT_DURATION" \
  --seed 12 --realtime --out "$LGEN" >"$WORK/generate-live.log" 2>&1 &
GEN_PID=$!
PIDS+=("$GEN_PID")
wait_until 120 "manifest of the realtime fleet" test -s "$LGEN/manifest.json" || die "generate --realtime wrote no manifest"
sleep 1
for ((i = 0; i < LAT_DEPLOYMENTS; i++)); do
  id=$(dep_id "$LGEN/manifest.json" "$i")
  mapfile -t args < <(ship_args "$LGEN/manifest.json" "$i")
  "$JAVA" -jar "$(jar ingest)" tail --glob "$LGEN/$id/engine.log" "${args[@]}" --checkpoint-dir "$WORK/ckpt-$id" \
    --bootstrap "$BOOTSTRAP" --registry-url "$REGISTRY" --topic "$LP.decode-events" --dlq-topic "$LP.dead-letter" \
    --request-topic "$LP.request-acceptance" >"$WORK/tail-$id.log" 2>&1 &
  PIDS+=($!)
done
wait "$GEN_PID" || die "generate --realtime failed, see $WORK/generate-live.log"
log "latency: generation done; letting the last windows close and the sink flush"
sleep $((WINDOW_S + GRACE_S + 15))
LAST_EVENT_S=$(ch "SELECT intDiv(max(event_time_ms), 1000) FROM $LDB.decode_events")
DEC_P99=$(ch "SELECT round(quantile(0.99)(toUnixTimestamp(inserted_at) - event_time_ms / 1000), 2) FROM $LDB.decode_events")
DEC_N=$(ch "SELECT count() FROM $LDB.decode_events")
# only windows that had to close before the end of the events (the last ones stay open)
WIN_Q="FROM $LDB.window_results WHERE toUnixTimestamp(window_end) + $GRACE_S <= $LAST_EVENT_S"
WIN_P99=$(ch "SELECT round(quantile(0.99)(toUnixTimestamp(inserted_at) - toUnixTimestamp(window_start)), 2) $WIN_Q")
WIN_N=$(ch "SELECT count() $WIN_Q")
((DEC_N > 0 && WIN_N > 0)) || die "no rows for the latency figure (decode $DEC_N, windows $WIN_N), logs in $WORK"

echo
echo "==== end-to-end benchmark ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ClickHouse $CH_VERSION, run $RUN_ID)"
awk -v l="$LINES" -v e="$EVENTS" -v w="$WINDOW_ROWS" -v t0="$T0" -v t1="$T1" -v perf="$PERF_RATE" 'BEGIN {
  t = t1 - t0
  printf "throughput: %d log lines -> %d decode_events rows (+ %d window rows) in ClickHouse in %.1f s\n", l, e, w, t
  printf "  pipeline: %.0f lines/s, %.0f records/s; consumer perf tool (baseline) %.0f records/s\n", l / t, e / t, perf
  printf "  ratio pipeline / consumer perf (records/s): %.4f\n", (e / t) / perf
  printf "BENCH e2e.pipeline_lines_per_s %.0f lines/s\n", l / t
  printf "BENCH e2e.pipeline_records_per_s %.0f records/s\n", e / t
  printf "BENCH e2e.consumer_perf_records_per_s %.0f records/s\n", perf
  printf "BENCH e2e.ratio_pipeline_to_consumer_perf %.4f ratio\n", (e / t) / perf
}'
awk -v d="$DEC_P99" -v dn="$DEC_N" -v w="$WIN_P99" -v wn="$WIN_N" -v ws="$WINDOW_S" -v gs="$GRACE_S" 'BEGIN {
  printf "latency (realtime, window %d s + grace %d s = %d s):\n", ws, gs, ws + gs
  printf "  decode_events row visible - event time: p99 %.2f s (%d rows)\n", d, dn
  printf "  window row visible - window start:      p99 %.2f s (%d closed windows) = %.2f x (window + grace)\n", w, wn, w / (ws + gs)
  printf "BENCH e2e.latency_decode_event_p99_s %.2f s\n", d
  printf "BENCH e2e.latency_window_row_p99_s %.2f s <=%d\n", w, ws + gs + 10
  printf "BENCH e2e.latency_window_row_p99_over_window_plus_grace %.3f ratio\n", w / (ws + gs)
}'
echo "logs: $WORK"
