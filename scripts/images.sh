#!/usr/bin/env bash
# Container images for the Testcontainers integration tests.
#
#   scripts/images.sh build   official images when they can be pulled, else local substitutes built here;
#                             writes $SPECWATCH_RUN_DIR/images.env (printed by scripts/docker.sh env)
#   scripts/images.sh list    show the specwatch images in the engine
#
# Local substitutes (inputs in images/<name>/), each skipped when the tag exists with the same inputs:
#   specwatch/base:bookworm-jre17     debootstrap minbase bookworm + openjdk-17-jre-headless, curl, ca-certificates
#   specwatch/kafka:4.4.0-local       Kafka 4.4.0 jars, /etc/kafka/docker/run honouring the apache/kafka contract
#   specwatch/clickhouse:18.16-local  Debian clickhouse-server 18.16, entrypoint like the official image
#   specwatch/apicurio:3.0.9-local    Apicurio Registry 3.0.9, BACKWARD global compatibility by default
# SPECWATCH_IMAGE_MODE=local skips the pull attempt; =official fails when the official images cannot be pulled.
set -euo pipefail
SPECWATCH_HOME="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export SPECWATCH_HOME
# shellcheck source=lib.sh
source "$SPECWATCH_HOME/scripts/lib.sh"

OFFICIAL_KAFKA=apache/kafka:4.1.0
OFFICIAL_CLICKHOUSE=clickhouse/clickhouse-server:25.8
OFFICIAL_REGISTRY=apicurio/apicurio-registry:3.0.9
BASE_IMAGE=specwatch/base:bookworm-jre17
LOCAL_KAFKA=specwatch/kafka:4.4.0-local
LOCAL_CLICKHOUSE=specwatch/clickhouse:18.16-local
LOCAL_REGISTRY=specwatch/apicurio:3.0.9-local

IMAGES_DIR="$SPECWATCH_HOME/images"
BUILD_DIR="$SPECWATCH_CACHE/image-build"
IMAGES_ENV="$SPECWATCH_RUN_DIR/images.env"
PROBE_TIMEOUT=${SPECWATCH_PULL_PROBE_TIMEOUT:-20}
PULL_TIMEOUT=${SPECWATCH_PULL_TIMEOUT:-600}
export DOCKER_BUILDKIT=0 # the classic builder: no buildx plugin needed

timed() { # timed LABEL CMD...: run CMD, log its duration
  local label=$1 t=$SECONDS
  shift
  "$@"
  log "$label: $((SECONDS - t))s"
}

logged() { # logged LOGFILE CMD...: run CMD with its output in LOGFILE; on failure show the tail, return 1
  local logfile=$1
  shift
  if ! "$@" >"$logfile" 2>&1; then
    tail -n 30 "$logfile" >&2
    return 1
  fi
}

image_exists() { docker image inspect "$1" >/dev/null 2>&1; }

# Hash of an image's inputs (its images/<name>/ files plus extra words), stored as a label: a changed input
# rebuilds the image, an unchanged one is reused across clones (the data root lives in the cache).
inputs_hash() {
  local dir=$1
  shift
  { (cd "$dir" && find . -type f -print0 | sort -z | xargs -0 sha256sum); echo "$*"; } | sha256sum | cut -c1-16
}

up_to_date() { # up_to_date TAG HASH
  image_exists "$1" || return 1
  [[ "$(docker image inspect --format '{{ index .Config.Labels "specwatch.inputs" }}' "$1" 2>/dev/null)" == "$2" ]]
}

