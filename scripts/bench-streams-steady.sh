#!/usr/bin/env bash
# The steady-state variant of the streams benchmark (./specwatch bench streams-steady, ~3 min): the
# same script as `bench streams` (scripts/bench-streams.sh, its settings apply) with 1 000 000
# warm-up and 1 000 000 measured events, so the app, the perf tool and the floors are measured after
# the JIT has compiled their hot paths (in the default 200 000-event span the C2 compiler still uses
# as much CPU as the app's stream thread), and with the windowed floor: the DSL's windowed count per
# deployment with the app's window semantics under exactly-once (StreamsFloorBench window-count),
# what any topology that windows per deployment starts from. Figures are named streams-steady.*.
set -euo pipefail
export SPECWATCH_BENCH_WARMUP_EVENTS="${SPECWATCH_BENCH_WARMUP_EVENTS:-1000000}"
export SPECWATCH_BENCH_EVENTS="${SPECWATCH_BENCH_EVENTS:-1000000}"
export SPECWATCH_BENCH_WINDOWED_FLOOR="${SPECWATCH_BENCH_WINDOWED_FLOOR:-1}"
export SPECWATCH_BENCH_FIGURES=streams-steady
exec "$(dirname "${BASH_SOURCE[0]}")/bench-streams.sh" "$@"
