#!/usr/bin/env bash
# Builds the Temporal CLI (which embeds the dev server) once from its Go module and prints its path.
# The binary is cached outside the repo; rerunning is a no-op when it already exists.
# Override the location with TEMPORAL_CLI_DIR (default: $CHAIN_INFRA_CACHE, ~/.cache/chain-infra, like the node builds). Pure Go (CGO_ENABLED=0, SQLite via modernc.org/sqlite).
set -euo pipefail
VERSION="v1.5.1"
DIR="${TEMPORAL_CLI_DIR:-${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}/temporal-$VERSION}"
BIN="$DIR/temporal"
if [ ! -x "$BIN" ]; then
  command -v go >/dev/null 2>&1 || { echo "install-temporal: 'go' is required to build the Temporal CLI $VERSION" >&2; exit 1; }
  mkdir -p "$DIR"
  echo "install-temporal: building github.com/temporalio/cli/cmd/temporal@$VERSION into $DIR (one-off, a few minutes)" >&2
  # v1.6.0..v1.8.2 cannot be go-installed (replace directive); v1.5.1 bundles server v1.29.
  # the Go module and build caches the node builds share (devnet/minievm/build.sh)
  cache="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}/go"
  CGO_ENABLED=0 GOBIN="$DIR" GOMODCACHE="$cache/mod" GOCACHE="$cache/build-cache" \
    go install "github.com/temporalio/cli/cmd/temporal@$VERSION" >&2
fi
echo "$BIN"
