#!/usr/bin/env bash
# ./specwatch bench ingest: the shipper's throughput against kcat on the same real broker, same run.
#
# Builds a deterministic mixed engine log (default 1,000,000 lines: SGLang Decode batch, vLLM V1 and
# v0 metric pairs, TensorRT-LLM iteration stats, ~30% noise lines, ~0.1% cut lines that are
# dead-lettered), starts its OWN Kafka + registry as plain processes (scripts/services.sh with
# non-default ports and its own run dir, so nobody else's services or tests are touched), then
#   1. kcat -P produces the raw lines (one message per line), three times to three topics; the median
#      run by wall time is the baseline (one run moved 2x between benches on this machine),
#   1b. (run before 1., so that its millions of records warm the broker for kcat too) the Java Kafka
#      client alone (scripts/bench/RawLineSend.java, run by Java's source launcher:
#      the same raw lines, no parsing, the shipper's producer settings and JVM options) sends the
#      file repeatedly in one JVM, as many lines as the warm shipper's warm-up, and the last pass is
#      printed beside the shipper's: it tells the client's cost from the shipper's own work (Kafka's
#      ProducerPerformance was tried first: its per-record bookkeeping made it 3x slower than this
#      loop, so it is no measure of the client),
#   2. `ingest ship` parses, normalises, serialises (Avro, registry) and produces the same file to the
#      decode-events / dead-letter topics,
#   2b. (since 2026-12-04 session 28) the Java client alone with the shipper's output
#      (scripts/bench/RawLineSend.java with SOURCE topic:<the events topic of 2.>: the decode events
#      of 2., read back and sent again as they are, with the shipper's producer settings and key,
#      several passes in one JVM, the last measured, as lines of the file per second): what the
#      Kafka side of the shipper's work costs, client and broker, with its larger and fewer records;
#      the rest of the shipper's time is its own work,
#   3. a second `ingest ship` JVM ships a warm-up log first, SPECWATCH_BENCH_WARMUP_PASSES times
#      (SPECWATCH_BENCH_WARMUP_LINES, default 2,000,000 lines of the same mix, another file; 3 passes:
#      after one pass the C2 compiler still used 3.3-5 CPU-s during the measured file, after three
#      0.5) and then the same 1M-line file SPECWATCH_BENCH_MEASURED_PASSES times (default 5 since
#      2026-12-05, 3 before, once until 2026-12-02 16:40 UTC), each pass named on its --files-from
#      pipe only when the run before it has ended, interleaved with kcat -P runs of the same file
#      (since 2026-12-05, session 34; interleaved_ship): kcat, pass 1, kcat, pass 2, ..., pass N, kcat,
#      one at a time, a second's pause before each. The shipper is warm, as a running `tail` daemon
#      is after its first minutes (Java's JIT compiles the hot paths during the warm-up); its span
#      for each pass is read from its own log lines ("shipping file=" -> "shipped file=", first line
#      read to last record acknowledged). Each pass's ratio is its lines/s over kcat's at the mean
#      time of the two kcat runs around it, and the HEADLINE is the median of these ratios: each pass
#      is compared with kcat on the broker in the same state and the machine in the same minute
#      (kcat's own rate moved 0.63-1.39 s a run within half an hour on one broker, and 10-35 % between
#      the runs of 1. and runs after the shipper; session 34). The ratio of the median pass to 1.'s
#      kcat median, the headline until then, is printed beside it,
#   4. (since 2026-12-03) a second pair with lz4 on both sides, interleaved alike (since 2026-12-05;
#      three kcat runs then the warm JVM before): kcat -X compression.codec=lz4 and a third shipper
#      JVM with its default compression (lz4, ShipConfig.DEFAULT_COMPRESSION); printed as
#      ratio_ship_warm_to_kcat_both_lz4 (the median of its passes' ratios),
# all with acks=all, idempotence, linger.ms=20, no compression in 1.-3. (set explicitly: librdkafka's
# default; the shipper's is lz4 since 2026-12-03, hence the pair in 4.), one key
# for every record (one partition of a 3-partition topic each: the shipper keys by deployment), on
# topics created alike (3 partitions, broker defaults). Batching stays each client's own default
# (kcat: librdkafka batch.size 1 MB / 10 000 messages; shipper: batch.size 1 MiB since 2026-12-01 23:20 UTC, 256 KiB before, its shipped
# setting). The headline ratio (target >= 0.5) is the WARM shipper's lines/s over kcat's, pass by
# pass (3.): the shipper is a daemon, and kcat, native, has no warm-up to pay. The cold figure (2., a fresh JVM:
# JVM start, class loading and JIT compilation inside the measured time) is printed beside it, end
# to end and from its first line read to its last acknowledgement.
# The shipper's JVM runs with the options the launcher gives it (scripts/lib.sh ingest_java_opts:
# parallel GC since 2026-12-02 20:00 UTC, serial before; an AppCDS class archive), or
# SPECWATCH_JAVA_OPTS when set (then no archive). The archive is written by the untimed start-up
# run when the jar has none yet (as a deployment would write it once per build); the timed runs
# load classes from it. Before 2026-12-01 02:00 UTC the
# shipper ran with the JVM's defaults (G1, C2, no archive), until 2026-12-01 17:00 UTC with C1 only,
# and the headline was the cold figure: earlier figures are not comparable one to one
# (ingest/README.md#benchmark).
# Prints lines/s of all three and the ratios shipper/kcat, checks the record counts in the topics,
# and stops what it started.
#
# Settings (env): SPECWATCH_BENCH_LINES=1000000  SPECWATCH_BENCH_WARMUP_LINES=2000000
#   SPECWATCH_BENCH_WARMUP_PASSES=3 (times the warm JVM ships the warm-up log before the measured file)
#   SPECWATCH_BENCH_MEASURED_PASSES=5 (times the warm JVM then ships the measured file, each between
#   two kcat runs; the median of the passes' ratios is the headline)
#   SPECWATCH_BENCH_KAFKA_PORT=29092 (controller +1)
#   SPECWATCH_BENCH_REGISTRY_PORT=28081 (management +10)  SPECWATCH_BENCH_DIR=<run dir>/bench-ingest
#   SPECWATCH_BENCH_KEEP_SERVICES=1 (leave the services running afterwards)
#   SPECWATCH_BENCH_SHIP_OPTS (extra `ingest ship` options, e.g. "--producer-property batch.size=262144")
set -euo pipefail
SPECWATCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SPECWATCH_HOME
# shellcheck source=lib.sh
source "$SPECWATCH_HOME/scripts/lib.sh"

