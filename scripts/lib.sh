# shellcheck shell=bash
# Shared helpers for specwatch scripts. Source it: `source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"`.
# Safe under `set -euo pipefail`. Logs go to stderr so functions can echo results on stdout.
#
#   SPECWATCH_HOME     repo root (derived from this file's location)
#   SPECWATCH_CACHE    download cache, default ~/.cache/specwatch
#   SPECWATCH_RUN_DIR  runtime state (data, pids, logs), default $SPECWATCH_HOME/.run
#
#   log MSG...                         timestamped line on stderr
#   die MSG...                         error line on stderr, exit 1
#   ensure_apt PKG...                  install missing Debian packages (one apt-get update per run)
#   wait_until TIMEOUT_S DESC CMD...   poll CMD every 0.5 s until it succeeds; returns 1 on timeout
#   fetch_kafka_jars                   echoes a dir: lib/ (Kafka 4.4.0 broker+tools jars), config/log4j2*.yaml
#   fetch_apicurio                     echoes the dir holding Apicurio Registry 3.0.9 quarkus-run.jar
#   fetch_chdb                         echoes the dir whose node_modules holds npm chdb 3.4.0 (ClickHouse 26.x)

if [[ -n "${_SPECWATCH_LIB_SOURCED:-}" ]]; then
  return 0
fi
_SPECWATCH_LIB_SOURCED=1

SPECWATCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SPECWATCH_CACHE="${SPECWATCH_CACHE:-${HOME}/.cache/specwatch}"
SPECWATCH_RUN_DIR="${SPECWATCH_RUN_DIR:-${SPECWATCH_HOME}/.run}"
# absolute, as the caller meant them: the services write these paths into their configs and start
# from other directories (a relative run dir gave Kafka a relative log.dirs and it did not start)
SPECWATCH_CACHE="$(realpath -m -- "$SPECWATCH_CACHE")"
SPECWATCH_RUN_DIR="$(realpath -m -- "$SPECWATCH_RUN_DIR")"
export SPECWATCH_HOME SPECWATCH_CACHE SPECWATCH_RUN_DIR

SPECWATCH_KAFKA_VERSION="4.4.0"
SPECWATCH_APICURIO_VERSION="3.0.9"
SPECWATCH_CHDB_VERSION="3.4.0"

log() {
  printf '[specwatch %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2
}

die() {
  printf '[specwatch] ERROR: %s\n' "$*" >&2
  exit 1
}

