#!/usr/bin/env bash
# Sink benchmark (`./specwatch bench sink`): generated decode events and window results inserted into
# ClickHouse by `clickhouse-client ... FORMAT TSV` (the baseline, same run), by the three Java insert paths
# (client-v2 RowBinary, client-v2 JSONEachRow, clickhouse-jdbc batches), and by the sink from Kafka.
# Prints rows/s, ratios to the baseline, and inserts per table per second; BENCH lines (medians over the
# rounds): sink.<table>.ratio_to_clickhouse_client (>=0.5), .inserts_per_second (<=1.5), .rows_per_insert
# (>=10000); the targets are explained in sinks/README.md, Benchmark.
#
# Runs its OWN services on non-default ports in its own run dir (the demo's and other users' services are
# left alone): Kafka, Apicurio and ClickHouse via scripts/services.sh. They are stopped at the end unless
# SPECWATCH_BENCH_KEEP=1.
#
# Settings (env): SPECWATCH_BENCH_EVENTS=300000 SPECWATCH_BENCH_WINDOWS=200000 SPECWATCH_BENCH_ROUNDS=3
#                 SPECWATCH_BENCH_RUN_DIR=<repo>/.run/bench-sink  SPECWATCH_BENCH_PORT_BASE=29100
#                 (Kafka base, controller base+1, registry base+2 / +3, ClickHouse HTTP base+4, TCP base+5)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

EVENTS="${SPECWATCH_BENCH_EVENTS:-300000}"
ROUNDS="${SPECWATCH_BENCH_ROUNDS:-3}"
WINDOWS="${SPECWATCH_BENCH_WINDOWS:-200000}"
BASE="${SPECWATCH_BENCH_PORT_BASE:-29100}"
[[ "$EVENTS" =~ ^[1-9][0-9]*$ ]] || die "SPECWATCH_BENCH_EVENTS must be a positive integer, got '$EVENTS'"
[[ "$WINDOWS" =~ ^[1-9][0-9]*$ ]] || die "SPECWATCH_BENCH_WINDOWS must be a positive integer, got '$WINDOWS'"
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ ]] || die "SPECWATCH_BENCH_ROUNDS must be a positive integer, got '$ROUNDS'"
[[ "$BASE" =~ ^[0-9]+$ ]] && ((BASE > 1024 && BASE < 65500)) || die "SPECWATCH_BENCH_PORT_BASE must be a port number, got '$BASE'"

export SPECWATCH_RUN_DIR="${SPECWATCH_BENCH_RUN_DIR:-$SPECWATCH_HOME/.run/bench-sink}"
export SPECWATCH_KAFKA_PORT=$BASE SPECWATCH_KAFKA_CONTROLLER_PORT=$((BASE + 1))
export SPECWATCH_REGISTRY_PORT=$((BASE + 2)) SPECWATCH_REGISTRY_MANAGEMENT_PORT=$((BASE + 3))
export SPECWATCH_CLICKHOUSE_HTTP_PORT=$((BASE + 4)) SPECWATCH_CLICKHOUSE_TCP_PORT=$((BASE + 5))
mkdir -p "$SPECWATCH_RUN_DIR"

SERVICES="$SPECWATCH_HOME/scripts/services.sh"
stop_services() {
  if [[ "${SPECWATCH_BENCH_KEEP:-0}" != 1 ]]; then
    "$SERVICES" stop kafka registry clickhouse || true
  fi
}
trap stop_services EXIT

log "bench sink: own services in $SPECWATCH_RUN_DIR (Kafka :$BASE, registry :$((BASE + 2)), ClickHouse :$((BASE + 4)))"
"$SERVICES" start kafka registry clickhouse

log "bench sink: compiling sinks and its test classes"
CP_FILE="$SPECWATCH_RUN_DIR/sinks-test.classpath"
(cd "$SPECWATCH_HOME" && mvn -B -q -pl sinks -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$CP_FILE" -Dspotless.check.skip=true -Djacoco.skip=true) \
  || die "build failed: run 'mvn -B -pl sinks -am test-compile' to see why"

LOG_FILE="$SPECWATCH_RUN_DIR/bench-sink.log"
log "bench sink: $EVENTS decode events, $WINDOWS window results (JVM log: $LOG_FILE)"
# GC log of the benchmark JVM (harness + sink): pauses are summed in the report below
GC_LOG="$SPECWATCH_RUN_DIR/gc.log"
rm -f "$GC_LOG"
# shellcheck disable=SC2086 # word list
java ${SPECWATCH_BENCH_JAVA_OPTS:--Xmx2g} "-Xlog:gc:file=$GC_LOG" -cp "$SPECWATCH_HOME/sinks/target/test-classes:$SPECWATCH_HOME/sinks/target/classes:$(cat "$CP_FILE")" \
  io.specwatch.sink.bench.SinkBench "127.0.0.1:$BASE" "http://127.0.0.1:$((BASE + 2))/apis/ccompat/v7" \
  "http://127.0.0.1:$((BASE + 4))" "$((BASE + 5))" "$EVENTS" "$WINDOWS" "$SPECWATCH_RUN_DIR/work" "$ROUNDS" \
  2>"$LOG_FILE" || { tail -30 "$LOG_FILE" >&2; die "benchmark failed (log: $LOG_FILE)"; }