debian_mirror() { # the Debian mirror apt already uses, for the bookworm suite
  local uri
  uri=$(awk '
    /^URIs:/ { uris = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") found = uris }
    /^$/ { uris = "" } END { if (found != "") print found }' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  if [[ -z "$uri" ]]; then
    uri=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list \
      /etc/apt/sources.list.d/*.list 2>/dev/null || true)
  fi
  echo "${uri:-http://deb.debian.org/debian}"
}

try_official() {
  local img
  # Reachability first, with a short timeout (no hang where no registry is reachable); then pull for real.
  if ! image_exists "$OFFICIAL_KAFKA" \
    && ! timeout "$PROBE_TIMEOUT" docker manifest inspect "$OFFICIAL_KAFKA" >/dev/null 2>&1; then
    log "official images not reachable (docker manifest inspect $OFFICIAL_KAFKA): building local substitutes"
    return 1
  fi
  for img in "$OFFICIAL_KAFKA" "$OFFICIAL_CLICKHOUSE" "$OFFICIAL_REGISTRY"; do
    image_exists "$img" && continue
    log "docker pull $img (timeout ${PULL_TIMEOUT}s)"
    if ! timed "pull $img" timeout "$PULL_TIMEOUT" docker pull -q "$img" >/dev/null; then
      log "cannot pull $img: building local substitutes"
      return 1
    fi
  done
}

build_base() {
  local hash
  hash=$(inputs_hash "$IMAGES_DIR/base" "$(debian_mirror)")
  if up_to_date "$BASE_IMAGE" "$hash"; then
    log "$BASE_IMAGE is up to date"
    return 0
  fi
  ensure_apt debootstrap
  local rootfs="$BUILD_DIR/base-rootfs" mirror packages
  mirror=$(debian_mirror)
  packages=$(grep -v '^#' "$IMAGES_DIR/base/packages.txt" | xargs)
  rm -rf "$rootfs" && mkdir -p "$rootfs"
  log "debootstrap minbase bookworm from $mirror"
  timed "debootstrap" logged "$BUILD_DIR/debootstrap.log" \
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" \
    || die "debootstrap failed (log: $BUILD_DIR/debootstrap.log)"
  cp -f /etc/resolv.conf "$rootfs/etc/resolv.conf"
  mount -t proc proc "$rootfs/proc"
  # shellcheck disable=SC2064
  trap "umount '$rootfs/proc' 2>/dev/null || true" EXIT
  log "installing into the rootfs: $packages"
  timed "apt-get install in rootfs" logged "$BUILD_DIR/base-apt.log" chroot "$rootfs" /bin/sh -c \
    "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    $packages && apt-get clean && rm -rf /var/lib/apt/lists/*" \
    || die "package install in the base rootfs failed (log: $BUILD_DIR/base-apt.log)"
  umount "$rootfs/proc"
  trap - EXIT
  : >"$rootfs/etc/resolv.conf"
  local java_home
  java_home=$(find "$rootfs/usr/lib/jvm" -maxdepth 1 -type d -name 'java-17-openjdk-*' -printf '%f\n' | head -n1)
  [[ -n "$java_home" ]] || die "no JRE 17 in the base rootfs"
  timed "docker import $BASE_IMAGE" sh -c "tar --numeric-owner -C '$rootfs' -c . | docker import \
    --change 'ENV JAVA_HOME=/usr/lib/jvm/$java_home' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'LABEL specwatch.inputs=$hash' \
    --change 'CMD [\"/bin/bash\"]' - '$BASE_IMAGE' >/dev/null"
  rm -rf "$rootfs"
}

# build_from_dockerfile NAME TAG HASH: images/NAME/ plus whatever the caller put in $BUILD_DIR/NAME/
build_from_dockerfile() {
  local name=$1 tag=$2 hash=$3 ctx="$BUILD_DIR/$1"
  mkdir -p "$ctx"
  cp -a "$IMAGES_DIR/$name/." "$ctx/"
  timed "docker build $tag" logged "$BUILD_DIR/$name-build.log" docker build --build-arg "BASE=$BASE_IMAGE" \
    --label "specwatch.inputs=$hash" -t "$tag" "$ctx" \
    || die "docker build of $tag failed (log: $BUILD_DIR/$name-build.log)"
  rm -rf "$ctx"
}

build_kafka() {
  local kafka_dir hash
  kafka_dir=$(fetch_kafka_jars)
  hash=$(inputs_hash "$IMAGES_DIR/kafka" "$(ls "$kafka_dir/lib")" "$(docker image inspect --format '{{.Id}}' "$BASE_IMAGE")")
  if up_to_date "$LOCAL_KAFKA" "$hash"; then log "$LOCAL_KAFKA is up to date" && return 0; fi
  rm -rf "$BUILD_DIR/kafka" && mkdir -p "$BUILD_DIR/kafka/lib"
  cp -l "$kafka_dir"/lib/*.jar "$BUILD_DIR/kafka/lib/" 2>/dev/null || cp "$kafka_dir"/lib/*.jar "$BUILD_DIR/kafka/lib/"
  build_from_dockerfile kafka "$LOCAL_KAFKA" "$hash"
}

build_clickhouse() {
  local hash
  hash=$(inputs_hash "$IMAGES_DIR/clickhouse" "$(docker image inspect --format '{{.Id}}' "$BASE_IMAGE")")
  if up_to_date "$LOCAL_CLICKHOUSE" "$hash"; then log "$LOCAL_CLICKHOUSE is up to date" && return 0; fi
  rm -rf "$BUILD_DIR/clickhouse"
  build_from_dockerfile clickhouse "$LOCAL_CLICKHOUSE" "$hash"
}

build_registry() {
  local app_dir hash
  app_dir=$(fetch_apicurio)
  hash=$(inputs_hash "$IMAGES_DIR/apicurio" "$app_dir" "$(docker image inspect --format '{{.Id}}' "$BASE_IMAGE")")
  if up_to_date "$LOCAL_REGISTRY" "$hash"; then log "$LOCAL_REGISTRY is up to date" && return 0; fi
  rm -rf "$BUILD_DIR/apicurio" && mkdir -p "$BUILD_DIR/apicurio/app"
  cp -a "$app_dir/." "$BUILD_DIR/apicurio/app/"
  build_from_dockerfile apicurio "$LOCAL_REGISTRY" "$hash"
}

write_env() { # write_env MODE KAFKA CLICKHOUSE REGISTRY
  mkdir -p "$SPECWATCH_RUN_DIR"
  local tmp="$IMAGES_ENV.tmp.$$"
  {
    echo "SPECWATCH_IMAGE_MODE=$1"
    echo "SPECWATCH_KAFKA_IMAGE=$2"
    echo "SPECWATCH_CLICKHOUSE_IMAGE=$3"
    echo "SPECWATCH_REGISTRY_IMAGE=$4"
  } >"$tmp"
  mv "$tmp" "$IMAGES_ENV"
  log "images ($1): kafka $2, clickhouse $3, registry $4 (written to $IMAGES_ENV)"
}

cmd_build() {
  local t0=$SECONDS
  "$SPECWATCH_HOME/scripts/docker.sh" up
  eval "$("$SPECWATCH_HOME/scripts/docker.sh" env | grep '^export DOCKER_HOST=')"
  mkdir -p "$BUILD_DIR"
  # One build at a time per cache (several clones share the engine's data root).
  local lock_fd
  exec {lock_fd}>"$SPECWATCH_CACHE/.images.lock"
  flock "$lock_fd"
  local mode=${SPECWATCH_IMAGE_MODE:-auto}
  if [[ "$mode" != local ]] && try_official; then
    write_env official "$OFFICIAL_KAFKA" "$OFFICIAL_CLICKHOUSE" "$OFFICIAL_REGISTRY"
  else
    [[ "$mode" == official ]] && die "SPECWATCH_IMAGE_MODE=official but the official images cannot be pulled"
    timed "base image" build_base
    timed "kafka image" build_kafka
    timed "clickhouse image" build_clickhouse
    timed "registry image" build_registry
    write_env local "$LOCAL_KAFKA" "$LOCAL_CLICKHOUSE" "$LOCAL_REGISTRY"
    # earlier builds of our tags, now untagged (images still used by a container are kept)
    docker image prune -f --filter label=specwatch.inputs >/dev/null || true
  fi
  exec {lock_fd}>&-
  log "images ready in $((SECONDS - t0))s"
}

case "${1:-}" in
  build) cmd_build ;;
  list)
    eval "$("$SPECWATCH_HOME/scripts/docker.sh" env | grep '^export DOCKER_HOST=')"
    docker image ls --filter 'reference=specwatch/*' ;;
  *) die "usage: scripts/images.sh build|list" ;;
esac
