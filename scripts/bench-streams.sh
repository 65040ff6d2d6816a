#!/usr/bin/env bash
# Benchmark of the streams app (./specwatch bench streams), on its OWN plain-process Kafka + registry
# (non-default ports, own run dir: nothing shared with the demo or with tests):
#   1. throughput: W + N realistic SGLang interval events (Avro, many deployments, event time
#      advancing so windows close) on one topic, after one run context per deployment on the
#      run-context topic (four models on two hardware classes, TP 8; every 10th deployment
#      non-speculative, so the other deployments' closed windows get a comparison key and join
#      baselines learned from those: the whole baseline stage runs, as in a fleet whose shippers
#      publish their run contexts; before 2026-12-04 the input had no run contexts and every row
#      took the no-run-context path); Kafka's consumer perf tool reads that topic
#      (records/s; three runs, the median one is the baseline), then the streams app with
#      exactly_once_v2 processes it from the beginning. The sustained rate counts the last N
#      events: from the first commit at or past the W warm-up events (the JVM's JIT compiles the
#      hot paths meanwhile, ~15 CPU-s of C2 on this machine) until the group's committed offsets
#      reach the end; prints both, the ratio (target >= 0.25) and the whole-run rate (from the
#      first commit) for comparison. Then the floor: a topology that only decodes the same topic's
#      Avro values (the app's own decoder) with the same Streams settings (StreamsFloorBench, no
#      state, no output), sustained rate and ratio: what Kafka Streams itself allows on this machine;
#      and with SPECWATCH_BENCH_WINDOWED_FLOOR=1 (bench-streams-steady.sh sets it; since 2026-12-04)
#      the windowed floor: the DSL's simplest windowed aggregation with the app's window semantics
#      (StreamsFloorBench window-count: a count per deployment and one-minute window, 30 s grace,
#      emit on close, exactly_once_v2), where every windowing topology starts.
#   2. heap: the app with -Xmx512m over events of 10,000 deployments whose windows are all open at
#      the end; heap used after a full GC (jcmd GC.run + GC.heap_info) and RSS (target <= 512 MB).
#
# Settings (env): SPECWATCH_BENCH_EVENTS=200000  SPECWATCH_BENCH_WARMUP_EVENTS=200000
#                 SPECWATCH_BENCH_DEPLOYMENTS=1000
#                 SPECWATCH_BENCH_HEAP_DEPLOYMENTS=10000  SPECWATCH_BENCH_HEAP_EVENTS=50000
#                 SPECWATCH_BENCH_PARTITIONS=3  SPECWATCH_BENCH_PORT_BASE=29200 (Kafka, controller +1,
#                 registry +2, management +3)  SPECWATCH_BENCH_RUN_DIR=<repo>/.run/bench-streams
#                 SPECWATCH_BENCH_JAVA_OPTS (JVM options of both the app and the perf tool, default
#                 -Xmx512m)  SPECWATCH_BENCH_APP_ARGS (extra `streams run` options of the throughput
#                 run, e.g. "-K statestore.cache.max.bytes=0")  SPECWATCH_BENCH_KEEP_SERVICES=1
#                 SPECWATCH_BENCH_RUN_CONTEXTS=1 (0: no run contexts and no plain deployments, the
#                 input of the figures before 2026-12-04)  SPECWATCH_BENCH_PLAIN_EVERY=10 (every
#                 Nth deployment non-speculative; 0: none)  SPECWATCH_BENCH_WINDOWED_FLOOR=0 (1: also the
#                 windowed floor)  SPECWATCH_BENCH_FIGURES=streams (the figures' name prefix)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