VERSION=0.1.0-SNAPSHOT
LINES=${SPECWATCH_BENCH_LINES:-1000000}
[[ "$LINES" =~ ^[1-9][0-9]*$ ]] || die "setting SPECWATCH_BENCH_LINES must be a positive integer, got '$LINES'"
WARMUP_LINES=${SPECWATCH_BENCH_WARMUP_LINES:-2000000}
[[ "$WARMUP_LINES" =~ ^[1-9][0-9]*$ ]] \
  || die "setting SPECWATCH_BENCH_WARMUP_LINES must be a positive integer, got '$WARMUP_LINES'"
WARMUP_PASSES=${SPECWATCH_BENCH_WARMUP_PASSES:-3}
[[ "$WARMUP_PASSES" =~ ^[1-9][0-9]*$ ]] \
  || die "setting SPECWATCH_BENCH_WARMUP_PASSES must be a positive integer, got '$WARMUP_PASSES'"
WARMUP_TOTAL=$((WARMUP_LINES * WARMUP_PASSES))
MEASURED_PASSES=${SPECWATCH_BENCH_MEASURED_PASSES:-5}
[[ "$MEASURED_PASSES" =~ ^[1-9][0-9]*$ ]] \
  || die "setting SPECWATCH_BENCH_MEASURED_PASSES must be a positive integer, got '$MEASURED_PASSES'"
KPORT=${SPECWATCH_BENCH_KAFKA_PORT:-29092}
RPORT=${SPECWATCH_BENCH_REGISTRY_PORT:-28081}
for p in KPORT RPORT; do
  [[ "${!p}" =~ ^[0-9]+$ ]] && ((${!p} > 1024 && ${!p} < 65525)) \
    || die "setting SPECWATCH_BENCH_${p/PORT/}_PORT must be a TCP port (1025-65524), got '${!p}'"
done
BENCH_DIR=${SPECWATCH_BENCH_DIR:-$SPECWATCH_RUN_DIR/bench-ingest}
JAR="$SPECWATCH_HOME/ingest/target/specwatch-ingest-$VERSION.jar"
RUN_ID=$(date -u +%Y%m%d%H%M%S)
T_RAW="bench-$RUN_ID.raw"
T_EVENTS="bench-$RUN_ID.decode-events"
T_DLQ="bench-$RUN_ID.dead-letter"
T_REQ="bench-$RUN_ID.request-acceptance"
T_CTX="bench-$RUN_ID.run-context"
T_WARM="bench-$RUN_ID.warm"
T_PERF="bench-$RUN_ID.java-raw"
T_EVSEND="bench-$RUN_ID.java-events"
T_LZ4="bench-$RUN_ID.warm-lz4"
BOOTSTRAP="127.0.0.1:$KPORT"
REGISTRY="http://127.0.0.1:$RPORT/apis/ccompat/v7"
PARTITIONS=3

# The services of this bench only: own ports, own run dir (services.sh reads these).
svc() {
  SPECWATCH_RUN_DIR="$BENCH_DIR" SPECWATCH_KAFKA_PORT="$KPORT" SPECWATCH_KAFKA_CONTROLLER_PORT="$((KPORT + 1))" \
    SPECWATCH_REGISTRY_PORT="$RPORT" SPECWATCH_REGISTRY_MANAGEMENT_PORT="$((RPORT + 10))" \
    SPECWATCH_BOOTSTRAP="$BOOTSTRAP" "$SPECWATCH_HOME/scripts/services.sh" "$@"
}

STARTED=0
cleanup() {
  if ((STARTED)) && [[ -z "${SPECWATCH_BENCH_KEEP_SERVICES:-}" ]]; then
    svc stop registry kafka || true
    # a run leaves ~8.8 GB of records (kcat, the Java client, warm and cold ships; measured
    # 2026-12-04 at the default sizes) that no later run reads, and the broker keeps them (7 days):
    # without this, repeated runs filled the disk (2026-12-01). The next start formats a fresh log
    # dir.
    rm -rf "$BENCH_DIR/services/kafka/data"
  fi
}
trap cleanup EXIT

# Deterministic mixed log: per 20 lines 8 SGLang Decode batch, 2 vLLM V1 (Engine + SpecDecoding),
# 2 vLLM v0 (throughput + Speculative metrics), 2 TensorRT-LLM JSON = 14 metric lines, and 6 noise
# lines (SGLang Prefill batch, HTTP access lines, a warning); every 997th line is cut mid-field.
make_log() {
  local out="$1" n="$2"
  awk -v n="$n" 'BEGIN {
    for (i = 0; i < n; i++) {
      s = 32400 + int(i / 20); h = int(s / 3600) % 24; m = int(s / 60) % 60; sec = s % 60
      ts = sprintf("%02d:%02d:%02d", h, m, sec)
      k = i % 20; v = (i * 7919) % 100
      if (k < 8) {
        line = sprintf("[2025-10-20 %s TP0] Decode batch. #running-req: %d, #token: %d, token usage: 0.%02d, accept len: %.2f, accept rate: %.2f, cuda graph: False, gen throughput (token/s): %.2f, #queue-req: 0, ", ts, 1 + v % 4, 1000 + i % 50000, v, 1.5 + v / 100.0, 0.25 + v / 200.0, 55 + v / 3.0)
      } else if (k == 8) {
        line = sprintf("[2025-10-20 %s TP0] Prefill batch. #new-seq: 1, #new-token: %d, #cached-token: 0, token usage: 0.00, #running-req: 0, #queue-req: 0, ", ts, 380 + v)
      } else if (k == 9 || k == 10 || k == 11) {
        line = sprintf("INFO:     127.0.0.1:%d - \"POST /v1/chat/completions HTTP/1.1\" 200 OK", 40000 + (i % 20000))
      } else if (k == 12) {
        line = sprintf("INFO 06-06 %s [loggers.py:116] Engine 000: Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: %d reqs, Waiting: 0 reqs, GPU KV cache usage: %.1f%%, Prefix cache hit rate: 40.0%%", ts, v / 4.0, 200 + v, 1 + v % 8, v / 2.0)
      } else if (k == 13) {
        line = sprintf("INFO 06-06 %s [loggers.py:116] SpecDecoding metrics: Mean acceptance length: %.2f, Accepted throughput: %.2f tokens/s, Drafted throughput: 300.00 tokens/s, Accepted: %d tokens, Drafted: 3000 tokens, Per-position acceptance rate: 0.700, 0.500, 0.300, Avg Draft acceptance rate: 50.0%%", ts, 1.5 + v / 100.0, 100 + v, 1000 + v * 10)
      } else if (k == 14) {
        line = sprintf("INFO 08-01 %s metrics.py:345] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: %.1f tokens/s, Running: 2 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 5.1%%, CPU KV cache usage: 0.0%%.", ts, 90 + v / 2.0)
      } else if (k == 15) {
        line = sprintf("INFO 08-01 %s metrics.py:367] Speculative metrics: Draft acceptance rate: 0.600, System efficiency: 0.400, Number of speculative tokens: 4, Number of accepted tokens: %d, Number of draft tokens: %d, Number of emitted tokens: %d.", ts, 2400 * (1 + int(i / 20)), 4000 * (1 + int(i / 20)), 3000 * (1 + int(i / 20)))
      } else if (k == 16 || k == 17) {
        line = sprintf("{\"cpuMemUsage\": 0, \"gpuMemUsage\": 1000, \"iter\": %d, \"iterLatencyMS\": %.1f, \"numActiveRequests\": 4, \"numQueuedRequests\": 0, \"timestamp\": \"06-06-2025 %s.123456\", \"specDecodingStats\": {\"numDraftTokens\": 12, \"numAcceptedTokens\": %d, \"numRequestsWithDraftTokens\": 4, \"acceptanceLength\": 2.5, \"iterLatencyMS\": 6.0, \"draftOverhead\": 0.2}}", i, 25 + v / 10.0, ts, v % 12)
      } else if (k == 18) {
        line = sprintf("[2025-10-20 %s TP0] WARNING scheduler.py:%d: KV cache usage high, retracting requests", ts, 100 + v)
      } else {
        line = sprintf("INFO:     127.0.0.1:%d - \"GET /health HTTP/1.1\" 200 OK", 50000 + (i % 10000))
      }
      if (i % 997 == 500 && k < 8) { line = substr(line, 1, index(line, "accept len") + 12) }
      print line
    }
  }' >"$out"
}

