#!/usr/bin/env bash
# ./specwatch bench [all] / ./specwatch bench all PART...: runs every scripts/bench-*.sh (or the named
# parts) one after the other, keeps each one's output in <run dir>/bench-all/<part>.out, and writes
# docs/BENCHMARKS.md from the figure lines they print.
#   --report-only   only rewrite docs/BENCHMARKS.md from the outputs kept by earlier runs
#
# Figure convention (every bench-*.sh prints these on stdout, anything else is free text):
#   BENCH <name> <value> <unit> [<target>]
# name: <part>.<figure> without spaces; value: a number; unit: one word (ratio, lines/s, MB, s...);
# target (optional): >=X or <=X in the same unit. A part may repeat a name; the last value counts.
#
# Settings (env): SPECWATCH_BENCH_REPORT=<repo>/docs/BENCHMARKS.md (where the report is written)
# The parts' own settings (sizes, ports) pass through; see the head of each scripts/bench-*.sh.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

OUT_DIR="$SPECWATCH_RUN_DIR/bench-all"
REPORT="${SPECWATCH_BENCH_REPORT:-$SPECWATCH_HOME/docs/BENCHMARKS.md}"
mkdir -p "$OUT_DIR"

all_parts() {
  local f
  for f in "$SPECWATCH_HOME"/scripts/bench-*.sh; do
    [[ -e "$f" ]] && basename "$f" .sh | sed 's/^bench-//'
  done
}

REPORT_ONLY=0
PARTS=()
for a in "$@"; do
  case "$a" in
    --report-only) REPORT_ONLY=1 ;;
    all) ;;
    *)
      [[ "$a" =~ ^[a-z0-9-]+$ && -f "$SPECWATCH_HOME/scripts/bench-$a.sh" ]] \
        || die "unknown benchmark '$a' (available: $(all_parts | tr '\n' ' '))"
      PARTS+=("$a")
      ;;
  esac
