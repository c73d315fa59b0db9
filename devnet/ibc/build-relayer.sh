#!/usr/bin/env bash
# Builds the Go IBC relayer (github.com/cosmos/relayer/v2, `rly`) once into a
# cache outside the repo and prints the binary's path on stdout. Idempotent:
# exits at once when the binary already exists and runs.
#
# v2.6.0 is served by the Go module proxy and its go.mod has no replace
# directives. Go caches live
# in $CHAIN_INFRA_CACHE/go (shared with devnet/minievm/build.sh), so a cached
# rebuild takes seconds. The build runs under `nice -n 19` (shared machine).
#
# Exit codes: 0 built/cached, 2 proxy refused the module, 4 Go missing, 5 go build failed (the command
# and the last lines of its log go to stderr).
set -euo pipefail

RLY_VERSION="${RLY_VERSION:-v2.6.0}"
CACHE_ROOT="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}"
OUT_DIR="$CACHE_ROOT/relayer-$RLY_VERSION"
BIN="$OUT_DIR/rly"
LOG="$OUT_DIR/build.log"

say() { echo "[relayer-build] $*" >&2; }

if [[ -x "$BIN" ]] && "$BIN" version >/dev/null 2>&1; then
  say "cached binary $BIN"
  echo "$BIN"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  say "MISSING: go on PATH (the Go relayer is built with go install)"
  exit 4
fi
mkdir -p "$OUT_DIR"
: >"$LOG"
export GOMODCACHE="${RLY_GOMODCACHE:-$CACHE_ROOT/go/mod}"
export GOCACHE="${RLY_GOCACHE:-$CACHE_ROOT/go/build-cache}"
export GOWORK=off GO111MODULE=on
mkdir -p "$GOMODCACHE" "$GOCACHE"
# `go install module@version` would work, but it also asks the proxy for the
# module's version list (deprecation check), which some proxies refuse (403).
# So: download exactly v$RLY_VERSION, copy its tree into the cache and build
# it there with its own go.mod/go.sum (-mod=readonly: the pinned graph).
say "go mod download github.com/cosmos/relayer/v2@$RLY_VERSION (log: $LOG)"
dl_json="$OUT_DIR/download.json"
if ! (cd "$OUT_DIR" && GOFLAGS=-mod=mod go mod download -json "github.com/cosmos/relayer/v2@$RLY_VERSION") >"$dl_json" 2>>"$LOG" \
  || [[ "$(jq -r '.Error // empty' "$dl_json")" != "" ]]; then
  cat "$dl_json" >>"$LOG"
  say "FAILED (exit 2): the module proxy ($(go env GOPROXY)) refused github.com/cosmos/relayer/v2@$RLY_VERSION"
  tail -n 25 "$LOG" >&2
  exit 2
fi
SRC="$OUT_DIR/src"
rm -rf "$SRC"; cp -r "$(jq -r .Dir "$dl_json")" "$SRC"; chmod -R u+w "$SRC"
cd "$SRC"
ldflags="-X github.com/cosmos/relayer/v2/cmd.Version=$RLY_VERSION"
say "building rly (nice 19); cold: several minutes, warm: seconds"
echo "+ go build -mod=readonly -trimpath -ldflags '$ldflags' -o $BIN.tmp ." >>"$LOG"
if ! GOFLAGS="-buildvcs=false -p=${GO_BUILD_PARALLEL:-2}" nice -n 19 go build -mod=readonly -trimpath -ldflags "$ldflags" -o "$BIN.tmp" . >>"$LOG" 2>&1; then
  say "FAILED (exit 5): go build of github.com/cosmos/relayer/v2@$RLY_VERSION"
  say "----- last lines of $LOG -----"
  tail -n 25 "$LOG" >&2
  exit 5
fi
mv "$BIN.tmp" "$BIN"
if ! [[ -x "$BIN" ]] || ! "$BIN" version >/dev/null 2>&1; then
  say "FAILED: no runnable binary at $BIN after go install"
  ls -la "$OUT_DIR" >&2
  exit 5
fi
say "built $BIN"
echo "$BIN"
