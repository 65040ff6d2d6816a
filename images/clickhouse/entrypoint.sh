#!/bin/bash
# Like the official image: CLICKHOUSE_USER (default "default") with CLICKHOUSE_PASSWORD gets network access;
# CLICKHOUSE_DB is created once the server answers.
set -euo pipefail
CH_USER=${CLICKHOUSE_USER:-default}
CH_PASSWORD=${CLICKHOUSE_PASSWORD:-}
CH_DB=${CLICKHOUSE_DB:-}
mkdir -p /etc/clickhouse-server/users.d /var/lib/clickhouse /var/log/clickhouse-server
if [[ "$CH_USER" != default || -n "$CH_PASSWORD" ]]; then
  cat >/etc/clickhouse-server/users.d/specwatch-user.xml <<XML
<yandex>
  <users>
    <${CH_USER}>
      <password>${CH_PASSWORD}</password>
      <networks><ip>::/0</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </${CH_USER}>
  </users>
</yandex>
XML
fi
chown -R clickhouse:clickhouse /var/lib/clickhouse /var/log/clickhouse-server 2>/dev/null || true

if [[ $# -gt 0 ]]; then exec "$@"; fi

clickhouse-server --config-file=/etc/clickhouse-server/config.xml &
pid=$!
trap 'kill -TERM $pid; wait $pid' TERM INT
if [[ -n "$CH_DB" && "$CH_DB" != default ]]; then
  for _ in $(seq 1 100); do
    clickhouse-client --user "$CH_USER" --password "$CH_PASSWORD" -q "SELECT 1" >/dev/null 2>&1 && break
    sleep 0.2
  done
  clickhouse-client --user "$CH_USER" --password "$CH_PASSWORD" -q "CREATE DATABASE IF NOT EXISTS \`$CH_DB\`"
fi
wait $pid