_int() { # NAME DEFAULT MIN
  local v="${!1:-$2}"
  [[ "$v" =~ ^[0-9]+$ ]] && ((v >= $3)) || die "setting $1 must be an integer >= $3, got '$v'"
  printf '%s' "$v"
}
EVENTS=$(_int SPECWATCH_BENCH_EVENTS 200000 1000)
WARMUP=$(_int SPECWATCH_BENCH_WARMUP_EVENTS 200000 0)
TOTAL=$((WARMUP + EVENTS))
DEPLOYMENTS=$(_int SPECWATCH_BENCH_DEPLOYMENTS 1000 1)
HEAP_DEPLOYMENTS=$(_int SPECWATCH_BENCH_HEAP_DEPLOYMENTS 10000 1)
HEAP_EVENTS=$(_int SPECWATCH_BENCH_HEAP_EVENTS 50000 1)
PARTITIONS=$(_int SPECWATCH_BENCH_PARTITIONS 3 1)
RUN_CONTEXTS=$(_int SPECWATCH_BENCH_RUN_CONTEXTS 1 0)
((RUN_CONTEXTS <= 1)) || die "setting SPECWATCH_BENCH_RUN_CONTEXTS must be 0 or 1, got '$RUN_CONTEXTS'"
PLAIN_EVERY=$(_int SPECWATCH_BENCH_PLAIN_EVERY 10 0)
WINDOWED_FLOOR=$(_int SPECWATCH_BENCH_WINDOWED_FLOOR 0 0)
((WINDOWED_FLOOR <= 1)) || die "setting SPECWATCH_BENCH_WINDOWED_FLOOR must be 0 or 1, got '$WINDOWED_FLOOR'"
FIGURES=${SPECWATCH_BENCH_FIGURES:-streams}
[[ "$FIGURES" =~ ^[a-z0-9-]+$ ]] || die "setting SPECWATCH_BENCH_FIGURES must match [a-z0-9-]+, got '$FIGURES'"
BASE=$(_int SPECWATCH_BENCH_PORT_BASE 29200 1025)
((BASE < 65500)) || die "setting SPECWATCH_BENCH_PORT_BASE must be below 65500, got $BASE"
JAVA_OPTS=(${SPECWATCH_BENCH_JAVA_OPTS:--Xmx512m})

export SPECWATCH_RUN_DIR="${SPECWATCH_BENCH_RUN_DIR:-$SPECWATCH_HOME/.run/bench-streams}"
export SPECWATCH_KAFKA_PORT=$BASE SPECWATCH_KAFKA_CONTROLLER_PORT=$((BASE + 1))
export SPECWATCH_REGISTRY_PORT=$((BASE + 2)) SPECWATCH_REGISTRY_MANAGEMENT_PORT=$((BASE + 3))
BOOTSTRAP="127.0.0.1:$BASE"
REGISTRY="http://127.0.0.1:$((BASE + 2))/apis/ccompat/v7"
RUN_ID="$(date +%s)"
WORK="$SPECWATCH_RUN_DIR/work/$RUN_ID"
mkdir -p "$WORK"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
JCMD="${JAVA_HOME:+$JAVA_HOME/bin/}jcmd"
command -v "$JCMD" >/dev/null || die "jcmd not found (a JDK is needed for the heap figure)"
SERVICES="$SPECWATCH_HOME/scripts/services.sh"
APP_JAR="$SPECWATCH_HOME/streams-app/target/specwatch-streams-app-0.1.0-SNAPSHOT.jar"
TEST_CLASSES="$SPECWATCH_HOME/streams-app/target/test-classes"

cleanup() {
  [[ -n "${APP_PID:-}" ]] && kill -KILL "$APP_PID" 2>/dev/null || true
  if [[ "${SPECWATCH_BENCH_KEEP_SERVICES:-}" != 1 ]]; then
    "$SERVICES" stop registry kafka >/dev/null 2>&1 || true
    # the run's topics (~5 GB: produced events, changelogs, outputs) are read by no later run and
    # the broker keeps them: removed, so repeated runs do not fill the disk (2026-12-01)
    rm -rf "$SPECWATCH_RUN_DIR/services/kafka/data"
  fi
}
trap cleanup EXIT

if [[ ! -f "$APP_JAR" || ! -f "$TEST_CLASSES/io/specwatch/streams/StreamsBench.class" \
  || -n "${SPECWATCH_BENCH_BUILD:-}" ]]; then
  log "bench streams: building streams-app (package, tests compiled, not run)"
  (cd "$SPECWATCH_HOME" && mvn -B -q -pl streams-app -am package -DskipTests -Djacoco.skip=true \
    -Dspotless.check.skip=true) || die "build failed: run 'mvn -B -pl streams-app -am package -DskipTests'"
fi
CP="$TEST_CLASSES:$APP_JAR:$SPECWATCH_HOME/streams-app/target/lib/*"
bench() { "$JAVA" -Xmx1g -cp "$CP" io.specwatch.streams.StreamsBench "$@"; }

