#!/usr/bin/env bash
# Real local services as plain processes on 127.0.0.1 (no Docker): Kafka 4.4.0 (KRaft, single node,
# exactly-once ready), Apicurio Registry 3.0.9 (Confluent API under /apis/ccompat/v7), ClickHouse (Debian).
#
# Usage: scripts/services.sh start|stop|status|env [kafka|registry|clickhouse ...]   (default: all three)
#        scripts/services.sh topics-create <topic> [partitions] [compact|append-time]
#        scripts/services.sh kafka-tool <MainClass> [args...]   e.g. org.apache.kafka.tools.ProducerPerformance
#
# Settings (env):  SPECWATCH_KAFKA_PORT=19092  SPECWATCH_KAFKA_CONTROLLER_PORT=19093  SPECWATCH_KAFKA_HEAP=1g
#                  SPECWATCH_REGISTRY_PORT=18081  SPECWATCH_REGISTRY_MANAGEMENT_PORT=18091
#                  SPECWATCH_CLICKHOUSE_HTTP_PORT=18123  SPECWATCH_CLICKHOUSE_TCP_PORT=19000
#                  SPECWATCH_RUN_DIR (default <repo>/.run): data, pid files and logs in services/<name>/
#                  SPECWATCH_START_TIMEOUT=300 (seconds per service readiness wait; busy 2-core boxes are slow)
#                  SPECWATCH_BOOTSTRAP (topics-create / kafka-tool only; default the local broker)
# `status` exits 0 when every named service is up, 1 otherwise.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

_port_setting() {
  local name="$1" default="$2" value
  value="${!name:-$default}"
  if ! [[ "$value" =~ ^[0-9]+$ ]] || ((value < 1 || value > 65535)); then
    die "setting $name must be a TCP port (1-65535), got '$value'"
  fi
  printf '%s' "$value"
}

KAFKA_PORT="$(_port_setting SPECWATCH_KAFKA_PORT 19092)"
KAFKA_CONTROLLER_PORT="$(_port_setting SPECWATCH_KAFKA_CONTROLLER_PORT 19093)"
REGISTRY_PORT="$(_port_setting SPECWATCH_REGISTRY_PORT 18081)"
REGISTRY_MANAGEMENT_PORT="$(_port_setting SPECWATCH_REGISTRY_MANAGEMENT_PORT 18091)"
CLICKHOUSE_HTTP_PORT="$(_port_setting SPECWATCH_CLICKHOUSE_HTTP_PORT 18123)"
CLICKHOUSE_TCP_PORT="$(_port_setting SPECWATCH_CLICKHOUSE_TCP_PORT 19000)"
KAFKA_HEAP="${SPECWATCH_KAFKA_HEAP:-1g}"
[[ "$KAFKA_HEAP" =~ ^[0-9]+[mMgG]$ ]] || die "setting SPECWATCH_KAFKA_HEAP must look like 1g or 768m, got '$KAFKA_HEAP'"

START_TIMEOUT="${SPECWATCH_START_TIMEOUT:-300}"
[[ "$START_TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "setting SPECWATCH_START_TIMEOUT must be seconds (a positive integer), got '$START_TIMEOUT'"
JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
SERVICES_DIR="$SPECWATCH_RUN_DIR/services"
ALL_SERVICES=(kafka registry clickhouse)
# Cluster id: base64url of the 16 bytes "specwatch-local1" (must not start with '-').
KAFKA_CLUSTER_ID="c3BlY3dhdGNoLWxvY2FsMQ"
# Short-lived and low-traffic JVMs (CLI tools, the registry): C1 only and a serial GC start much faster on 2 cores.
QUICK_JVM=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto)

svc_dir() { printf '%s/%s' "$SERVICES_DIR" "$1"; }
svc_log() { printf '%s/%s/%s.log' "$SERVICES_DIR" "$1" "$1"; }
svc_pid_file() { printf '%s/%s/%s.pid' "$SERVICES_DIR" "$1" "$1"; }

svc_address() {
  case "$1" in
    kafka) printf '127.0.0.1:%s (controller 127.0.0.1:%s)' "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT" ;;
    registry) printf 'http://127.0.0.1:%s/apis/ccompat/v7 (management http://127.0.0.1:%s)' \
      "$REGISTRY_PORT" "$REGISTRY_MANAGEMENT_PORT" ;;
    clickhouse) printf 'http://127.0.0.1:%s (tcp 127.0.0.1:%s)' "$CLICKHOUSE_HTTP_PORT" "$CLICKHOUSE_TCP_PORT" ;;
  esac
}

