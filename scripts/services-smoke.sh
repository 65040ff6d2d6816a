#!/usr/bin/env bash
# Smoke test of scripts/services.sh against the REAL services: starts Kafka, the registry and ClickHouse on free
# non-default ports with a private run dir (so a running demo is untouched), then asserts:
#   Kafka       topics-create; a keyed record produced and consumed back verbatim (console tools);
#               2000 records in transactions read back with read_committed (exactly-once settings work)
#   registry    register a schema through the Confluent API, read it back by subject and by id; a compatible
#               evolution is accepted; a BACKWARD-incompatible one is rejected with 409
#   ClickHouse  SELECT version() over HTTP with compress=0; a MergeTree round trip
#   ports       pick_port passes over a port that a connection holds as its local port
# then stops everything and checks that all three are down. Exits non-zero with a clear message on failure.
# Env: SPECWATCH_SMOKE_RUN_DIR (default <run dir>/smoke), SPECWATCH_SMOKE_KEEP=1 keeps it after success.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SERVICES="$SPECWATCH_HOME/scripts/services.sh"
SMOKE_RUN_DIR="${SPECWATCH_SMOKE_RUN_DIR:-$SPECWATCH_RUN_DIR/smoke}"
T_START=$SECONDS

fail() {
  log "SMOKE FAILED: $*"
  exit 1
}

private_services_traps smoke "$SMOKE_RUN_DIR" "${SPECWATCH_SMOKE_KEEP:-}"

# step DESC CMD...: runs CMD, logs its wall time.
step() {
  local desc="$1" t0=$SECONDS
  shift
  "$@"
  log "ok: $desc ($((SECONDS - t0))s)"
}

# Pick ports and a private run dir BEFORE anything runs in this environment.
USED_PORTS+="$(printf '%s ' 19092 19093 18081 18091 18123 19000)" # the defaults: leave them to a demo
export SPECWATCH_RUN_DIR="$SMOKE_RUN_DIR"
rm -rf "$SMOKE_RUN_DIR"
mkdir -p "$SMOKE_RUN_DIR"
pick_port SPECWATCH_KAFKA_PORT 29092
pick_port SPECWATCH_KAFKA_CONTROLLER_PORT 29093
pick_port SPECWATCH_REGISTRY_PORT 28081
pick_port SPECWATCH_REGISTRY_MANAGEMENT_PORT 28091
pick_port SPECWATCH_CLICKHOUSE_HTTP_PORT 28123
pick_port SPECWATCH_CLICKHOUSE_TCP_PORT 29000
export SPECWATCH_KAFKA_PORT SPECWATCH_KAFKA_CONTROLLER_PORT SPECWATCH_REGISTRY_PORT \
  SPECWATCH_REGISTRY_MANAGEMENT_PORT SPECWATCH_CLICKHOUSE_HTTP_PORT SPECWATCH_CLICKHOUSE_TCP_PORT
unset SPECWATCH_BOOTSTRAP
BOOTSTRAP="127.0.0.1:$SPECWATCH_KAFKA_PORT"
REGISTRY="http://127.0.0.1:$SPECWATCH_REGISTRY_PORT/apis/ccompat/v7"
CLICKHOUSE="http://127.0.0.1:$SPECWATCH_CLICKHOUSE_HTTP_PORT"
log "smoke: run dir $SMOKE_RUN_DIR, kafka $BOOTSTRAP, registry $REGISTRY, clickhouse $CLICKHOUSE"

start_all() {
  STARTED=1
  "$SERVICES" start
}

# ---------- Kafka ----------
kafka_roundtrip() {
  local topic="smoke-roundtrip" expected got
  "$SERVICES" topics-create "$topic" 2 >/dev/null
  "$SERVICES" topics-create "$topic" 2 >/dev/null # idempotent: must not fail the second time
  expected="deployment-1:smoke-$RANDOM-$RANDOM"
  printf '%s\n' "$expected" | "$SERVICES" kafka-tool org.apache.kafka.tools.ConsoleProducer \
    --bootstrap-server "$BOOTSTRAP" --topic "$topic" --command-property acks=all \
    --reader-property parse.key=true --reader-property key.separator=: \
    || fail "kafka: console producer failed"
  got="$("$SERVICES" kafka-tool org.apache.kafka.tools.consumer.ConsoleConsumer \
    --bootstrap-server "$BOOTSTRAP" --topic "$topic" --from-beginning --max-messages 1 --timeout-ms 60000 \
    --formatter-property print.key=true --formatter-property key.separator=: 2>/dev/null)" \
    || fail "kafka: console consumer failed or timed out"
  [[ "$got" == "$expected" ]] || fail "kafka: consumed '$got', expected '$expected'"
}