log "bench streams: own services in $SPECWATCH_RUN_DIR (Kafka $BOOTSTRAP, registry $REGISTRY)"
# a broker data dir left by a run that kept or lost its services (kill, KEEP_SERVICES) holds thousands
# of old partitions: loading them took the broker past the 300 s start timeout (2026-12-02). A broker
# that is not running gets a fresh data dir.
"$SERVICES" status kafka >/dev/null 2>&1 || rm -rf "$SPECWATCH_RUN_DIR/services/kafka/data"
"$SERVICES" start kafka registry
KAFKA_HOME="$(fetch_kafka_jars)"
BROKER_PID=$(cat "$SPECWATCH_RUN_DIR/services/kafka/kafka.pid")
[[ -r "/proc/$BROKER_PID/stat" ]] || die "no broker process $BROKER_PID"

# CPU seconds per 100 000 records of CPU seconds S over RECORDS records; -1 when either is unknown
per_100k() { # seconds records
  awk -v s="$1" -v n="$2" 'BEGIN { printf "%.2f", (s >= 0 && n > 0 ? s * 100000 / n : -1) }'
}

topic() { # name partitions [append-time]
  SPECWATCH_BOOTSTRAP="$BOOTSTRAP" "$SERVICES" topics-create "$@" >/dev/null
}

# run_app APP_ID IN OUT [extra args]: starts the app in the background, sets APP_PID, log in $WORK
run_app() {
  local id="$1" in="$2" out="$3"
  shift 3
  "$JAVA" "${JAVA_OPTS[@]}" -XX:+ExitOnOutOfMemoryError -jar "$APP_JAR" run \
    --bootstrap "$BOOTSTRAP" --registry-url "$REGISTRY" --application-id "$id" \
    --state-dir "$WORK/state-$id" --decode-events-topic "$in" --window-results-topic "$out" \
    --run-context-topic "$in-run-context" --dead-letter-topic "$out-dead-letters" \
    --alerts-topic "$out-alerts" \
    --topic-partitions "$PARTITIONS" "$@" >"$WORK/$id.log" 2>&1 &
  APP_PID=$!
}

stop_app() {
  kill -TERM "$APP_PID" 2>/dev/null || true
  wait "$APP_PID" 2>/dev/null || true
  APP_PID=
}

# ---- 1. throughput
IN="bench.decode-events.$RUN_ID"
OUT="bench.window-results.$RUN_ID"
topic "$IN" "$PARTITIONS"
topic "$OUT" "$PARTITIONS" append-time
CONTEXT_ARGS=()
INPUT_DESC="no run contexts"
if ((RUN_CONTEXTS == 1)); then
  # the app's run-context topic ($IN-run-context, run_app), created as the app would: compacted,
  # co-partitioned with the input
  topic "$IN-run-context" "$PARTITIONS" compact
  CONTEXT_ARGS=("$IN-run-context" "$PLAIN_EVERY")
  INPUT_DESC="a run context per deployment"
  ((PLAIN_EVERY > 0)) && INPUT_DESC+=", every ${PLAIN_EVERY}th deployment non-speculative"
fi
log "producing $TOTAL events ($WARMUP warm-up + $EVENTS measured) of $DEPLOYMENTS deployments to $IN ($PARTITIONS partitions; $INPUT_DESC)"
bench produce "$BOOTSTRAP" "$REGISTRY" "$IN" "$TOTAL" "$DEPLOYMENTS" stream "${CONTEXT_ARGS[@]}" | tee "$WORK/produce.txt"

# three runs, the median one is the baseline (each is a fresh JVM reading a short topic, so single
# runs moved 156 000-295 000 records/s between benches; ingest's kcat baseline is taken the same way)
log "baseline: Kafka's ConsumerPerformance reading $IN, three runs (same JVM options as the app: ${JAVA_OPTS[*]})"
PERF_RATES=()
PERF_BROKER=() # the broker's CPU seconds in each run
for n in 1 2 3; do
  b0=$(cpu_ticks "$BROKER_PID")
  "$JAVA" "${JAVA_OPTS[@]}" -Dlog4j2.configurationFile="$KAFKA_HOME/config/tools-log4j2.yaml" \
    -cp "$KAFKA_HOME/lib/*" org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$BOOTSTRAP" \
    --topic "$IN" --num-records "$TOTAL" --group "bench-perf-$RUN_ID-$n" --timeout 60000 \
    | tee "$WORK/consumer-perf-$n.txt"
  # columns: start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec,
  #          rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec (without the group join)
  rate=$(awk -F', *' 'NR > 1 && NF >= 10 {print $10}' "$WORK/consumer-perf-$n.txt" | tail -1)
  [[ -n "$rate" ]] || die "could not read fetch.nMsg.sec from $WORK/consumer-perf-$n.txt"
  PERF_RATES+=("$rate")
  b1=$(cpu_ticks "$BROKER_PID")
  PERF_BROKER+=("$(cpu_seconds "$b0" "$b1")")
