#!/usr/bin/env bash
# Docker engine for the Testcontainers integration tests.
#
#   scripts/docker.sh up     reuse an engine that answers, else start a PRIVATE dockerd (idempotent)
#   scripts/docker.sh env    print the export lines tests need: eval "$(scripts/docker.sh env)"
#   scripts/docker.sh down   remove Testcontainers containers; stop the dockerd only if WE started it,
#                            and undo what it did (docker0, its nft tables, ip_forward)
#   scripts/docker.sh status
#
# Several runs may share one engine (parallel clones, a developer shell and CI): `up` and `env` take a lease
# named after their caller's PID (the shell that runs the tests and later calls `down`), and `down` only
# removes containers and stops the daemon when no other live lease remains. `down --force` ignores them.
#
# The private dockerd keeps images in $SPECWATCH_CACHE/docker-data (shared by every clone, so images built
# once are reused) and its socket, pid, exec-root and log in $SPECWATCH_RUN_DIR/docker/.
set -euo pipefail
SPECWATCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SPECWATCH_HOME
# shellcheck source=lib.sh
source "$SPECWATCH_HOME/scripts/lib.sh"

DOCKER_DIR="$SPECWATCH_RUN_DIR/docker"
DATA_ROOT="$SPECWATCH_CACHE/docker-data"
SOCK="$DOCKER_DIR/docker.sock"
PIDFILE="$DOCKER_DIR/docker.pid"
HOST_FILE="$DOCKER_DIR/host"          # the DOCKER_HOST we settled on
OURS_FILE="$DOCKER_DIR/started-by-us" # present only when this script started the dockerd
STATE_DIR="$DOCKER_DIR/before"        # host state before our dockerd, to undo on down
READY_TIMEOUT=${SPECWATCH_DOCKER_READY_TIMEOUT:-60}
LEASE_DIR="$SPECWATCH_CACHE/docker-leases" # machine-wide, like the data root

answers() { # answers <DOCKER_HOST>: the engine replies within a few seconds
  command -v docker >/dev/null 2>&1 || return 1
  DOCKER_HOST="$1" timeout 20 docker version >/dev/null 2>&1
}

recorded_host() { [[ -f "$HOST_FILE" ]] && cat "$HOST_FILE"; }

# A dockerd already running on our data root (e.g. started from another clone): reuse its socket rather than
# start a second daemon on the same data root, which would fail on the lock and fight over docker0.
running_dockerd_on_data_root() {
  local d cmd sock
  for d in /proc/[0-9]*; do
    [[ -r "$d/cmdline" ]] || continue
    cmd=$(tr '\0' ' ' <"$d/cmdline" 2>/dev/null) || continue
    [[ "$cmd" == dockerd\ * || "$cmd" == */dockerd\ * ]] || continue
    [[ "$cmd" == *"--data-root $DATA_ROOT "* ]] || continue
    sock=$(sed -n 's/.* -H \(unix:\/\/[^ ]*\).*/\1/p' <<<"$cmd")
    [[ -n "$sock" ]] && echo "$sock" && return 0
  done
  return 1
}

record_state_before() {
  rm -rf "$STATE_DIR" && mkdir -p "$STATE_DIR"
  cat /proc/sys/net/ipv4/ip_forward >"$STATE_DIR/ip_forward"
  if ip link show docker0 >/dev/null 2>&1; then touch "$STATE_DIR/docker0-existed"; fi
  nft list tables 2>/dev/null | sort >"$STATE_DIR/nft-tables" || : >"$STATE_DIR/nft-tables"
}