kafka_transactions() {
  local topic="smoke-transactions" n=2000 out consumer_config count
  "$SERVICES" topics-create "$topic" 1 >/dev/null
  out="$("$SERVICES" kafka-tool org.apache.kafka.tools.ProducerPerformance --topic "$topic" \
    --num-records "$n" --record-size 100 --throughput -1 \
    --transactional-id smoke-tx --transaction-duration-ms 200 \
    --producer-props bootstrap.servers="$BOOTSTRAP" acks=all 2>&1)" \
    || fail "kafka: transactional ProducerPerformance failed: $out"
  consumer_config="$SMOKE_RUN_DIR/read-committed.properties"
  printf 'isolation.level=read_committed\nauto.offset.reset=earliest\n' >"$consumer_config"
  out="$("$SERVICES" kafka-tool org.apache.kafka.tools.ConsumerPerformance --bootstrap-server "$BOOTSTRAP" \
    --topic "$topic" --num-records "$n" --timeout 60000 --command-config "$consumer_config" 2>&1)" \
    || fail "kafka: ConsumerPerformance failed: $out"
  # CSV: header line then values; find the data.consumed.in.nMsg column.
  count="$(printf '%s\n' "$out" | awk -F', *' '
    /data.consumed.in.nMsg/ { for (i = 1; i <= NF; i++) if ($i == "data.consumed.in.nMsg") col = i; next }
    col && NF >= col { print $col; exit }')"
  [[ "$count" == "$n" ]] || fail "kafka: read_committed consumer got '${count:-nothing}' of $n transactional records: $out"
}

# ---------- registry (Confluent API) ----------
json_schema_body() { # a schema JSON text -> {"schema":"<escaped>"}
  local escaped="${1//\\/\\\\}"
  printf '{"schema":"%s"}' "${escaped//\"/\\\"}"
}

registry_call() { # METHOD PATH [BODY] -> prints "<status> <body>"
  local body_file status
  body_file="$(mktemp)"
  status="$(curl -sS -o "$body_file" -w '%{http_code}' -X "$1" --max-time 30 \
    -H 'Content-Type: application/vnd.schemaregistry.v1+json' ${3:+--data "$3"} "$REGISTRY$2")" \
    || { rm -f "$body_file"; fail "registry: $1 $2: no response"; }
  printf '%s %s' "$status" "$(cat "$body_file")"
  rm -f "$body_file"
}