# Runs a command as root: directly when root, through sudo otherwise.
_as_root() {
  if [[ "$(id -u)" -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root (or sudo) to run: $*"
  fi
}

_apt_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

_SPECWATCH_APT_UPDATED="${_SPECWATCH_APT_UPDATED:-}"

ensure_apt() {
  local missing=() pkg
  for pkg in "$@"; do
    _apt_installed "$pkg" || missing+=("$pkg")
  done
  ((${#missing[@]} == 0)) && return 0
  command -v apt-get >/dev/null 2>&1 || die "apt-get not found; install manually: ${missing[*]}"
  local apt_opts=(-y -q -o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
  if [[ -z "$_SPECWATCH_APT_UPDATED" ]]; then
    log "apt-get update (once per run)"
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=300 update >&2 \
      || die "apt-get update failed (needed to install: ${missing[*]})"
    _SPECWATCH_APT_UPDATED=1
    export _SPECWATCH_APT_UPDATED
  fi
  log "apt-get install ${missing[*]}"
  if ! _as_root env DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" --no-install-recommends \
    "${missing[@]}" >&2; then
    # Name the culprit: retry one by one.
    for pkg in "${missing[@]}"; do
      _apt_installed "$pkg" && continue
      _as_root env DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" --no-install-recommends \
        "$pkg" >&2 || die "apt-get install failed for package '$pkg'"
    done
  fi
  for pkg in "${missing[@]}"; do
    _apt_installed "$pkg" || die "package '$pkg' is still not installed after apt-get install"
  done
}

wait_until() {
  local timeout_s="$1" desc="$2"
  shift 2
  local deadline=$((SECONDS + timeout_s))
  while ! "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      log "timed out after ${timeout_s}s waiting for ${desc}"
      return 1
    fi
    sleep 0.5
  done
}

# True when something accepts TCP connections on 127.0.0.1:PORT.
port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# True when a server could not bind local TCP port PORT: something listens there, or a socket not in
# TIME_WAIT holds it, such as a connection whose ephemeral local port it is (port_open misses those;
# ClickHouse then exits with "Address already in use": the likely cause of CI's failed demo smoke on
# 2026-12-04).
# Conservative, for picking a fresh port: the closing sockets of a stopped server also count, though
# a restart on its own port binds over them. Without ss (iproute2) only listeners are seen.
port_taken() {
  if command -v ss >/dev/null 2>&1 \
    && [[ -n "$(ss -Htan exclude time-wait "( sport = :$1 )" 2>/dev/null || true)" ]]; then
    return 0
  fi
  port_open "$1"
}

# Sets variable $1 to the first port >= $2 that nothing holds (port_taken) and that this script has
# not handed out yet. Pick bases below the kernel's ephemeral range (ip_local_port_range, 32768-60999
# by default): a port in it can be taken after the pick by any outgoing connection, even one of the
# services started with it. Not a $(...) function: USED_PORTS must be updated in this shell, or two
# settings get the same port when the first candidates are busy (another Kafka on 29092/29093).
USED_PORTS=" "
pick_port() {
  local var=$1 base=$2 port
  for ((port = base; port < base + 200; port++)); do
    [[ "$USED_PORTS" == *" $port "* ]] && continue
    port_taken "$port" && continue
    USED_PORTS+="$port "
    printf -v "$var" '%s' "$port"
    return 0
  done
  die "no free port in $base..$((base + 199))"
}

# For a script that runs services of its own in a private run dir (the smokes): sets the EXIT trap
# that stops them when STARTED is non-empty and removes RUN_DIR after success unless KEEP is 1 (on
# failure it is kept, for its logs), and INT/TERM traps that run it. Args: NAME RUN_DIR KEEP.
STARTED=""
private_services_traps() {
  _PS_NAME=$1 _PS_DIR=$2 _PS_KEEP=$3
  trap _private_services_exit EXIT
  trap 'exit 130' INT TERM # run the EXIT trap (stop the services) when interrupted too
}
_private_services_exit() {
  local rc=$? services="$SPECWATCH_HOME/scripts/services.sh"
  if [[ -n "$STARTED" ]]; then
    "$services" stop >&2 \
      || log "stopping the $_PS_NAME services failed: check with SPECWATCH_RUN_DIR=$_PS_DIR $services status"
  fi
  if ((rc == 0)); then
    [[ "$_PS_KEEP" == 1 ]] || rm -rf "$_PS_DIR"
  else
    log "$_PS_NAME run dir (logs) kept: $_PS_DIR"
  fi
  exit "$rc"
}

# Runs a standalone fetch pom once; the result dir is reused while the pom is unchanged.
# Args: NAME POM OUT_DIR GOAL...   (GOAL args get -Dspecwatch.out=<tmp dir>)
_fetch_with_maven() {
  local name="$1" pom="$2" out="$3" lock_fd
  shift 3
  local stamp
  stamp="$(sha256sum "$pom" | cut -c1-16)"
  if [[ -f "$out/.complete" && "$(cat "$out/.complete")" == "$stamp" ]]; then
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || die "mvn not found: needed to fetch $name from Maven Central"
  mkdir -p "$SPECWATCH_CACHE"
  # Serialise concurrent fetches (other scripts may fetch the same thing at once).
  exec {lock_fd}>"$SPECWATCH_CACHE/.$name.lock"
  flock "$lock_fd"
  if [[ -f "$out/.complete" && "$(cat "$out/.complete")" == "$stamp" ]]; then
    exec {lock_fd}>&-
    return 0
  fi
  log "fetching $name from Maven Central into $out"
  local tmp="$out.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  local mvn_log="$SPECWATCH_CACHE/.$name.mvn.log"
  if ! mvn -B -q -Dstyle.color=never -f "$pom" "$@" -Dspecwatch.out="$tmp" >"$mvn_log" 2>&1; then
    cat "$mvn_log" >&2
    rm -rf "$tmp"
    exec {lock_fd}>&-
    die "fetching $name failed (mvn -f $pom $*; output above and in $mvn_log)"
  fi
  printf '%s' "$stamp" >"$tmp/.complete"
  rm -rf "$out"
  mv "$tmp" "$out"
  exec {lock_fd}>&-
}

fetch_kafka_jars() {
  local src="$SPECWATCH_HOME/scripts/fetch/kafka"
  local out="$SPECWATCH_CACHE/kafka-$SPECWATCH_KAFKA_VERSION"
  _fetch_with_maven "kafka-$SPECWATCH_KAFKA_VERSION" "$src/pom.xml" "$out/lib" dependency:copy-dependencies
  mkdir -p "$out/config"
  cp -f "$src/log4j2.yaml" "$src/tools-log4j2.yaml" "$out/config/"
  [[ -n "$(compgen -G "$out/lib/kafka_2.13-*.jar")" ]] || die "kafka jars missing in $out/lib"
  printf '%s\n' "$out"
}

fetch_apicurio() {
  local src="$SPECWATCH_HOME/scripts/fetch/registry"
  local out="$SPECWATCH_CACHE/apicurio-registry-$SPECWATCH_APICURIO_VERSION"
  _fetch_with_maven "apicurio-$SPECWATCH_APICURIO_VERSION" "$src/pom.xml" "$out" dependency:unpack
  local jar
  jar="$(find "$out" -maxdepth 3 -name quarkus-run.jar -print -quit)"
  if [[ -z "$jar" ]]; then
    # 3.0.9's zip is a Quarkus legacy-jar layout (<name>-runner.jar + lib/): expose it as quarkus-run.jar
    # too (a hard link beside it, so its relative Class-Path still resolves), one launch name for all.
    local runner
    runner="$(find "$out" -maxdepth 3 -name '*-runner.jar' -print -quit)"
    [[ -n "$runner" ]] || die "neither quarkus-run.jar nor *-runner.jar found under $out"
    jar="$(dirname "$runner")/quarkus-run.jar"
    ln -f "$runner" "$jar" 2>/dev/null || cp -f "$runner" "$jar"
  fi
  dirname "$jar"
}

# npm chdb (an embedded modern ClickHouse, ~570 MB) into $SPECWATCH_CACHE/chdb-<version>, once; the tests run
# every migration and cookbook query in it (scripts/chdb-run.mjs). Needs node and npm (Debian: nodejs, npm).
fetch_chdb() {
  local out="$SPECWATCH_CACHE/chdb-$SPECWATCH_CHDB_VERSION" lock_fd
  if [[ -f "$out/.complete" ]]; then
    printf '%s\n' "$out"
    return 0
  fi
  command -v node >/dev/null 2>&1 || ensure_apt nodejs
  command -v npm >/dev/null 2>&1 || ensure_apt npm
  mkdir -p "$SPECWATCH_CACHE"
  exec {lock_fd}>"$SPECWATCH_CACHE/.chdb.lock"
  flock "$lock_fd"
  if [[ ! -f "$out/.complete" ]]; then
    log "installing npm chdb $SPECWATCH_CHDB_VERSION into $out (~570 MB, once)"
    local tmp="$out.tmp.$$" npm_log="$SPECWATCH_CACHE/.chdb.npm.log"
    rm -rf "$tmp"
    mkdir -p "$tmp"
    printf '{"name":"specwatch-chdb","private":true}\n' >"$tmp/package.json"
    if ! npm install --prefix "$tmp" --no-audit --no-fund --loglevel=error "chdb@$SPECWATCH_CHDB_VERSION" \
      >"$npm_log" 2>&1; then
      cat "$npm_log" >&2
      rm -rf "$tmp"
      exec {lock_fd}>&-
      die "npm install chdb@$SPECWATCH_CHDB_VERSION failed (output above and in $npm_log)"
    fi
    touch "$tmp/.complete"
    rm -rf "$out"
    mv "$tmp" "$out"
  fi
  exec {lock_fd}>&-
  printf '%s\n' "$out"
}

# JVM options of the shipper (`ingest`: ship, tail, parse, scrape...) when SPECWATCH_JAVA_OPTS is
# unset, used by the launcher and `bench ingest` (the image's specwatch-app has the same GC/JIT
# defaults but the serial GC, see below). Measured on `bench ingest` (1M lines, 2 busy cores;
# docs/BENCHMARKS-HISTORY.md, Ingest: rounds of measurement): the serial GC instead of G1 saved
# ~10 of ~30 CPU-s on a cold replay (G1's concurrent threads and page faults of its large young
# generation); since 2026-12-02 the parallel GC (2 threads, young generation at most 192 MB): the
# warm shipper was faster than with the serial GC in 9 of 10 alternating pairs on one broker
# (Ingest rounds, session 16): a serial pause stops every shipper thread and leaves a core idle, and its young
# collections took 15-40 % of the wall time. The image (images/app/specwatch-app) keeps the serial
# GC: its pod has a 288 MB heap and a 50m CPU request. An AppCDS archive saves ~1 CPU-s and ~1 s of
# start-up. The JIT stays tiered (C1 then C2): C1 only saved ~2-3 CPU-s on a cold 1M-line replay, but a running shipper
# (tail, the daemon) is ~25 % faster per line with C2 once warm (82k vs 100-130k lines/s on the
# bench, docs/BENCHMARKS-HISTORY.md, Ingest rounds, round 5).
# The archive (.run/cds/, per jar) is written at the exit of the first run after a build
# (-XX:ArchiveClassesAtExit, that run's exit takes a few seconds longer) and used from then on;
# SPECWATCH_CDS=off disables it. Sets INGEST_JAVA_OPTS (array); call ingest_cds_done after java.
ingest_java_opts() { # jar
  local jar=$1
  INGEST_CDS_TMP=""
  if [[ -n "${SPECWATCH_JAVA_OPTS:-}" ]]; then
    # shellcheck disable=SC2206 # an option list
    INGEST_JAVA_OPTS=($SPECWATCH_JAVA_OPTS)
    return
  fi
  INGEST_JAVA_OPTS=(-XX:+UseParallelGC -XX:ParallelGCThreads=2 -XX:MaxNewSize=192m)
  [[ "${SPECWATCH_CDS:-on}" == off ]] && return
  INGEST_CDS_ARCHIVE="$SPECWATCH_RUN_DIR/cds/$(basename "$jar" .jar).jsa"
  if [[ -f "$INGEST_CDS_ARCHIVE" && "$INGEST_CDS_ARCHIVE" -nt "$jar" ]]; then
    INGEST_JAVA_OPTS+=("-XX:SharedArchiveFile=$INGEST_CDS_ARCHIVE" -Xlog:cds=off -Xlog:cds+dynamic=off)
  else
    mkdir -p "$SPECWATCH_RUN_DIR/cds"
    INGEST_CDS_TMP="$INGEST_CDS_ARCHIVE.$$.tmp"
    INGEST_JAVA_OPTS+=("-XX:ArchiveClassesAtExit=$INGEST_CDS_TMP" -Xlog:cds=off -Xlog:cds+dynamic=off)
  fi
}

ingest_cds_done() { # moves an archive written by this run into place
  if [[ -n "${INGEST_CDS_TMP:-}" && -s "$INGEST_CDS_TMP" ]]; then
    mv -f "$INGEST_CDS_TMP" "$INGEST_CDS_ARCHIVE"
  fi
  [[ -n "${INGEST_CDS_TMP:-}" ]] && rm -f "$INGEST_CDS_TMP"
  INGEST_CDS_TMP=""
}

# CPU clock ticks (USER_HZ, 1/100 s) process PID has used so far: utime + stime, fields 14 and 15 of
# /proc/PID/stat (read for java processes, whose comm "(java)" has no space); 0 when it is gone.
# Bash builtins only: the benchmarks sample the broker with it several times a second.
cpu_ticks() { # pid
  local f
  read -r -a f 2>/dev/null <"/proc/$1/stat" || { echo 0; return; }
  echo $((f[13] + f[14]))
}

# CPU seconds (2 decimals) between two cpu_ticks readings T0 and T1.
cpu_seconds() { # t0 t1
  awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 100 }'
}