start_private_dockerd() {
  ensure_apt docker.io debootstrap nftables
  command -v dockerd >/dev/null 2>&1 || die "dockerd not found after installing docker.io"
  mkdir -p "$DOCKER_DIR" "$DOCKER_DIR/exec" "$DATA_ROOT"
  rm -f "$SOCK" "$PIDFILE"
  record_state_before
  log "starting a private dockerd (data root $DATA_ROOT, socket $SOCK, log $DOCKER_DIR/dockerd.log)"
  setsid dockerd --data-root "$DATA_ROOT" --exec-root "$DOCKER_DIR/exec" -H "unix://$SOCK" \
    --pidfile "$PIDFILE" >"$DOCKER_DIR/dockerd.log" 2>&1 </dev/null {LOCK_FD}>&- &
  local pid=$!
  echo "$pid" >"$OURS_FILE"
  local deadline=$((SECONDS + READY_TIMEOUT))
  until answers "unix://$SOCK"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 20 "$DOCKER_DIR/dockerd.log" >&2 || true
      rm -f "$OURS_FILE"
      undo_host_changes
      die "dockerd exited during startup (log: $DOCKER_DIR/dockerd.log); no Docker engine can be provided here"
    fi
    if ((SECONDS > deadline)); then
      tail -n 20 "$DOCKER_DIR/dockerd.log" >&2 || true
      stop_our_dockerd
      die "dockerd did not answer within ${READY_TIMEOUT}s (log: $DOCKER_DIR/dockerd.log)"
    fi
    sleep 0.5
  done
  [[ -s "$PIDFILE" ]] && cat "$PIDFILE" >"$OURS_FILE"
  echo "unix://$SOCK" >"$HOST_FILE"
  log "private dockerd ready (pid $pid) in $((SECONDS - START))s"
}

proc_start() { # start time of a PID (field 22 of /proc/PID/stat), empty when it does not exist
  awk '{ sub(/^.*\) /, ""); print $20 }' "/proc/$1/stat" 2>/dev/null || true
}

take_lease() {
  mkdir -p "$LEASE_DIR"
  proc_start "$PPID" >"$LEASE_DIR/$PPID"
}

other_live_leases() { # prints the PIDs of live leases other than our caller's; drops stale ones
  local f pid
  for f in "$LEASE_DIR"/*; do
    [[ -f "$f" ]] || continue
    pid=${f##*/}
    [[ "$pid" == "$PPID" ]] && continue
    if [[ -n "$(proc_start "$pid")" && "$(proc_start "$pid")" == "$(cat "$f")" ]]; then
      echo "$pid"
    else
      rm -f "$f"
    fi
  done
}