done
PERF_RATE=$(printf '%s\n' "${PERF_RATES[@]}" | sort -g | sed -n 2p)
PERF_BROKER_CPU=0
for n in 0 1 2; do
  [[ "${PERF_RATES[$n]}" == "$PERF_RATE" ]] && PERF_BROKER_CPU=$(per_100k "${PERF_BROKER[$n]}" "$TOTAL")
done
log "consumer perf runs: ${PERF_RATES[*]} records/s, median $PERF_RATE"

APP_ID="bench-streams-$RUN_ID"
log "streams app (exactly_once_v2, ${JAVA_OPTS[*]} ${SPECWATCH_BENCH_APP_ARGS:-}) over $IN from the beginning"
# shellcheck disable=SC2086 # word splitting of the extra options is intended
run_app "$APP_ID" "$IN" "$OUT" ${SPECWATCH_BENCH_APP_ARGS:-}
# the sustained rate, and the CPU the app and the broker used in that same span
bench await "$BOOTSTRAP" "$APP_ID" "$IN" 1800 "$WARMUP" "$APP_PID" "$BROKER_PID" | tee "$WORK/streams.txt"
kill -0 "$APP_PID" 2>/dev/null || die "the app died, see $WORK/$APP_ID.log"
stop_app
# which path of the baseline stage the window rows took (the input is meant to exercise the join)
bench baselines "$BOOTSTRAP" "$REGISTRY" "$OUT" | tee "$WORK/baselines.txt"
BASELINE_ROWS=$(cat "$WORK/baselines.txt")
LEARNED_ROWS=$(sed -n 's/.* learned=\([0-9]*\).*/\1/p' "$WORK/baselines.txt")
if ((RUN_CONTEXTS == 1 && PLAIN_EVERY > 0 && ${LEARNED_ROWS:-0} == 0)); then
  die "no window row met a learned baseline ($BASELINE_ROWS): the input did not exercise the baseline join"
fi
# StreamsFloorBench MODE over the input as group APP_ID, its output in $WORK/STEM.txt and .log; sets
# FIGURE_RATE (events/s) and FIGURE_SPAN (what the rate spans).
# A floor topology commits once a second and can get through most of the measured events within one
# commit: then its sustained span (first commit past the warm-up to the last) holds none or only the
# last few of them (run 1796287646: 657 of 200 000 events in 1.07 s gave "614 events/s"), which says
# nothing. When that span holds fewer than half of the measured events, its whole-run rate (first
# commit to last) is the figure, labelled so.
floor_figure() { # mode app-id stem what
  "$JAVA" "${JAVA_OPTS[@]}" -cp "$CP" io.specwatch.streams.StreamsFloorBench "$BOOTSTRAP" "$REGISTRY" "$IN" \
    "$2" "$1" "$WARMUP" 2>"$WORK/$3.log" | tee "$WORK/$3.txt"
  FIGURE_RATE=$(sed -n 's/.* events_per_s=\([0-9]*\).*/\1/p' "$WORK/$3.txt")
  [[ -n "$FIGURE_RATE" ]] || die "no $4 figure, see $WORK/$3.log"
  FIGURE_SPAN="sustained"
  local events
  events=$(sed -n 's/^events=\([0-9]*\) .*/\1/p' "$WORK/$3.txt")
  if ((${events:-0} * 2 < EVENTS)); then
    FIGURE_RATE=$(sed -n 's/.*whole_events_per_s=\([0-9]*\).*/\1/p' "$WORK/$3.txt")
    [[ -n "$FIGURE_RATE" && "$FIGURE_RATE" != 0 ]] || die "no $4 figure, see $WORK/$3.log"
    FIGURE_SPAN="over its whole run (its span past the warm-up held ${events:-0} of the $EVENTS measured events)"
  fi
}
log "floor: a no-op exactly_once_v2 topology decoding the same topic's Avro values with the app's decoder"
floor_figure fast "bench-floor-$RUN_ID" floor floor
FLOOR_RATE=$FIGURE_RATE FLOOR_SPAN=$FIGURE_SPAN
# The windowed floor (SPECWATCH_BENCH_WINDOWED_FLOOR=1; bench-streams-steady.sh): the DSL's simplest
# aggregation with the app's window semantics (a count per deployment and one-minute window, 30 s
# grace, emitted once on close) under the same settings: what any topology that windows per
# deployment under exactly-once starts from (since 2026-12-04). Off in the default span: its RocksDB
# store and JIT warm-up take longer than the 200 000-event warm-up, and its first commit past the
# warm-up can come after most of the measured events (2026-12-04 13:55 UTC: 47 932 of 200 000 in its
# span, a whole-run rate of 0.131 of the perf tool against 0.21-0.27 at steady state).
COUNT_RATE=""
if ((WINDOWED_FLOOR)); then
  log "windowed floor: a DSL windowed count per deployment (emit on close, exactly_once_v2) over the same topic"
  floor_figure window-count "bench-count-$RUN_ID" count "windowed floor"
  COUNT_RATE=$FIGURE_RATE COUNT_SPAN=$FIGURE_SPAN
