#!/usr/bin/env bash
# Make the container's base image without an image registry: a minimal Debian bookworm with
# python3 + venv, built by debootstrap and loaded with `docker import`.
#   deploy/base-image.sh [TAG]        (default referee-base:bookworm)
# The root file system is cached as a tarball (REFEREE_CACHE, default ~/.cache/referee), so a
# rerun only imports it (seconds); an image already in the engine is kept as it is.
set -euo pipefail
TAG=${1:-referee-base:bookworm}
CACHE=${REFEREE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/referee}
TARBALL="$CACHE/debootstrap-bookworm-python3.tar"
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

if docker image inspect "$TAG" >/dev/null 2>&1; then
  echo "base-image: $TAG is already in the engine"
  exit 0
fi
mkdir -p "$CACHE"
if [ ! -s "$TARBALL" ]; then
  root=$(mktemp -d "$CACHE/rootfs.XXXXXX")
  trap 'rm -rf "$root"' EXIT
  echo "base-image: debootstrap bookworm into $root (about 2 minutes)" >&2
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
    bookworm "$root" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap.log" >&2; exit 1; }
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  tar -C "$root" -cf "$TARBALL.part" . && mv "$TARBALL.part" "$TARBALL"
fi
docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/bash"]' "$TARBALL" "$TAG" >/dev/null
echo "base-image: imported $TAG from $TARBALL"
