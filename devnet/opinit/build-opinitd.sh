#!/usr/bin/env bash
# Builds opinitd (initia-labs/opinit-bots v1.0.16, the OPinit executor/challenger bots) once into
# $CHAIN_INFRA_CACHE/opinitd-v1.0.16/ and prints the binary's path on stdout. Idempotent: exits at once when the
# cached binary runs.
#
# Source: the module proxy first; it refuses this module (403) today, so the git archive of the tag,
# OPINIT_BOTS_SOURCE_ARCHIVE (default ../shared/vendor/opinit-bots-v1.0.16.tar.gz beside the repo). Every
# dependency comes from the module proxy. Steps, caches and exit codes: build-lib.sh.
set -euo pipefail
TAG=opinitd-build
MODULE=github.com/initia-labs/opinit-bots
VERSION="${OPINIT_BOTS_VERSION:-v1.0.16}"
ARCHIVE_NAME="opinit-bots-$VERSION.tar.gz"
ARCHIVE_SHA=f107a4f6b99c47503792c481ae8d876340aa53d1131da28bd5306b6b15043a5c
ARCHIVE_VAR=OPINIT_BOTS_SOURCE_ARCHIVE
BIN_NAME=opinitd
# shellcheck source=build-lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/build-lib.sh"

build_prepare
fetch_source
cd "$SRC"
run_step 2 go mod download
# As upstream's Makefile (`make build`: tags netgo, version ldflags, stripped), plus -trimpath so the build
# cache hits do not depend on this tree's path. Commit from the tag, no git here.
ldflags="-X github.com/initia-labs/opinit-bots/version.Version=$VERSION \
-X github.com/initia-labs/opinit-bots/version.GitCommit=${OPINIT_BOTS_COMMIT:-b95ae3ba7878d393c57349e6a69a42e884880c37} -w -s"
say "building opinitd (nice 19, GOCACHE=$GOCACHE); cold: a few minutes, warm: seconds"
run_step 5 nice -n 19 go build -mod=readonly -tags netgo -trimpath -ldflags "$ldflags" -o "$BIN.tmp" ./cmd/opinitd
build_done
