#!/bin/bash
set -euo pipefail
cd /opt/apicurio
# shellcheck disable=SC2086 # JAVA_OPTS is an option list
exec java ${JAVA_OPTS:--Xmx384m} \
  -Dquarkus.http.host=0.0.0.0 -Dquarkus.http.port=8080 \
  -Dquarkus.management.enabled=false \
  -Dapicurio.rules.global.compatibility="${APICURIO_RULES_GLOBAL_COMPATIBILITY:-BACKWARD}" \
  -jar quarkus-run.jar