done
((${#PARTS[@]})) || mapfile -t PARTS < <(all_parts)

RC=0
if ((!REPORT_ONLY)); then
  for part in "${PARTS[@]}"; do
    out="$OUT_DIR/$part.out"
    log "bench all: $part (output: $out)"
    start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    {
      echo "# part $part started $start load $load"
      rc=0
      "$SPECWATCH_HOME/scripts/bench-$part.sh" 2>&1 || rc=$?
      echo "# part $part finished $(date -u +%Y-%m-%dT%H:%M:%SZ) exit $rc load $(cut -d' ' -f1-3 /proc/loadavg)"
    } | tee "$out.tmp" | grep -E '^(BENCH |==== |# part )' || true
    mv "$out.tmp" "$out"
    grep -q "^# part $part finished .* exit 0 " "$out" || { RC=1; log "bench all: $part FAILED (see $out)"; }
  done
fi

# ---- the report
cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
mem=$(awk '/^MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)
java_v=$("${JAVA_HOME:+$JAVA_HOME/bin/}java" -version 2>&1 | head -1)
ch_v=$( (clickhouse-server --version 2>/dev/null || clickhouse-client --version 2>/dev/null || echo unknown) | head -1 | sed "s/^ClickHouse .*version //; s/\\.$//")
{
  echo "# Benchmarks"
  echo
  echo "Written by \`./specwatch bench\` (scripts/benchmarks.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'); do not edit"
  echo "by hand: rerun it. Every part starts its own services on non-default ports and prints its figures"
  echo "against a baseline tool run in the same command; interpretation in README.md (*Benchmarks*),"
  echo "the module READMEs and docs/DESIGN.md."
  echo
  echo "## Machine"
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| cores (nproc) | $(nproc) |"
  echo "| CPU | ${cpu:-unknown} |"
  echo "| memory | $mem |"
  echo "| load average when written | $(cut -d' ' -f1-3 /proc/loadavg) (the machine is shared: other work slows every figure) |"
  echo "| Java | $java_v |"
  echo "| Kafka | $SPECWATCH_KAFKA_VERSION (plain process, KRaft, one broker) |"
  echo "| Apicurio Registry | $SPECWATCH_APICURIO_VERSION |"
  echo "| ClickHouse | $ch_v |"
  echo
  echo "## Figures"
  echo
  echo "| part | figure | value | unit | target | result | run (UTC, load average at start) |"
  echo "|---|---|---|---|---|---|---|"
  for part in $(all_parts); do
    out="$OUT_DIR/$part.out"
    if [[ ! -f "$out" ]]; then
      echo "| $part | (not run) | | | | | |"
      continue
    fi
    head1=$(head -1 "$out")
    run_at=$(awk '{print $5 ", " $7 " " $8 " " $9}' <<<"$head1")
    if ! grep -q "^# part $part finished .* exit 0 " "$out"; then
      echo "| $part | **run failed**: $(grep -o 'exit [0-9]*' "$out" | tail -1) (.run/bench-all/$part.out) | | | | FAIL | $run_at |"
    fi
    { grep '^BENCH ' "$out" || true; } | awk -v part="$part" -v at="$run_at" '
      { v[$2] = $3; u[$2] = $4; t[$2] = $5; if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
      END {
        if (n == 0) printf "| %s | (no BENCH lines) | | | | | %s |\n", part, at
        for (i = 1; i <= n; i++) {
          k = order[i]; res = "-"; tgt = t[k]
          if (tgt ~ /^>=/) res = (v[k] + 0 >= substr(tgt, 3) + 0) ? "pass" : "**FAIL**"
          else if (tgt ~ /^<=/) res = (v[k] + 0 <= substr(tgt, 3) + 0) ? "pass" : "**FAIL**"
          gsub(/>=/, "≥ ", tgt); gsub(/<=/, "≤ ", tgt)
          printf "| %s | `%s` | %s | %s | %s | %s | %s |\n", part, k, v[k], u[k], (tgt == "" ? "-" : tgt), res, at
        }
      }'
  done
  echo
  echo "## How to reproduce"
  echo
  echo '```'
  echo "./specwatch bench                 # every part in turn, then this file (about 15-35 min on 2 busy cores)"
  echo "./specwatch bench all e2e sink    # only these parts, then this file (the other parts keep their last output)"
  echo "./specwatch bench all --report-only   # rewrite this file from the kept outputs (.run/bench-all/*.out)"
  echo "./specwatch bench ingest          # one part, figures on the terminal only"
  echo '```'
  echo
  echo "Parts (scripts/bench-*.sh), each with its sizes and ports as environment settings at its head:"
  echo
  echo "| part | measures | baseline in the same run |"
  echo "|---|---|---|"
  echo "| ingest | \`ingest ship\` of a mixed engine log: parse, normalise, Avro, idempotent produce (lines/s) | \`kcat -P\` producing the same raw lines |"
  echo "| streams | streams app, exactly_once_v2, events/s; heap with 10 000 deployments' windows open | Kafka's ConsumerPerformance on the same topic |"
  echo "| streams-steady | the same as streams after 1 000 000 warm-up events, 1 000 000 measured; also the windowed floor (the DSL's windowed count per deployment, emit on close, exactly_once_v2) | Kafka's ConsumerPerformance on the same topic |"
  echo "| sink | sink rows/s into decode_events and window_results (median of rounds) | \`clickhouse-client\` inserting the same rows as TSV |"
  echo "| e2e | log lines -> ship -> streams (EOS) -> sink -> ClickHouse rows/s; latency p99 event time -> row visible vs window + grace (realtime generation + \`ingest tail\`) | Kafka's ConsumerPerformance on the same decode-events topic |"
  echo
  echo "Figure lines: each part prints \`BENCH <name> <value> <unit> [>=X|<=X]\` on stdout; this file is"
  echo "built from those lines only (the last value of a repeated name counts). A new bench-*.sh is picked up"
  echo "by \`./specwatch bench\` without further registration."
} >"$REPORT.tmp"
mv "$REPORT.tmp" "$REPORT"
log "bench all: wrote $REPORT"
exit $RC