svc_ports() {
  case "$1" in
    kafka) echo "SPECWATCH_KAFKA_PORT=$KAFKA_PORT SPECWATCH_KAFKA_CONTROLLER_PORT=$KAFKA_CONTROLLER_PORT" ;;
    registry) echo "SPECWATCH_REGISTRY_PORT=$REGISTRY_PORT SPECWATCH_REGISTRY_MANAGEMENT_PORT=$REGISTRY_MANAGEMENT_PORT" ;;
    clickhouse) echo "SPECWATCH_CLICKHOUSE_HTTP_PORT=$CLICKHOUSE_HTTP_PORT SPECWATCH_CLICKHOUSE_TCP_PORT=$CLICKHOUSE_TCP_PORT" ;;
  esac
}

# A string only this service's own command line contains (it names its config in the service dir).
svc_marker() {
  case "$1" in
    kafka) printf '%s/server.properties' "$(svc_dir kafka)" ;;
    registry) printf -- '-Dspecwatch.service.dir=%s/' "$(svc_dir registry)" ;;
    clickhouse) printf -- '--config-file=%s/config.xml' "$(svc_dir clickhouse)" ;;
  esac
}

# Prints the pid when the pid file names a live process of THIS service (its command line holds the
# service's marker), so stale pid files and recycled pids count as "not running".
svc_pid() {
  local pid_file pid
  pid_file="$(svc_pid_file "$1")"
  [[ -f "$pid_file" ]] || return 1
  pid="$(cat "$pid_file" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [[ -r "/proc/$pid/cmdline" ]] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$(svc_marker "$1")" || return 1
  printf '%s' "$pid"
}

