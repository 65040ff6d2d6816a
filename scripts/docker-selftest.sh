#!/usr/bin/env bash
# Self-test of scripts/docker.sh up/down in a private network namespace (root, util-linux unshare): a fresh
# private dockerd with its own cache and run dir starts, creates docker0 and its nft tables, sets
# ip_forward; `down` must remove the Testcontainers-labelled containers, stop the daemon and restore all
# of it. The host's network and any engine already running are not touched. Exit 0 when all holds.
set -euo pipefail
SPECWATCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SPECWATCH_HOME
# shellcheck source=lib.sh
source "$SPECWATCH_HOME/scripts/lib.sh"

if [[ "${1:-}" != --inside ]]; then
  [[ "$(id -u)" -eq 0 ]] || die "docker-selftest needs root (network namespace)"
  ensure_apt docker.io nftables
  tmp=$(mktemp -d /tmp/specwatch-docker-selftest.XXXXXX)
  trap 'rm -rf "$tmp"' EXIT
  SELFTEST_TMP=$tmp unshare --net --fork "$0" --inside
  exit $?
fi

tmp=$SELFTEST_TMP
export SPECWATCH_CACHE="$tmp/cache" SPECWATCH_RUN_DIR="$tmp/run"
unset DOCKER_HOST
ip link set lo up
echo 0 >/proc/sys/net/ipv4/ip_forward
state() { echo "ip_forward=$(cat /proc/sys/net/ipv4/ip_forward) links=[$(ip -br link | awk '{print $1}' | xargs)] nft=[$(nft list tables | xargs)]"; }
before=$(state)
fail() { log "docker-selftest FAILED: $*"; exit 1; }

"$SPECWATCH_HOME/scripts/docker.sh" up
eval "$("$SPECWATCH_HOME/scripts/docker.sh" env)"
during=$(state)
[[ "$during" == *docker0* && "$during" == *"ip_forward=1"* ]] || fail "dockerd did not set up its network: $during"
mkdir -p "$tmp/img" && echo probe >"$tmp/img/probe"
tar -C "$tmp/img" -c . | docker import - specwatch-selftest:1 >/dev/null
docker create --label org.testcontainers=true specwatch-selftest:1 /probe >/dev/null
docker create --label org.testcontainers=true -p 127.0.0.1::9 specwatch-selftest:1 /probe >/dev/null
[[ "$(docker ps -aq | wc -l)" -eq 2 ]] || fail "could not create the probe containers"
pid=$(cat "$SPECWATCH_RUN_DIR/docker/started-by-us")

"$SPECWATCH_HOME/scripts/docker.sh" down
after=$(state)
[[ "$after" == "$before" ]] || fail "host state not restored: before {$before} after {$after}"
! kill -0 "$pid" 2>/dev/null || fail "dockerd $pid still running"
[[ ! -e "$SPECWATCH_RUN_DIR/docker/docker.sock" ]] || fail "socket left behind"
if pgrep -f "^(dockerd|containerd) .*$SPECWATCH_RUN_DIR" >/dev/null; then fail "daemon processes left"; fi
log "docker-selftest OK: up set {$during}; down restored {$after}, removed containers, stopped dockerd $pid"