fi
APP_RATE=$(sed -n 's/.* events_per_s=\([0-9]*\).*/\1/p' "$WORK/streams.txt")
WHOLE_RATE=$(sed -n 's/.*whole_events_per_s=\([0-9]*\).*/\1/p' "$WORK/streams.txt")
DRAIN_S=$(sed -n 's/.*drain_seconds=\([0-9.]*\).*/\1/p' "$WORK/streams.txt")
[[ -n "$APP_RATE" ]] || die "no streams figure, see $WORK/streams.txt and $WORK/$APP_ID.log"
APP_EVENTS=$(sed -n 's/^events=\([0-9]*\) .*/\1/p' "$WORK/streams.txt")
# CPU seconds per 100 000 events of the sustained span: "cpu_s=APP_PID:S,BROKER_PID:S"
APP_CPU=$(sed -n 's/^cpu_s=[0-9]*:\([-0-9.]*\),.*/\1/p' "$WORK/streams.txt")
APP_BROKER_CPU=$(sed -n 's/^cpu_s=.*,[0-9]*:\([-0-9.]*\)$/\1/p' "$WORK/streams.txt")
APP_CPU=$(per_100k "${APP_CPU:--1}" "${APP_EVENTS:-0}")
APP_BROKER_CPU=$(per_100k "${APP_BROKER_CPU:--1}" "${APP_EVENTS:-0}")

# ---- 2. heap with every window of HEAP_DEPLOYMENTS deployments open
HIN="bench.decode-events-open.$RUN_ID"
HOUT="bench.window-results-open.$RUN_ID"
topic "$HIN" "$PARTITIONS"
topic "$HOUT" "$PARTITIONS" append-time
log "producing $HEAP_EVENTS events of $HEAP_DEPLOYMENTS deployments, all inside the first window"
bench produce "$BOOTSTRAP" "$REGISTRY" "$HIN" "$HEAP_EVENTS" "$HEAP_DEPLOYMENTS" open | tee "$WORK/produce-open.txt"
HEAP_ID="bench-heap-$RUN_ID"
HEAP_OPTS=(-Xmx512m)
JAVA_OPTS=("${HEAP_OPTS[@]}")
run_app "$HEAP_ID" "$HIN" "$HOUT"
bench await "$BOOTSTRAP" "$HEAP_ID" "$HIN" 1800 | tee "$WORK/heap-await.txt"
kill -0 "$APP_PID" 2>/dev/null || die "the app died (OOM?), see $WORK/$HEAP_ID.log"
"$JCMD" "$APP_PID" GC.run >/dev/null
"$JCMD" "$APP_PID" GC.heap_info | tee "$WORK/heap-info.txt"
HEAP_USED_K=$(grep -Eo 'used [0-9]+K' "$WORK/heap-info.txt" | head -1 | grep -Eo '[0-9]+')
# the committed heap: "total NK, used MK" up to JDK 21, "total reserved NK, committed MK, used KK" on
# newer JDKs (e.g. JAVA_HOME of a JDK 25)
HEAP_TOTAL_K=$(grep -Eo '(committed|total) [0-9]+K' "$WORK/heap-info.txt" | head -1 | grep -Eo '[0-9]+')
RSS_K=$(awk '/^VmRSS/ {print $2}' "/proc/$APP_PID/status")
stop_app