cmd_up() {
  take_lease
  START=$SECONDS
  mkdir -p "$DOCKER_DIR"
  local h
  if h=$(recorded_host) && answers "$h"; then
    log "Docker engine already up at $h"
    return 0
  fi
  if [[ -f "$OURS_FILE" ]] && our_dockerd_alive; then
    # Alive but slow (a loaded machine): never kill a daemon others may be using, wait for it.
    log "our dockerd (pid $(cat "$OURS_FILE")) is alive but slow to answer: waiting up to ${READY_TIMEOUT}s"
    if wait_until "$READY_TIMEOUT" "dockerd to answer" answers "unix://$SOCK"; then
      echo "unix://$SOCK" >"$HOST_FILE"
      log "Docker engine up at unix://$SOCK"
      return 0
    fi
    die "our dockerd (pid $(cat "$OURS_FILE")) does not answer; see $DOCKER_DIR/dockerd.log, or scripts/docker.sh down --force"
  fi
  rm -f "$HOST_FILE"
  if [[ -f "$OURS_FILE" ]]; then
    log "the dockerd we started earlier has exited: cleaning up after it"
    stop_our_dockerd
  fi
  if command -v docker >/dev/null 2>&1; then
    h=${DOCKER_HOST:-unix:///var/run/docker.sock}
    if answers "$h"; then
      echo "$h" >"$HOST_FILE"
      log "using the existing Docker engine at $h (not started by us; down will leave it running)"
      return 0
    fi
  fi
  if h=$(running_dockerd_on_data_root) && answers "$h"; then
    echo "$h" >"$HOST_FILE"
    log "using the dockerd already running on $DATA_ROOT at $h (not started by us)"
    return 0
  fi
  start_private_dockerd
}

cmd_env() {
  local h
  h=$(recorded_host) || die "no Docker engine recorded: run scripts/docker.sh up first"
  take_lease # the shell that evals this runs the tests: a concurrent down leaves the engine alone
  printf 'export DOCKER_HOST=%q\n' "$h"
  echo "export TESTCONTAINERS_RYUK_DISABLED=true"
  echo "export TESTCONTAINERS_HOST_OVERRIDE=localhost"
  local images="$SPECWATCH_RUN_DIR/images.env" line
  if [[ -f "$images" ]]; then
    while IFS= read -r line; do
      [[ "$line" =~ ^SPECWATCH_[A-Z_]+=[^[:space:]]*$ ]] && echo "export $line"
    done <"$images"
  fi
}

remove_test_containers() {
  local h=$1 ids
  ids=$(DOCKER_HOST="$h" timeout 20 docker ps -aq --filter label=org.testcontainers=true 2>/dev/null) || return 0
  if [[ -n "$ids" ]]; then
    log "removing $(wc -w <<<"$ids") Testcontainers container(s)"
    # shellcheck disable=SC2086
    DOCKER_HOST="$h" timeout 60 docker rm -f -v $ids >/dev/null || log "WARN: could not remove some containers"
  fi
}

undo_host_changes() {
  [[ -d "$STATE_DIR" ]] || return 0
  if [[ ! -f "$STATE_DIR/docker0-existed" ]] && ip link show docker0 >/dev/null 2>&1; then
    ip link delete docker0 || log "WARN: could not delete docker0"
  fi
  if command -v nft >/dev/null 2>&1; then
    local t
    while IFS= read -r t; do
      [[ -z "$t" ]] && continue
      if ! grep -qxF "$t" "$STATE_DIR/nft-tables"; then
        # shellcheck disable=SC2086
        nft delete ${t} || log "WARN: could not delete nft $t"
      fi
    done < <(nft list tables 2>/dev/null | sort)
  fi
  if [[ -f "$STATE_DIR/ip_forward" ]]; then
    cat "$STATE_DIR/ip_forward" >/proc/sys/net/ipv4/ip_forward || log "WARN: could not restore ip_forward"
  fi
  rm -rf "$STATE_DIR"
}

our_dockerd_alive() {
  local pid
  pid=$(cat "$OURS_FILE" 2>/dev/null) || return 1
  [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && grep -qa dockerd "/proc/$pid/cmdline"
}

stop_our_dockerd() {
  local pid
  pid=$(cat "$OURS_FILE" 2>/dev/null) || return 0
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && grep -qa dockerd "/proc/$pid/cmdline"; then
    log "stopping our dockerd (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + 30))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then
      log "WARN: dockerd $pid ignored SIGTERM for 30s: SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
    fi
  fi
  undo_host_changes
  rm -f "$OURS_FILE" "$HOST_FILE" "$SOCK" "$PIDFILE"
}

cmd_down() {
  local h others
  rm -f "$LEASE_DIR/$PPID"
  others=$(other_live_leases | xargs)
  if [[ -n "$others" && "${1:-}" != --force ]]; then
    log "Docker engine still in use (leases of PIDs $others): leaving its containers and daemon running"
    log "(scripts/docker.sh down --force stops them anyway)"
    return 0
  fi
  if h=$(recorded_host) && answers "$h"; then remove_test_containers "$h"; fi
  if [[ -f "$OURS_FILE" ]]; then
    stop_our_dockerd
    log "private dockerd stopped, host network state restored"
  else
    rm -f "$HOST_FILE"
    log "no dockerd of ours to stop"
  fi
}

cmd_status() {
  local h
  if h=$(recorded_host) && answers "$h"; then
    echo "docker: up at $h ($([[ -f "$OURS_FILE" ]] && echo "private dockerd pid $(cat "$OURS_FILE")" || echo "not started by us"))"
  else
    echo "docker: down"
    return 1
  fi
}

with_lock() { # one up/down at a time per machine (the data root and docker0 are machine-wide)
  mkdir -p "$SPECWATCH_CACHE"
  exec {LOCK_FD}>"$SPECWATCH_CACHE/.docker.lock"
  flock "$LOCK_FD"
  "$@"
  exec {LOCK_FD}>&-
}

case "${1:-}" in
  up) with_lock cmd_up ;;
  env) cmd_env ;;
  down) with_lock cmd_down "${2:-}" ;;
  status) cmd_status ;;
  *) die "usage: scripts/docker.sh up|env|down [--force]|status" ;;
esac
