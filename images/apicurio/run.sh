#!/bin/bash
set -euo pipefail
cd /opt/apicurio
# C1 only, serial GC: a test registry starts faster on 2 cores. JAVA_OPTS is an option list.
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:--Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1} \
  -Dquarkus.http.host=0.0.0.0 -Dquarkus.http.port=8080 \
  -Dquarkus.management.enabled=false \
  -Dapicurio.rules.global.compatibility="${APICURIO_RULES_GLOBAL_COMPATIBILITY:-BACKWARD}" \
  -jar quarkus-run.jar