end_offsets() { # topic -> sum of its partitions' end offsets (Kafka's GetOffsetShell)
  svc kafka-tool org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$1" --time -1 \
    2>/dev/null | awk -F: '{ n += $NF } END { print n + 0 }'
}

# Every span of FILE in ERRLOG, in order, one "start end" line each (a JVM that shipped FILE more
# than once): the local seconds of the day of its "shipping file=FILE" line and of its "shipped
# file=FILE" line (first line read to last record acknowledged, ms resolution).
ship_span_bounds() { # FILE ERRLOG
  awk -v f="file=$1 " '
    function sec(t,  p) { split(t, p, ":"); return p[1] * 3600 + p[2] * 60 + p[3] }
    /LogFileShipper - shipping file=/ && index($0, f) {a = sec($1)}
    /LogFileShipper - shipped file=/ && index($0, f) && a != "" { printf "%.3f %.3f\n", a, sec($1); a = "" }' "$2"
}

# The shipper's own CPU seconds in each pass of FILE in ERRLOG, one "send parse" line each: what its
# "shipped file=FILE ... cpu: send X s, parse Y s" line says (the sending thread's and the parse
# threads' CPU time, measured by each thread as it ends; since 2026-12-05, session 32). CPU is less
# noisy than wall time on a shared machine, so a cut in the per-line work shows here first.
ship_pass_cpu() { # FILE ERRLOG
  awk -v f="file=$1 " '/LogFileShipper - shipped file=/ && index($0, f) {
      s = $0; sub(/.* cpu: send /, "", s); split(s, a, " "); p = $0; sub(/.*, parse /, "", p); split(p, b, " ")
      print a[1] + 0, b[1] + 0 }' "$2"
}

# The seconds of each span of FILE in ERRLOG, one per line.
ship_spans() { # FILE ERRLOG
  ship_span_bounds "$1" "$2" | awk '{ d = $2 - $1; if (d < 0) d += 86400; print d }'
}

# The last span of FILE in ERRLOG; 0 when there is none.
ship_span() { # FILE ERRLOG
  local spans
  spans=$(ship_spans "$1" "$2")
  printf '%s\n' "${spans:-0}" | tail -1
}

# Waits until the shipper PID has logged N "shipped file=FILE" lines in ERR; dies if it ends first.
wait_shipped() { # file n pid err
  local deadline=$((SECONDS + 900)) done_n
  while :; do
    done_n=$(grep -c -F "LogFileShipper - shipped file=$1 " "$4" 2>/dev/null || true) # 0: exit 1
    ((${done_n:-0} >= $2)) && return
    kill -0 "$3" 2>/dev/null || { tail -20 "$4" >&2; die "ingest ship ended before shipping $1 $2 times"; }
    ((SECONDS < deadline)) || die "ingest ship did not ship $1 $2 times within 15 minutes"
    # a grep per poll runs on the cores the measured pass uses; the span comes from the shipper's
    # own log, so a coarser poll only delays the next (unmeasured) pause
    sleep 0.2
  done
}

# A warm shipper JVM, interleaved with kcat (since 2026-12-05, session 34): the JVM ships the
# warm-up log WARMUP_PASSES times, then the measured file MEASURED_PASSES times, each pass named on
# its --files-from pipe only when the run before it has ended, and kcat -P (CODEC) sends the same
# file before the first pass, between passes and after the last: kcat run, ship pass, kcat run,
# ..., kcat run, one at a time, a second's pause before each. Each pass has a kcat run just before
# and just after it, on the broker in the same state and the machine in the same minute, which the
# runs of a separate block did not have (see ingest/README.md#benchmark). The shipper's topics are
# TOPIC.events/.dlq/.requests/.run-context, kcat's TOPIC.kcat.0 .. .kcat.MEASURED_PASSES; stdout to
# OUT, stderr (its spans) to ERR, kcat's "wall user sys broker" lines to ERR.kcat, in order; the
# remaining arguments are extra `ship` options. Uses main's warm_file and log_file.
interleaved_ship() { # topic-prefix codec out err [ship options...]
  local t=$1 codec=$2 out=$3 err=$4 n files=() fifo fd
  shift 4
  for ((n = 0; n < WARMUP_PASSES; n++)); do files+=(--file "$warm_file"); done
  fifo="$BENCH_DIR/names-$RUN_ID-${t##*.}.fifo"
  rm -f "$fifo"
  mkfifo "$fifo" || die "mkfifo $fifo failed"
  # read-write: opening does not wait for the JVM, and the JVM's read end sees the end of input
  # when this, the only writer, closes it
  exec {fd}<>"$fifo"
  # shellcheck disable=SC2086 # SPECWATCH_BENCH_SHIP_OPTS is an option list
  java "${INGEST_JAVA_OPTS[@]}" -jar "$JAR" ship "${files[@]}" --files-from "$fifo" --deployment bench \
    --host bench-host --bootstrap "$BOOTSTRAP" --registry-url "$REGISTRY" --topic "$t.events" \
    --dlq-topic "$t.dlq" --request-topic "$t.requests" --run-context-topic "$t.run-context" \
    --no-progress "$@" ${SPECWATCH_BENCH_SHIP_OPTS:-} \
    >"$out" 2>"$err" {fd}>&- &
  local pid=$! rc=0
  # no copy of the pipe's write end in any process that outlives this one's: the JVM's end of
  # input comes when this closes it
  broker_sampler "$pid" "$err.broker" {fd}>&- &
  local sampler=$!
  wait_shipped "$warm_file" "$WARMUP_PASSES" "$pid" "$err"
  : >"$err.kcat"
  for ((n = 0; n <= MEASURED_PASSES; n++)); do
    sleep 1
    kcat_run "$t.kcat.$n" "$codec" "$log_file" >>"$err.kcat" {fd}>&-
    ((n < MEASURED_PASSES)) || break
    sleep 1
    printf '%s\n' "$log_file" >&"$fd"
    wait_shipped "$log_file" "$((n + 1))" "$pid" "$err"
  done
  exec {fd}>&-
  wait "$pid" || rc=$?
  wait "$sampler" # it ends with the shipper
  rm -f "$fifo"
  ((rc == 0)) || { tail -20 "$err" >&2; die "ingest ship (warm, $t) failed"; }
}