# Readiness probes. Kafka's also needs the log offset where the current start began.
KAFKA_LOG_OFFSET=0
probe_kafka() {
  port_open "$KAFKA_PORT" \
    && tail -c +"$((KAFKA_LOG_OFFSET + 1))" "$(svc_log kafka)" 2>/dev/null | grep -q "Kafka Server started"
}
probe_kafka_port() { port_open "$KAFKA_PORT"; }
# Apicurio 3.0.9 is built without Quarkus' separate management interface: /health/ready is on the main
# port there; newer builds (3.3.x) serve it on the management port. Accept either.
probe_registry() {
  {
    curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$REGISTRY_MANAGEMENT_PORT/health/ready" \
      || curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$REGISTRY_PORT/health/ready"
  } && curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$REGISTRY_PORT/apis/ccompat/v7/subjects"
}
probe_clickhouse() {
  [[ "$(curl -fs --max-time 2 "http://127.0.0.1:$CLICKHOUSE_HTTP_PORT/ping" 2>/dev/null)" == "Ok." ]]
}

# Prints the tail of the service log, stops a half-started process, exits 1.
fail_service() {
  local name="$1" msg="$2" log_file pid
  log_file="$(svc_log "$name")"
  {
    echo "----- last 40 lines of $log_file -----"
    tail -n 40 "$log_file" 2>/dev/null || echo "(no log)"
    echo "-----"
  } >&2
  if pid="$(svc_pid "$name")"; then
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$(svc_pid_file "$name")"
  die "$name: $msg (log: $log_file)"
}

# await_ready NAME TIMEOUT_S PROBE: waits for PROBE, failing fast when the process dies.
await_ready() {
  local name="$1" timeout_s="$2" probe="$3"
  local deadline=$((SECONDS + timeout_s))
  until "$probe"; do
    svc_pid "$name" >/dev/null || fail_service "$name" "process exited during startup"
    ((SECONDS < deadline)) || fail_service "$name" "not ready after ${timeout_s}s"
    sleep 0.5
  done
}

# launch NAME CMD...: runs CMD detached (own session, survives this script) in the service dir, appending
# stdout/stderr to the service log; the pid file is written by the process itself before exec.
launch() {
  local name="$1"
  shift
  local dir log_file pid_file
  dir="$(svc_dir "$name")"
  log_file="$(svc_log "$name")"
  pid_file="$(svc_pid_file "$name")"
  rm -f "$pid_file"
  printf '\n===== specwatch: starting %s at %s =====\n' "$name" "$(date -u +%FT%TZ)" >>"$log_file"
  (
    cd "$dir"
    # shellcheck disable=SC2016 # $$ and $@ expand in the inner shell
    setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pid_file" "$@" >>"$log_file" 2>&1 </dev/null &
  )
  wait_until 10 "$name pid file" test -s "$pid_file" || fail_service "$name" "did not start"
}

ensure_ports_free() {
  local name="$1" port
  shift
  for port in "$@"; do
    port_open "$port" && die "$name: port $port is already in use by another process (settings: $(svc_ports "$name"))"
  done
  return 0
}

write_kafka_config() {
  local dir="$1"
  cat >"$dir/server.properties" <<EOF
# Generated by scripts/services.sh at each start: single-node KRaft broker+controller on loopback.
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT,CONTROLLER://127.0.0.1:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
num.partitions=1
auto.create.topics.enable=true
# Single node: every internal topic with replication 1, or transactions (exactly-once) never initialise.
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
default.replication.factor=1
min.insync.replicas=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# Fewer internal partitions than the default 50: quicker first group/transaction on a 2-core box.
offsets.topic.num.partitions=10
transaction.state.log.num.partitions=10
EOF
}

start_kafka() {
  local dir kafka_home
  dir="$(svc_dir kafka)"
  kafka_home="$(fetch_kafka_jars)"
  ensure_ports_free kafka "$KAFKA_PORT" "$KAFKA_CONTROLLER_PORT"
  write_kafka_config "$dir"
  local ports="$KAFKA_PORT/$KAFKA_CONTROLLER_PORT"
  if [[ -f "$dir/data/meta.properties" && "$(cat "$dir/formatted-ports" 2>/dev/null)" != "$ports" ]]; then
    # The formatted voter set records the controller endpoint: new ports need a fresh log dir.
    log "kafka: ports changed since format, wiping $dir/data"
    rm -rf "$dir/data"
  fi
  if [[ ! -f "$dir/data/meta.properties" ]]; then
    log "kafka: formatting storage (cluster id $KAFKA_CLUSTER_ID)"
    "$JAVA" "${QUICK_JVM[@]}" -Dlog4j2.configurationFile="$kafka_home/config/tools-log4j2.yaml" -cp "$kafka_home/lib/*" \
      kafka.tools.StorageTool format --standalone -t "$KAFKA_CLUSTER_ID" -c "$dir/server.properties" \
      >>"$(svc_log kafka)" 2>&1 || fail_service kafka "storage format failed"
    printf '%s' "$ports" >"$dir/formatted-ports"
  fi
  KAFKA_LOG_OFFSET="$(stat -c %s "$(svc_log kafka)" 2>/dev/null || echo 0)"
  launch kafka "$JAVA" "-Xmx$KAFKA_HEAP" -Xms256m -XX:+UseG1GC -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$kafka_home/config/log4j2.yaml" -cp "$kafka_home/lib/*" \
    kafka.Kafka "$dir/server.properties"
  await_ready kafka "$START_TIMEOUT" probe_kafka
}

start_registry() {
  local dir app
  dir="$(svc_dir registry)"
  app="$(fetch_apicurio)"
  ensure_ports_free registry "$REGISTRY_PORT" "$REGISTRY_MANAGEMENT_PORT"
  launch registry "$JAVA" -Xmx512m "${QUICK_JVM[@]}" -Dspecwatch.service.dir="$dir/" \
    -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="$REGISTRY_PORT" \
    -Dquarkus.management.host=127.0.0.1 -Dquarkus.management.port="$REGISTRY_MANAGEMENT_PORT" \
    -Dapicurio.rules.global.compatibility=BACKWARD \
    -jar "$app/quarkus-run.jar"
  await_ready registry "$START_TIMEOUT" probe_registry
}

write_clickhouse_config() {
  local dir="$1"
  mkdir -p "$dir/data" "$dir/tmp" "$dir/user_files" "$dir/format_schemas"
  cat >"$dir/config.xml" <<EOF
<?xml version="1.0"?>
<!-- Generated by scripts/services.sh at each start. Loopback only, no interserver port, paths in run dir. -->
<yandex>
    <logger>
        <level>information</level>
        <log>$dir/clickhouse.log</log>
        <errorlog>$dir/clickhouse.err.log</errorlog>
        <size>100M</size>
        <count>2</count>
    </logger>
    <http_port>$CLICKHOUSE_HTTP_PORT</http_port>
    <tcp_port>$CLICKHOUSE_TCP_PORT</tcp_port>
    <listen_host>127.0.0.1</listen_host>
    <max_connections>256</max_connections>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_concurrent_queries>64</max_concurrent_queries>
    <uncompressed_cache_size>268435456</uncompressed_cache_size>
    <mark_cache_size>268435456</mark_cache_size>
    <path>$dir/data/</path>
    <tmp_path>$dir/tmp/</tmp_path>
    <user_files_path>$dir/user_files/</user_files_path>
    <format_schema_path>$dir/format_schemas/</format_schema_path>
    <users_config>$dir/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <mlock_executable>false</mlock_executable>
    <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
    <max_session_timeout>3600</max_session_timeout>
    <default_session_timeout>60</default_session_timeout>
</yandex>
EOF
  cat >"$dir/users.xml" <<'EOF'
<?xml version="1.0"?>
<!-- Generated by scripts/services.sh: user "default" without password, loopback only. -->
<yandex>
    <profiles>
        <default>
            <max_memory_usage>4000000000</max_memory_usage>
            <use_uncompressed_cache>0</use_uncompressed_cache>
            <load_balancing>random</load_balancing>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks>
                <ip>::1</ip>
                <ip>127.0.0.1</ip>
            </networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas>
        <default>
            <interval>
                <duration>3600</duration>
                <queries>0</queries>
                <errors>0</errors>
                <result_rows>0</result_rows>
                <read_rows>0</read_rows>
                <execution_time>0</execution_time>
            </interval>
        </default>
    </quotas>
</yandex>
EOF
}

start_clickhouse() {
  local dir server
  dir="$(svc_dir clickhouse)"
  ensure_apt clickhouse-server clickhouse-client
  server="$(command -v clickhouse-server || true)"
  [[ -n "$server" ]] || server=/usr/sbin/clickhouse-server
  [[ -x "$server" ]] || die "clickhouse: clickhouse-server binary not found after installing clickhouse-server"
  ensure_ports_free clickhouse "$CLICKHOUSE_HTTP_PORT" "$CLICKHOUSE_TCP_PORT"
  write_clickhouse_config "$dir"
  launch clickhouse "$server" --config-file="$dir/config.xml"
  await_ready clickhouse 60 probe_clickhouse
}

start_one() {
  local name="$1" pid t0=$SECONDS
  mkdir -p "$(svc_dir "$name")"
  if pid="$(svc_pid "$name")"; then
    # Already running (maybe still starting): just wait for readiness. Kafka: the port is enough here.
    case "$name" in
      kafka) await_ready kafka 120 probe_kafka_port ;;
      *) await_ready "$name" 120 "probe_$name" ;;
    esac
    log "$name already running (pid $pid) at $(svc_address "$name")"
    return 0
  fi
  rm -f "$(svc_pid_file "$name")"
  log "$name: starting"
  "start_$name"
  log "$name up at $(svc_address "$name") (pid $(svc_pid "$name"), $((SECONDS - t0))s)"
}

stop_one() {
  local name="$1" pid
  if ! pid="$(svc_pid "$name")"; then
    rm -f "$(svc_pid_file "$name")"
    log "$name not running"
    return 0
  fi
  log "$name: stopping pid $pid"
  kill -TERM "$pid" 2>/dev/null || true
  if ! wait_until 60 "$name to exit" _not_running "$name"; then
    log "$name: still running after 60s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    wait_until 10 "$name to die" _not_running "$name" || die "$name: pid $pid survives SIGKILL"
  fi
  rm -f "$(svc_pid_file "$name")"
  log "$name stopped"
}

_not_running() { ! svc_pid "$1" >/dev/null; }

status_one() {
  local name="$1" pid
  if pid="$(svc_pid "$name")"; then
    local probe="probe_$name"
    [[ "$name" == kafka ]] && probe=probe_kafka_port
    if "$probe"; then
      printf '%-10s up        %s pid %s\n' "$name" "$(svc_address "$name")" "$pid"
      return 0
    fi
    printf '%-10s starting  %s pid %s (not answering yet)\n' "$name" "$(svc_address "$name")" "$pid"
    return 1
  fi
  printf '%-10s down      %s\n' "$name" "$(svc_address "$name")"
  return 1
}

print_env() {
  echo "export SPECWATCH_BOOTSTRAP=127.0.0.1:$KAFKA_PORT"
  echo "export SPECWATCH_REGISTRY_URL=http://127.0.0.1:$REGISTRY_PORT/apis/ccompat/v7"
  echo "export SPECWATCH_CLICKHOUSE_URL=http://127.0.0.1:$CLICKHOUSE_HTTP_PORT"
}

kafka_tool() {
  (($# >= 1)) || die "usage: services.sh kafka-tool <MainClass> [args...]"
  local kafka_home
  kafka_home="$(fetch_kafka_jars)"
  exec "$JAVA" -Xmx512m "${QUICK_JVM[@]}" -Dlog4j2.configurationFile="$kafka_home/config/tools-log4j2.yaml" \
    -cp "$kafka_home/lib/*" "$@"
}

topics_create() {
  (($# >= 1 && $# <= 3)) || die "usage: services.sh topics-create <topic> [partitions] [compact|append-time]"
  local topic="$1" partitions="${2:-1}" compact="${3:-}"
  [[ "$topic" =~ ^[A-Za-z0-9._-]+$ ]] || die "topics-create: invalid topic name '$topic'"
  [[ "$partitions" =~ ^[1-9][0-9]*$ ]] || die "topics-create: partitions must be a positive integer, got '$partitions'"
  local extra=()
  case "$compact" in
    "") ;;
    compact) extra=(--config cleanup.policy=compact) ;;
    # records stamped with old event times (replays) would be deleted by time retention at once:
    # result topics keep the broker's append time instead (docs/DESIGN.md)
    append-time) extra=(--config message.timestamp.type=LogAppendTime) ;;
    *) die "topics-create: third argument must be 'compact' or 'append-time', got '$compact'" ;;
  esac
  kafka_tool org.apache.kafka.tools.TopicCommand --bootstrap-server "${SPECWATCH_BOOTSTRAP:-127.0.0.1:$KAFKA_PORT}" \
    --create --if-not-exists --topic "$topic" --partitions "$partitions" --replication-factor 1 "${extra[@]}"
}

check_service_names() {
  local name
  for name in "$@"; do
    case "$name" in
      kafka | registry | clickhouse) ;;
      *) die "unknown service '$name' (expected: ${ALL_SERVICES[*]})" ;;
    esac
  done
}

usage() {
  sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 1
}

main() {
  (($# >= 1)) || usage
  local cmd="$1"
  shift
  local names=() name rc=0 i
  case "$cmd" in
    start | stop | status | env)
      check_service_names "$@"
      if (($# == 0)); then names=("${ALL_SERVICES[@]}"); else names=("$@"); fi
      ;;
  esac
  case "$cmd" in
    start)
      if ((${#names[@]} == 1)); then
        start_one "${names[0]}"
        return 0
      fi
      # In parallel: each JVM's start is mostly waiting and class loading. Failures print their own log tail.
      local pids=() failed=()
      for name in "${names[@]}"; do
        start_one "$name" &
        pids+=("$!")
      done
      for i in "${!names[@]}"; do
        wait "${pids[i]}" || failed+=("${names[i]}")
      done
      ((${#failed[@]} == 0)) || die "failed to start: ${failed[*]}"
      ;;
    stop)
      for ((i = ${#names[@]} - 1; i >= 0; i--)); do stop_one "${names[i]}"; done
      ;;
    status)
      for name in "${names[@]}"; do status_one "$name" || rc=1; done
      return "$rc"
      ;;
    env) print_env ;;
    topics-create) topics_create "$@" ;;
    kafka-tool) kafka_tool "$@" ;;
    -h | --help | help) usage ;;
    *) die "unknown command '$cmd' (expected start|stop|status|env|topics-create|kafka-tool)" ;;
  esac
}

main "$@"