echo
echo "==== streams benchmark ($(nproc) cores, $WARMUP warm-up + $EVENTS measured events, $DEPLOYMENTS deployments ($INPUT_DESC), $PARTITIONS partitions, run $RUN_ID)"
printf 'consumer perf tool (baseline, median of %s): %.0f records/s\n' "${PERF_RATES[*]}" "$PERF_RATE"
printf 'streams app, exactly_once_v2:  %d events/s sustained (after the warm-up), %d events/s over the whole run\n' "$APP_RATE" "$WHOLE_RATE"
printf 'window rows by baselineSource: %s\n' "$BASELINE_ROWS"
awk -v a="$APP_RATE" -v b="$PERF_RATE" 'BEGIN {printf "ratio streams / consumer perf: %.3f (target >= 0.25)\n", a / b}'
printf 'floor (no-op EOS topology, Avro decode by the app decoder only): %d events/s %s\n' "$FLOOR_RATE" "$FLOOR_SPAN"
awk -v a="$FLOOR_RATE" -v b="$PERF_RATE" -v c="$APP_RATE" 'BEGIN {printf "ratio floor / consumer perf: %.3f; the app reaches %.0f %% of the floor\n", a / b, 100 * c / a}'
if [[ -n "$COUNT_RATE" ]]; then
  printf 'windowed floor (DSL count per deployment and window, emit on close, EOS): %d events/s %s\n' "$COUNT_RATE" "$COUNT_SPAN"
  awk -v a="$COUNT_RATE" -v b="$PERF_RATE" -v c="$APP_RATE" 'BEGIN {printf "ratio windowed floor / consumer perf: %.3f; the app reaches %.0f %% of it\n", a / b, 100 * c / a}'
fi
printf 'CPU per 100 000 events in the app'"'"'s sustained span: the app %s s, the broker %s s; the broker in the median perf tool run: %s s per 100 000 records\n' \
  "$APP_CPU" "$APP_BROKER_CPU" "$PERF_BROKER_CPU"
printf 'heap, %d deployments with open windows (-Xmx512m): used after full GC %d MB of %d MB committed, RSS %d MB (target <= 512 MB)\n' \
  "$HEAP_DEPLOYMENTS" "$((HEAP_USED_K / 1024))" "$((HEAP_TOTAL_K / 1024))" "$((RSS_K / 1024))"
echo "logs and raw tool output: $WORK"
# machine-readable figures (convention: docs/BENCHMARKS.md, read by `./specwatch bench all`)
{
printf 'BENCH streams.consumer_perf_records_per_s %.0f records/s\n' "$PERF_RATE"
printf 'BENCH streams.app_events_per_s %d events/s\n' "$APP_RATE"
printf 'BENCH streams.app_whole_run_events_per_s %d events/s\n' "$WHOLE_RATE"
printf 'BENCH streams.drain_after_input_s %s s\n' "$DRAIN_S"
awk -v a="$WHOLE_RATE" -v b="$PERF_RATE" 'BEGIN {printf "BENCH streams.ratio_whole_run_to_consumer_perf %.4f ratio\n", a / b}'
awk -v a="$APP_RATE" -v b="$PERF_RATE" 'BEGIN {printf "BENCH streams.ratio_app_to_consumer_perf %.4f ratio >=0.25\n", a / b}'
printf 'BENCH streams.app_cpu_s_per_100k_events %s CPU-s\n' "$APP_CPU"
printf 'BENCH streams.broker_cpu_s_per_100k_events_app %s CPU-s\n' "$APP_BROKER_CPU"
printf 'BENCH streams.broker_cpu_s_per_100k_records_consumer_perf %s CPU-s\n' "$PERF_BROKER_CPU"
printf 'BENCH streams.floor_events_per_s %d events/s\n' "$FLOOR_RATE"
awk -v a="$FLOOR_RATE" -v b="$PERF_RATE" 'BEGIN {printf "BENCH streams.ratio_floor_to_consumer_perf %.4f ratio\n", a / b}'
if [[ -n "$COUNT_RATE" ]]; then
  printf 'BENCH streams.window_count_floor_events_per_s %d events/s\n' "$COUNT_RATE"
  awk -v a="$COUNT_RATE" -v b="$PERF_RATE" 'BEGIN {printf "BENCH streams.ratio_window_count_floor_to_consumer_perf %.4f ratio\n", a / b}'
fi
printf 'BENCH streams.heap_used_after_gc_mb %d MB <=512\n' "$((HEAP_USED_K / 1024))"
printf 'BENCH streams.rss_mb %d MB\n' "$((RSS_K / 1024))"
printf 'BENCH streams.window_rows %d rows\n' "$(sed -n 's/^rows=\([0-9]*\).*/\1/p' "$WORK/baselines.txt")"
printf 'BENCH streams.window_rows_learned_baseline %d rows\n' "${LEARNED_ROWS:-0}"
} | sed "s/^BENCH streams\./BENCH $FIGURES./"