# Per measured pass of an interleaved run, "ratio kcat-before kcat-after" (lines/s ratio of the
# pass to the mean time of the kcat runs on either side of it): SPANS one per line, KCAT the
# interleaved kcat lines (wall first), MEASURED_PASSES + 1 of them.
pair_ratios() { # spans kcat-file
  awk -v spans="$1" '{ k[NR] = $1 } END {
      n = split(spans, s, "\n")
      for (i = 1; i <= n; i++) printf "%.3f %.3f %.3f\n", (k[i] + k[i + 1]) / 2 / s[i], k[i], k[i + 1]
    }' "$2"
}

# The spans of the measured file in a warm shipper's ERR, one per line; dies unless there is one
# per measured pass.
measured_spans() { # err
  local spans
  spans=$(ship_spans "$log_file" "$1")
  (($(printf '%s\n' "$spans" | awk '$1 > 0' | wc -l) == MEASURED_PASSES)) \
    || die "expected $MEASURED_PASSES spans for $log_file in $1, got: $spans"
  printf '%s\n' "$spans"
}

# The median of the spans on stdin (the lower middle one for an even count).
median_span() {
  sort -g | sed -n "$(((MEASURED_PASSES + 1) / 2))p"
}

# Events the shipper's summaries in OUT say it recognised, all files together.
recognised_total() { # out
  awk -F'recognised=' '/^shipped / {split($2, a, " "); n += a[1]} END {print n + 0}' "$1"
}

# CPU ticks the broker process has used so far (lib.sh cpu_ticks): the broker's share of each run,
# which the runs' wall times include but their own CPU figures do not.
BROKER_PID=""
broker_ticks() { cpu_ticks "$BROKER_PID"; }

# kcat -P FILE once to TOPIC with CODEC (acks=all, idempotence, linger.ms=20, one key): one "wall
# user sys broker" line (seconds; bash's `time`, and the broker's CPU during the run).
kcat_run() { # topic codec file
  local t b0 b1 TIMEFORMAT='%R %U %S'
  b0=$(broker_ticks)
  t=$({ time kcat -P -b "$BOOTSTRAP" -t "$1" -k bench -l -X acks=all -X enable.idempotence=true \
    -X linger.ms=20 -X compression.codec="$2" "$3" 2>"$BENCH_DIR/kcat-$RUN_ID.err" ; } 2>&1) \
    || { cat "$BENCH_DIR/kcat-$RUN_ID.err" >&2; die "kcat -P ($2) failed"; }
  b1=$(broker_ticks)
  printf '%s %s\n' "$t" "$(cpu_seconds "$b0" "$b1")"
}

# kcat_run three times, to TOPIC.1, .2, .3: one line each.
kcat_runs() { # topic-prefix codec file
  local n
  for n in 1 2 3; do kcat_run "$1.$n" "$2" "$3"; done
}

# The median of kcat_runs' three lines, by wall time (stdin).
median_run() { sort -n -k1,1 | sed -n 2p; }

