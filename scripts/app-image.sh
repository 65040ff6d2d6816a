#!/usr/bin/env bash
# The apps' container image (images/app/), the one the Helm chart runs.
#
#   scripts/app-image.sh build   mvn package (tests skipped), then docker build specwatch/app:0.1.0
#   scripts/app-image.sh tag     print the image tag
#
# SPECWATCH_APP_BASE_IMAGE: the JRE 17 base. Default: the locally built specwatch/base:bookworm-jre17
# (scripts/images.sh build makes it) where it exists, else the Dockerfile's pinned eclipse-temurin image.
# SPECWATCH_APP_IMAGE overrides the tag (default specwatch/app:<chart appVersion>).
set -euo pipefail
SPECWATCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SPECWATCH_HOME
# shellcheck source=lib.sh
source "$SPECWATCH_HOME/scripts/lib.sh"

MAVEN_VERSION=0.1.0-SNAPSHOT
APP_VERSION=$(awk -F'"' '/^appVersion:/ {print $2}' "$SPECWATCH_HOME/helm/specwatch/Chart.yaml")
IMAGE=${SPECWATCH_APP_IMAGE:-specwatch/app:$APP_VERSION}
LOCAL_BASE=specwatch/base:bookworm-jre17
MODULES=(ingest streams-app sinks)
export DOCKER_BUILDKIT=0 # the classic builder: no buildx plugin needed

cmd_build() {
  local t0=$SECONDS
  # the engine the tests use (the machine's own, else the private dockerd scripts/docker.sh starts)
  "$SPECWATCH_HOME/scripts/docker.sh" up
  eval "$("$SPECWATCH_HOME/scripts/docker.sh" env | grep '^export DOCKER_HOST=')"
  log "app image: mvn package (tests skipped)"
  (cd "$SPECWATCH_HOME" && mvn -B -q -DskipTests -Dspotless.check.skip=true -Djacoco.skip=true \
    -pl "$(IFS=,; echo "${MODULES[*]}")" -am package) || die "mvn package failed"
  local ctx m jar
  ctx=$(mktemp -d "${TMPDIR:-/tmp}/specwatch-app-image.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$ctx'" EXIT
  cp -a "$SPECWATCH_HOME/images/app/." "$ctx/"
  for m in "${MODULES[@]}"; do
    jar="$SPECWATCH_HOME/$m/target/specwatch-$m-$MAVEN_VERSION.jar"
    [[ -f "$jar" && -d "$SPECWATCH_HOME/$m/target/lib" ]] || die "missing $jar or its target/lib/"
    mkdir -p "$ctx/opt/$m/lib"
    cp "$jar" "$ctx/opt/$m/"
    cp "$SPECWATCH_HOME/$m/target/lib/"*.jar "$ctx/opt/$m/lib/"
  done
  local base_args=()
  if [[ -n "${SPECWATCH_APP_BASE_IMAGE:-}" ]]; then
    base_args=(--build-arg "BASE_IMAGE=$SPECWATCH_APP_BASE_IMAGE")
  elif docker image inspect "$LOCAL_BASE" >/dev/null 2>&1; then
    base_args=(--build-arg "BASE_IMAGE=$LOCAL_BASE")
  fi
  log "app image: docker build $IMAGE ${base_args[*]:-(pinned eclipse-temurin base)}"
  docker build -q "${base_args[@]}" --build-arg "SPECWATCH_VERSION=$MAVEN_VERSION" \
    --label "org.opencontainers.image.version=$APP_VERSION" -t "$IMAGE" "$ctx" >/dev/null \
    || die "docker build of $IMAGE failed"
  log "app image: built $IMAGE in $((SECONDS - t0)) s"
}

case "${1:-}" in
  build) cmd_build ;;
  tag) echo "$IMAGE" ;;
  *) echo "usage: scripts/app-image.sh build|tag" >&2; exit 2 ;;
esac