registry_rules() {
  local subject="smoke-value" v1 v2 v3 res id id2
  v1='{"type":"record","name":"Smoke","namespace":"io.specwatch.smoke","fields":[{"name":"id","type":"string"}]}'
  v2='{"type":"record","name":"Smoke","namespace":"io.specwatch.smoke","fields":[{"name":"id","type":"string"},{"name":"note","type":"string","default":""}]}'
  v3='{"type":"record","name":"Smoke","namespace":"io.specwatch.smoke","fields":[{"name":"id","type":"string"},{"name":"note","type":"string","default":""},{"name":"required_count","type":"int"}]}'

  res="$(registry_call POST "/subjects/$subject/versions" "$(json_schema_body "$v1")")"
  [[ "$res" =~ ^200\ .*\"id\":([0-9]+) ]] || fail "registry: register v1 answered: $res"
  id="${BASH_REMATCH[1]}"

  res="$(registry_call GET "/subjects/$subject/versions/latest")"
  [[ "$res" == 200\ * && "$res" == *'"version":1'* && "$res" == *Smoke* && "$res" == *"\"id\":$id"* ]] \
    || fail "registry: read back latest of $subject answered: $res"
  res="$(registry_call GET "/schemas/ids/$id")"
  [[ "$res" == 200\ * && "$res" == *Smoke* ]] || fail "registry: read back schema id $id answered: $res"

  res="$(registry_call POST "/subjects/$subject/versions" "$(json_schema_body "$v2")")"
  [[ "$res" =~ ^200\ .*\"id\":([0-9]+) ]] || fail "registry: compatible v2 (field with default) answered: $res"
  id2="${BASH_REMATCH[1]}"
  [[ "$id2" != "$id" ]] || fail "registry: v2 got the same id $id as v1"

  res="$(registry_call POST "/compatibility/subjects/$subject/versions/latest" "$(json_schema_body "$v3")")"
  [[ "$res" == 200\ * && "$res" == *'"is_compatible":false'* ]] \
    || fail "registry: compatibility check of v3 (new field without default) answered: $res"
  res="$(registry_call POST "/subjects/$subject/versions" "$(json_schema_body "$v3")")"
  [[ "$res" == 409\ * ]] || fail "registry: BACKWARD-incompatible v3 must be rejected with 409, answered: $res"
}

# ---------- ClickHouse (HTTP, compression off: compress=1 silently returns empty bodies on 18.16) ----------
ch_query() {
  curl -sS --fail-with-body --max-time 30 "$CLICKHOUSE/?compress=0&enable_http_compression=0" --data-binary "$1" \
    || fail "clickhouse: query failed: $1"
}

clickhouse_sql() {
  local version count
  version="$(ch_query 'SELECT version()')"
  [[ "$version" =~ ^[0-9]+\.[0-9]+ ]] || fail "clickhouse: SELECT version() returned '$version'"
  log "clickhouse version $version"
  ch_query 'CREATE DATABASE IF NOT EXISTS smoke' >/dev/null
  ch_query 'CREATE TABLE smoke.t (id UInt32, name String) ENGINE = MergeTree ORDER BY id' >/dev/null
  ch_query "INSERT INTO smoke.t VALUES (1, 'a'), (2, 'b'), (3, 'c')" >/dev/null
  count="$(ch_query 'SELECT count(), sum(id) FROM smoke.t')"
  [[ "$count" == $'3\t6' ]] || fail "clickhouse: expected '3<TAB>6' from the round trip, got '$count'"
}

# A port that a connection holds as its local port accepts nothing, yet a server cannot bind it
# (ClickHouse exits on "Address already in use"): pick_port must pass over it, not only listeners.
port_pick_skips_held() {
  local fd lport picked
  exec {fd}<>"/dev/tcp/127.0.0.1/$SPECWATCH_KAFKA_PORT"
  lport="$(ss -Htanp "( dport = :$SPECWATCH_KAFKA_PORT )" | grep -F "pid=$$," | awk '{print $4}' \
    | sed 's/.*://' | head -1 || true)"
  [[ "$lport" =~ ^[0-9]+$ ]] \
    || fail "ports: no local port found for this shell's connection to Kafka (ss -tanp)"
  port_open "$lport" && fail "ports: $lport, a connection's local port, unexpectedly accepts connections"
  port_taken "$lport" || fail "ports: port_taken misses $lport, held by a connection"
  pick_port picked "$lport"
  [[ "$picked" != "$lport" ]] || fail "ports: pick_port handed out $lport, held by a connection"
  exec {fd}>&-
}

stop_and_check_down() {
  "$SERVICES" stop
  STARTED=""
  local status
  if status="$("$SERVICES" status)"; then
    fail "status still reports services up after stop: $status"
  fi
  [[ "$(grep -c ' down ' <<<"$status")" == 3 ]] || fail "expected all three down after stop, got: $status"
  local port
  for port in "$SPECWATCH_KAFKA_PORT" "$SPECWATCH_REGISTRY_PORT" "$SPECWATCH_CLICKHOUSE_HTTP_PORT" \
    "$SPECWATCH_CLICKHOUSE_TCP_PORT"; do
    port_open "$port" && fail "port $port still accepts connections after stop"
  done
  "$SERVICES" stop >/dev/null 2>&1 || fail "a second stop (no-op) failed"
}

step "start kafka, registry, clickhouse" start_all
step "start again is a no-op" "$SERVICES" start
step "kafka produce+consume round trip" kafka_roundtrip
step "kafka transactions read_committed" kafka_transactions
step "registry register/read back/BACKWARD 409" registry_rules
step "clickhouse SELECT version() and MergeTree round trip" clickhouse_sql
step "pick_port passes over a port held by a connection" port_pick_skips_held
step "stop all, all down" stop_and_check_down
log "SMOKE PASSED in $((SECONDS - T_START))s"