# Samples the broker's CPU every 0.2 s while process PID lives, into OUT: "<local seconds of the day>
# <broker ticks>" per line, the clock of the shipper's log lines (both local time).
broker_sampler() { # pid out
  local pid=$1 out=$2 off now
  off=$(date +%z) # e.g. +0000, -0530
  off=$(((10#${off:1:2} * 3600 + 10#${off:3:2} * 60) * (${off:0:1}1)))
  : >"$out"
  while kill -0 "$pid" 2>/dev/null; do
    now=$EPOCHREALTIME # seconds.microseconds
    printf '%d.%s %s\n' $(((${now%.*} + off) % 86400)) "${now#*.}" "$(broker_ticks)" >>"$out"
    sleep 0.2
  done
}

# The broker's CPU seconds during each span of FILE in ERRLOG (one per line, as ship_spans),
# from SAMPLES of broker_sampler: the ticks between the first and the last sample inside the span,
# scaled to the whole span.
broker_span_cpu() { # file errlog samples
  ship_span_bounds "$1" "$2" | awk -v samples="$3" '
    BEGIN { while ((getline l < samples) > 0) { split(l, x, " "); n++; ts[n] = x[1]; tk[n] = x[2] } }
    {
      a = $1; e = $2; i0 = 0; i1 = 0
      for (i = 1; i <= n; i++) if (ts[i] >= a && ts[i] <= e) { if (!i0) i0 = i; i1 = i }
      if (i1 > i0 && ts[i1] > ts[i0]) printf "%.2f\n", (tk[i1] - tk[i0]) / 100 * (e - a) / (ts[i1] - ts[i0])
      else print "nan"
    }'
}

# How many segments of TOPIC's partitions the bench's broker rolled during each span of FILE in
# ERRLOG, one count per span (its "Rolled new log segment" log lines; none without the bench's own
# broker log). A roll makes the broker open new segment files and flush the closed 1 GiB segment to
# disk: the warm shipper's topic, which gathers every pass of its JVM, crosses 2 GiB in one measured
# pass at the default sizes, while each kcat run writes 187 MB to a topic of its own. The median of
# the passes' ratios leaves one such pass out; the report marks it (session 35).
segment_rolls() { # file errlog topic
  local broker_log="$BENCH_DIR/services/kafka/kafka.log"
  ship_span_bounds "$1" "$2" | awk -v blog="$broker_log" -v topic="$3" '
    BEGIN {
      while ((getline l < blog) > 0) {
        if (index(l, "Rolled new log segment") && index(l, "partition=" topic "-")) {
          split(substr(l, 13, 12), t, /[:,]/); n++; at[n] = t[1] * 3600 + t[2] * 60 + t[3] + t[4] / 1000
        }
      }
    }
    { # a span across midnight ends before it starts (seconds of the day)
      c = 0; for (i = 1; i <= n; i++) if ($2 >= $1 ? at[i] >= $1 && at[i] <= $2 : at[i] >= $1 || at[i] <= $2) c++; print c }'
}

# Dies unless the file system of BENCH_DIR has room for the run: its logs, when not yet written
# (~187 bytes a line), and the records the broker keeps (~8.8 GB at the default sizes, measured
# 2026-12-04 with SPECWATCH_BENCH_KEEP_SERVICES=1: ~245 bytes per line sent, counting 9 sends of
# the measured file outside the interleaved runs, in each of the two interleaved runs one kcat
# run more than passes and 2 sends per measured pass, and 3 of the warm-up lines), plus 2 GiB to
# spare.
# Runs that keep their services add up on the same broker; when the disk filled, the broker
# stopped in the middle of a run.
require_space() {
  local need_kb avail_kb
  need_kb=$((((11 + 4 * MEASURED_PASSES) * LINES + 3 * WARMUP_TOTAL) * 245 / 1024 + 2 * 1024 * 1024))
  [[ -s "$BENCH_DIR/mixed-$LINES.log" ]] || need_kb=$((need_kb + LINES * 187 / 1024))
  [[ -s "$BENCH_DIR/warmup-$WARMUP_LINES.log" ]] || need_kb=$((need_kb + WARMUP_LINES * 187 / 1024))
  avail_kb=$(df -Pk "$BENCH_DIR" | awk 'NR == 2 { print $4 }')
  [[ "$avail_kb" =~ ^[0-9]+$ ]] || die "cannot read the free space of $BENCH_DIR (df)"
  ((avail_kb >= need_kb)) || die "bench ingest needs ~$((need_kb / 1024 / 1024)) GiB free in $BENCH_DIR" \
    "(SPECWATCH_BENCH_DIR), has $((avail_kb / 1024 / 1024)) GiB; a broker kept by" \
    "SPECWATCH_BENCH_KEEP_SERVICES=1 keeps every earlier run's records: stop it" \
    "(SPECWATCH_RUN_DIR=$BENCH_DIR scripts/services.sh stop registry kafka) and the next run" \
    "starts on a fresh log dir"
}

main() {
  command -v java >/dev/null 2>&1 || die "java not found (./specwatch needs Java 17)"
  ensure_apt kcat
  mkdir -p "$BENCH_DIR"
  require_space
  if [[ ! -f "$JAR" || ! -d "$SPECWATCH_HOME/ingest/target/lib" ]]; then
    log "bench: building the ingest jar (mvn package -pl ingest -am, no tests; nothing is installed)"
    (cd "$SPECWATCH_HOME" && mvn -B -q -pl ingest -am package -DskipTests -Dspotless.check.skip=true -Djacoco.skip=true) \
      || die "building the ingest jar failed"
  fi

  local log_file="$BENCH_DIR/mixed-$LINES.log"
  if [[ ! -s "$log_file" ]]; then
    log "bench: writing $LINES mixed lines to $log_file"
    make_log "$log_file.tmp" "$LINES"
    mv "$log_file.tmp" "$log_file"
  fi
  local bytes
  bytes=$(stat -c %s "$log_file")
  log "bench: $log_file: $LINES lines, $((bytes / 1024 / 1024)) MiB"
  local warm_file="$BENCH_DIR/warmup-$WARMUP_LINES.log"
  if [[ ! -s "$warm_file" ]]; then
    log "bench: writing $WARMUP_LINES warm-up lines (same mix) to $warm_file"
    make_log "$warm_file.tmp" "$WARMUP_LINES"
    mv "$warm_file.tmp" "$warm_file"
  fi

  log "bench: starting its own Kafka ($BOOTSTRAP) and registry (127.0.0.1:$RPORT), run dir $BENCH_DIR/services"
  STARTED=1
  # a data dir left by a run that kept or lost its services: fresh one when the broker is not running
  svc status kafka >/dev/null 2>&1 || rm -rf "$BENCH_DIR/services/kafka/data"
  svc start kafka registry
  BROKER_PID=$(cat "$BENCH_DIR/services/kafka/kafka.pid")
  [[ -r "/proc/$BROKER_PID/stat" ]] || die "no broker process $BROKER_PID"
  local t
  for t in "$T_RAW.1" "$T_RAW.2" "$T_RAW.3" "$T_PERF" "$T_EVSEND" "$T_EVENTS" "$T_DLQ" "$T_REQ" "$T_CTX" "$T_WARM.events" "$T_WARM.dlq" \
    "$T_WARM.requests" "$T_WARM.run-context" "$T_LZ4.events" "$T_LZ4.dlq" "$T_LZ4.requests" "$T_LZ4.run-context"; do
    svc topics-create "$t" "$PARTITIONS" >/dev/null
  done
  for ((n = 0; n <= MEASURED_PASSES; n++)); do # the interleaved kcat runs'
    svc topics-create "$T_WARM.kcat.$n" "$PARTITIONS" >/dev/null
    svc topics-create "$T_LZ4.kcat.$n" "$PARTITIONS" >/dev/null
  done

  # Warm-up: the registry learns the schemas and the broker's first produce paths are loaded, so
  # neither run pays for them (2000 lines, separate topics).
  head -n 2000 "$log_file" >"$BENCH_DIR/warmup.log"
  ingest_java_opts "$JAR"
  java "${INGEST_JAVA_OPTS[@]}" -jar "$JAR" ship --file "$BENCH_DIR/warmup.log" --deployment bench --host bench-host \
    --bootstrap "$BOOTSTRAP" --registry-url "$REGISTRY" --topic "$T_EVENTS.warmup" \
    --dlq-topic "$T_DLQ.warmup" --request-topic "$T_REQ.warmup" --run-context-topic "$T_CTX.warmup" \
    --no-progress >/dev/null 2>"$BENCH_DIR/warmup.err" \
    || { cat "$BENCH_DIR/warmup.err" >&2; die "warm-up ship failed"; }
  ingest_cds_done
  ingest_java_opts "$JAR" # now with the archive
  log "bench: shipper JVM options: ${INGEST_JAVA_OPTS[*]}"
  kcat -P -b "$BOOTSTRAP" -t "$T_RAW.warmup" -k bench -l "$BENCH_DIR/warmup.log" 2>/dev/null \
    || die "warm-up kcat failed"

  local load_before
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  # First the Java Kafka client alone (scripts/bench/RawLineSend.java: the same raw lines, one record each,
  # one key, no parsing, the shipper's producer settings and JVM options), warmed up on as many lines
  # as the warm shipper: its last pass. Where the shipper's time goes that kcat does not pay: the
  # client, or the shipper's own work. It runs first: its millions of records also warm the broker
  # (its JIT) for kcat, whose runs on a freshly started broker were up to 2.6x slower (292 227 ->
  # 755 287 lines/s), while the shipper's measured file always comes after millions of lines.
  local passes=$((WARMUP_TOTAL / LINES + 1)) java_out="$BENCH_DIR/java-raw-$RUN_ID.out" perf_rate o perf_jvm=()
  ((passes >= 2)) || passes=2
  log "bench: Java client alone (RawLineSend): the same raw lines $passes times -> $T_PERF, last pass measured"
  for o in "${INGEST_JAVA_OPTS[@]}"; do # the shipper's options without its class archive
    [[ "$o" == -XX:SharedArchiveFile=* || "$o" == -Xlog:cds* ]] || perf_jvm+=("$o")
  done
  java "${perf_jvm[@]}" -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$(fetch_kafka_jars)/lib/*" "$SPECWATCH_HOME/scripts/bench/RawLineSend.java" \
    "$BOOTSTRAP" "$T_PERF" "$log_file" "$passes" >"$java_out" 2>&1 \
    || { tail -20 "$java_out" >&2; die "RawLineSend failed"; }
  perf_rate=$(awk '/^pass / {r = $(NF - 1)} END {print r + 0}' "$java_out")
  awk -v r="$perf_rate" 'BEGIN { exit !(r > 0) }' || { tail -5 "$java_out" >&2; die "RawLineSend printed no rate"; }
  log "bench: kcat -P x3: $LINES raw lines -> $T_RAW.1/.2/.3 (acks=all, idempotence, linger.ms=20)"
  local kcat_time ship_time kcat_runs n
  # bash's `time` gives wall and CPU seconds of each run (TIMEFORMAT: real user sys)
  local TIMEFORMAT='%R %U %S'
  # three runs, the median by wall time is the baseline: one run moved 2x between benches (the
  # broker's own JIT warms up over the first runs, and other work on the machine)
  kcat_runs=$(kcat_runs "$T_RAW" none "$log_file")
  kcat_time=$(printf '%s\n' "$kcat_runs" | median_run)


  log "bench: ingest ship: the same file -> $T_EVENTS / $T_DLQ (parse, normalise, Avro, acks=all, idempotence)"
  local ship_out="$BENCH_DIR/ship-$RUN_ID.out"
  # shellcheck disable=SC2086 # SPECWATCH_BENCH_SHIP_OPTS is an option list
  ship_time=$({ time java "${INGEST_JAVA_OPTS[@]}" -jar "$JAR" ship --file "$log_file" --deployment bench \
    --host bench-host --bootstrap "$BOOTSTRAP" --registry-url "$REGISTRY" --topic "$T_EVENTS" \
    --dlq-topic "$T_DLQ" --request-topic "$T_REQ" --run-context-topic "$T_CTX" --no-progress \
    --producer-property compression.type=none ${SPECWATCH_BENCH_SHIP_OPTS:-} \
    >"$ship_out" 2>"$BENCH_DIR/ship-$RUN_ID.err" ; } 2>&1) \
    || { tail -20 "$BENCH_DIR/ship-$RUN_ID.err" >&2; die "ingest ship failed"; }

  # The Java client alone with the shipper's output (the events of the cold run just above)
  local ev_passes=5 ev_out="$BENCH_DIR/java-events-$RUN_ID.out" ev_rate
  log "bench: Java client alone with the shipper's events (RawLineSend topic:): $T_EVENTS $ev_passes times -> $T_EVSEND, last pass measured"
  java "${perf_jvm[@]}" -Xmx1g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
    -cp "$(fetch_kafka_jars)/lib/*" "$SPECWATCH_HOME/scripts/bench/RawLineSend.java" \
    "$BOOTSTRAP" "$T_EVSEND" "topic:$T_EVENTS" "$ev_passes" "$LINES" >"$ev_out" 2>&1 \
    || { tail -20 "$ev_out" >&2; die "RawLineSend (the shipper's events) failed"; }
  ev_rate=$(awk '/^pass / {r = $(NF - 1)} END {print r + 0}' "$ev_out")
  awk -v r="$ev_rate" 'BEGIN { exit !(r > 0) }' || { tail -5 "$ev_out" >&2; die "RawLineSend (the shipper's events) printed no rate"; }

  log "bench: ingest ship, warm, interleaved with kcat: $warm_file ($WARMUP_LINES lines) $WARMUP_PASSES times, then kcat, ship, kcat, ..., kcat: the measured file $MEASURED_PASSES times, one JVM -> $T_WARM.*"
  local warm_out="$BENCH_DIR/ship-warm-$RUN_ID.out" warm_err="$BENCH_DIR/ship-warm-$RUN_ID.err"
  interleaved_ship "$T_WARM" none "$warm_out" "$warm_err" --producer-property compression.type=none
  # Second pair, both with lz4: kcat -z lz4 interleaved as above with a warm shipper JVM with its
  # default compression (lz4, ShipConfig.DEFAULT_COMPRESSION). The headline stays the pair without
  # compression (comparable with every earlier run); this pair says what the default gives.
  log "bench: the same with lz4 on both sides: kcat -P -X compression.codec=lz4 interleaved with a warm shipper with its default (lz4)"
  local lz4_out="$BENCH_DIR/ship-warm-lz4-$RUN_ID.out" lz4_err="$BENCH_DIR/ship-warm-lz4-$RUN_ID.err"
  interleaved_ship "$T_LZ4" lz4 "$lz4_out" "$lz4_err"
  ! grep -q 'producerOverrides=\[[^]]*compression\.type' "$lz4_err" \
    || die "the lz4 pair's shipper had compression.type overridden (SPECWATCH_BENCH_SHIP_OPTS?)"
  local lz4_spans lz4_span lz4_pairs
  lz4_spans=$(measured_spans "$lz4_err")
  lz4_span=$(printf '%s\n' "$lz4_spans" | median_span)
  lz4_pairs=$(pair_ratios "$lz4_spans" "$lz4_err.kcat")
  local load_after
  load_after=$(cut -d' ' -f1-3 /proc/loadavg)

  local raw_n ev_n dlq_n
  raw_n=$(end_offsets "$T_RAW.1")
  for t in "$T_RAW.2" "$T_RAW.3"; do
    (($(end_offsets "$t") == LINES)) || die "kcat topic $t does not hold $LINES records"
  done
  for ((n = 0; n <= MEASURED_PASSES; n++)); do
    for t in "$T_WARM.kcat.$n" "$T_LZ4.kcat.$n"; do
      (($(end_offsets "$t") == LINES)) || die "kcat topic $t does not hold $LINES records"
    done
  done
  (($(end_offsets "$T_PERF") == passes * LINES)) \
    || die "the Java client's topic does not hold $((passes * LINES)) records"
  ev_n=$(end_offsets "$T_EVENTS")
  dlq_n=$(end_offsets "$T_DLQ")
  (($(end_offsets "$T_EVSEND") == ev_passes * ev_n)) \
    || die "the Java client's events topic does not hold $((ev_passes * ev_n)) records"
  ((raw_n == LINES)) || die "kcat topic holds $raw_n records, expected $LINES"
  ((ev_n > 0)) || die "the shipper produced no decode events"
  # the warm JVM shipped both files: its topic holds what both summaries say, and the measured
  # file gave the same events as in the cold run
  local warm_ev warm_rec measured_rec
  warm_ev=$(end_offsets "$T_WARM.events")
  warm_rec=$(recognised_total "$warm_out")
  ((warm_ev == warm_rec)) || die "warm run: topic holds $warm_ev events, its summaries say $warm_rec"
  local lz4_ev lz4_rec
  lz4_ev=$(end_offsets "$T_LZ4.events")
  lz4_rec=$(recognised_total "$lz4_out")
  ((lz4_ev == lz4_rec && lz4_ev == warm_ev)) \
    || die "warm lz4 run: topic holds $lz4_ev events, its summaries say $lz4_rec, the uncompressed run's $warm_ev"
  local rec
  for rec in $(awk -F'recognised=' -v f="$log_file:" '$0 ~ "^shipped " f {split($2, a, " "); print a[1]}' "$warm_out"); do
    ((rec == ev_n)) || die "warm run: a pass of the measured file gave $rec events, the cold run $ev_n"
  done
  local warm_spans warm_span
  warm_spans=$(measured_spans "$warm_err")
  warm_span=$(printf '%s\n' "$warm_spans" | median_span)
  # the broker's CPU in each measured pass (same order as the spans)
  local warm_broker
  warm_broker=$(broker_span_cpu "$log_file" "$warm_err" "$warm_err.broker")
  local warm_cpu
  warm_cpu=$(ship_pass_cpu "$log_file" "$warm_err")
  local warm_rolls
  warm_rolls=$(segment_rolls "$log_file" "$warm_err" "$T_WARM.events")
  # the headline: each pass against the kcat runs on either side of it
  local warm_pairs warm_kcat
  warm_pairs=$(pair_ratios "$warm_spans" "$warm_err.kcat")
  warm_kcat=$(cat "$warm_err.kcat")

  local summary
  summary=$(cat "$ship_out")
  # the cold shipper's own span: the end-to-end figure above also pays JVM start, class loading
  # and the registry lookups, which a long-running shipper pays once
  local inproc
  inproc=$(ship_span "$log_file" "$BENCH_DIR/ship-$RUN_ID.err")
  awk -v lines="$LINES" -v kt="$kcat_time" -v st="$ship_time" -v ev="$ev_n" -v dlq="$dlq_n" \
    -v raw="$raw_n" -v bytes="$bytes" -v summary="$summary" -v lb="$load_before" -v la="$load_after" \
    -v cores="$(nproc)" -v inproc="$inproc" -v jvm="${INGEST_JAVA_OPTS[*]}" -v warm="$warm_span" \
    -v wlines="$WARMUP_TOTAL" -v kruns="$kcat_runs" -v pr="$perf_rate" -v jp="$passes" \
    -v wspans="$warm_spans" -v wbroker="$warm_broker" -v lzspans="$lz4_spans" -v lzspan="$lz4_span" -v er="$ev_rate" -v ep="$ev_passes" \
    -v wcpu="$warm_cpu" -v wrolls="$warm_rolls" -v wpairs="$warm_pairs" -v wkcat="$warm_kcat" -v lzpairs="$lz4_pairs" \
    -v lzkcat="$(cat "$lz4_err.kcat")" '
  # the median of the first fields of the lines of TEXT (the lower middle one for an even count)
  function median(text,   l, v, n, i, j, t) {
    n = split(text, l, "\n")
    for (i = 1; i <= n; i++) { split(l[i], t, " "); v[i] = t[1] + 0 }
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t[0] = v[j]; v[j] = v[j - 1]; v[j - 1] = t[0] }
    return v[int((n + 1) / 2)]
  }
  BEGIN {
    split(kt, k, " "); split(st, s, " ")
    kr = lines / k[1]; sr = lines / s[1]; wr = lines / warm
    printf "\nbench ingest: %d lines, %.1f MiB, one broker (Kafka 4.4.0, 127.0.0.1), acks=all + idempotence, linger.ms=20, no compression (the headline pair; lz4 on both in the second)\n", lines, bytes / 1048576
    printf "  %d cores, load average before %s, after %s (other work on the machine slows every run)\n", cores, lb, la
    nk = split(kruns, kl, "\n")
    for (i = 1; i <= nk; i++) {
      if (split(kl[i], r, " ") < 3) continue
      printf "  %-44s %8.2f s wall %10.0f lines/s  %6.2f s CPU, broker %5.2f s\n", "kcat -P, run " i, r[1], lines / r[1], r[2] + r[3], r[4]
    }
    printf "  %-44s %8.2f s wall %10.0f lines/s  %6.2f s CPU, broker %5.2f s   (%d records)\n", "kcat -P (raw lines, baseline: median run)", k[1], kr, k[2] + k[3], k[4], raw
    printf "  %-44s %10.0f lines/s  (last of its passes over the file, after %d lines)\n", "Java client alone (RawLineSend, raw lines)", pr, (jp - 1) * lines
    printf "  %-44s %10.0f lines/s  (last of %d passes over the cold run'"'"'s %d events)\n", "Java client alone (shipper'"'"'s events)", er, ep, ev
    printf "  %-44s %8.2f s wall %10.0f lines/s  %6.2f s CPU   (%d events + %d dead letters)\n", "ingest ship, cold JVM (parse+Avro+produce)", s[1], sr, s[2] + s[3], ev, dlq
    if (inproc > 0) {
      printf "  %-44s %8.2f s      %10.0f lines/s\n", "  same, first line read -> last ack", inproc, lines / inproc
    }
    nw = split(wspans, wl, "\n"); split(wbroker, wb, "\n"); split(wcpu, wc, "\n"); split(wpairs, wp, "\n")
    split(wrolls, wr_, "\n")
    nwk = split(wkcat, wk, "\n")
    printf "  warm shipper interleaved with kcat (the headline since 2026-12-05): kcat, pass 1, kcat, ..., pass %d, kcat\n", nw
    for (i = 1; i <= nw + 1 && i <= nwk; i++) {
      split(wk[i], r, " ")
      printf "  %-44s %8.2f s wall %10.0f lines/s  %6.2f s CPU, broker %5.2f s\n", "kcat -P, interleaved run " i - 1, r[1], lines / r[1], r[2] + r[3], r[4]
      if (i > nw) break
      split(wc[i], c, " "); split(wp[i], q, " ")
      printf "  %-44s %8.2f s      %10.0f lines/s  ship send %4.2f + parse %4.2f CPU-s, broker %5.2f s; ratio to the kcat runs around it %.3f%s\n", "ingest ship, warm, pass " i, wl[i], lines / wl[i], c[1], c[2], wb[i], q[1], (wr_[i] > 0 ? "  (the broker rolled a segment of its topic)" : "")
      if (wl[i] == warm) { wbm = wb[i]; wcm = c[1] + c[2] } # the median pass
    }
    kiw = median(wkcat); kir = lines / kiw; hl = median(wpairs)
    for (i = 1; i <= nwk; i++) { split(wk[i], r, " "); if (r[1] == kiw) kibm = r[4] }
    printf "  %-44s %8.2f s      %10.0f lines/s  (median pass, after %d warm-up lines in the same JVM)\n", "ingest ship, warm (first line read -> last ack)", warm, wr, wlines
    printf "  %-44s %8.2f s wall %10.0f lines/s\n", "kcat -P, interleaved (median run)", kiw, kir
    printf "  ratio warm ship/kcat, interleaved (median of the %d passes'"'"' ratios to the kcat runs on either side): %.3f   (target >= 0.5)\n", nw, hl
    printf "  ratio warm ship (median pass)/kcat (median interleaved run): %.3f\n", wr / kir
    printf "  ratio warm ship/kcat before the shipper (early runs; the headline until 2026-12-05): %.3f\n", wr / kr
    # the broker shares the two cores: its CPU per line is part of every run'"'"'s wall time, and it
    # moves with the bytes per record and with the kernel'"'"'s page-cache work
    # (docs/BENCHMARKS-HISTORY.md, Ingest rounds, session 20)
    printf "  broker CPU per million lines: kcat early (median run) %.2f s, kcat interleaved (median run) %.2f s, warm ship (median pass) %.2f s\n", k[4] * 1e6 / lines, kibm * 1e6 / lines, wbm * 1e6 / lines
    nz = split(lzspans, zl, "\n"); split(lzpairs, zp, "\n"); nzk = split(lzkcat, zk, "\n")
    for (i = 1; i <= nz + 1 && i <= nzk; i++) {
      split(zk[i], r, " ")
      printf "  %-44s %8.2f s wall %10.0f lines/s  %6.2f s CPU\n", "kcat -P -z lz4, interleaved run " i - 1, r[1], lines / r[1], r[2] + r[3]
      if (i > nz) break
      split(zp[i], q, " ")
      printf "  %-44s %8.2f s      %10.0f lines/s  ratio to the kcat runs around it %.3f\n", "ingest ship, warm, default lz4, pass " i, zl[i], lines / zl[i], q[1]
    }
    kzr = lines / median(lzkcat); lzr = lines / lzspan; lzh = median(lzpairs)
    printf "  ratio warm ship/kcat, both lz4, interleaved: %.3f   (the shipper'"'"'s default; lz4/none: shipper %.2f, kcat %.2f)\n", lzh, lzr / wr, kzr / kir
    printf "  ratio cold ship/kcat (lines/s): %.2f   (JVM start and JIT compilation included)\n", sr / kr
    printf "  ratio Java client alone/kcat: %.2f   (no parsing: the client is not what costs)\n", pr / kr
    printf "  ratio warm ship/Java client alone: %.2f\n", wr / pr
    printf "  ratio Java client with the shipper'"'"'s events/kcat: %.2f   (the Kafka side of the shipper'"'"'s output; warm ship/it: %.2f)\n", er / kr, wr / er
    printf "  shipper (cold): %s\n", summary
    printf "  shipper JVM options: %s\n", jvm
    # machine-readable figures (convention: docs/BENCHMARKS.md, read by `./specwatch bench all`)
    printf "BENCH ingest.kcat_lines_per_s %.0f lines/s\n", kr
    printf "BENCH ingest.ship_warm_lines_per_s %.0f lines/s\n", wr
    printf "BENCH ingest.ratio_ship_warm_to_kcat_interleaved %.3f ratio >=0.5\n", hl
    printf "BENCH ingest.kcat_interleaved_lines_per_s %.0f lines/s\n", kir
    printf "BENCH ingest.ratio_ship_warm_to_kcat %.3f ratio\n", wr / kr
    printf "BENCH ingest.broker_cpu_s_per_million_lines_kcat_interleaved %.2f CPU-s\n", kibm * 1e6 / lines
    printf "BENCH ingest.broker_cpu_s_per_million_lines_kcat %.2f CPU-s\n", k[4] * 1e6 / lines
    printf "BENCH ingest.broker_cpu_s_per_million_lines_ship_warm %.2f CPU-s\n", wbm * 1e6 / lines
    printf "BENCH ingest.ship_warm_own_cpu_s_per_million_lines %.2f CPU-s\n", wcm * 1e6 / lines
    printf "BENCH ingest.kcat_lz4_lines_per_s %.0f lines/s\n", kzr
    printf "BENCH ingest.ship_warm_lz4_lines_per_s %.0f lines/s\n", lzr
    printf "BENCH ingest.ratio_ship_warm_to_kcat_both_lz4 %.3f ratio\n", lzh
    printf "BENCH ingest.ship_cold_lines_per_s %.0f lines/s\n", sr
    printf "BENCH ingest.java_raw_lines_per_s %.0f lines/s\n", pr
    printf "BENCH ingest.ratio_java_raw_to_kcat %.3f ratio\n", pr / kr
    printf "BENCH ingest.ratio_ship_warm_to_java_raw %.3f ratio\n", wr / pr
    printf "BENCH ingest.java_events_lines_per_s %.0f lines/s\n", er
    printf "BENCH ingest.ratio_java_events_to_kcat %.3f ratio\n", er / kr
    printf "BENCH ingest.ratio_ship_warm_to_java_events %.3f ratio\n", wr / er
    printf "BENCH ingest.ratio_ship_cold_to_kcat %.3f ratio\n", sr / kr
    if (inproc > 0) {
      printf "BENCH ingest.ratio_ship_cold_inprocess_to_kcat %.3f ratio\n", (lines / inproc) / kr
    }
  }'
}

main "$@"
