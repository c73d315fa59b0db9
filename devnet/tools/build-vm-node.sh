#!/usr/bin/env bash
# Builds minitiad for a Move or Wasm rollup (initia-labs/minimove, initia-labs/miniwasm) once into a cache
# outside the repo, and prints the binary's path on stdout. Idempotent: exits at once when the binary already
# exists and runs. Called by devnet/minimove/build.sh and devnet/miniwasm/build.sh.
#
#   build-vm-node.sh <minimove|miniwasm> <version>
#
# Source: the module proxy first (`go mod download github.com/initia-labs/<flavor>@<version>`); when the proxy
# refuses the app module (it answers 403 here, as it does for minievm), the `git archive` of the tag:
# <FLAVOR>_SOURCE_ARCHIVE, default ../shared/vendor/<flavor>-<version>.tar.gz beside the repo. One line on stderr
# says which source was used. Every dependency comes from the module proxy.
#
# The Go module and build caches are the ones devnet/minievm/build.sh fills ($CHAIN_INFRA_CACHE/go): about
# 1,250 of each app's ~1,400 packages are the same path@version as minievm's, so they compile once for all three.
#
# The VM is a prebuilt native library inside a Go module zip (movevm: libmovevm + libcompiler; wasmvm:
# libwasmvm). The binary looks for it at the module cache's absolute path, so it is copied beside minitiad;
# run the binary with LD_LIBRARY_PATH=<its folder>, as upstream's Linux release job does.
#
# Exit codes: 0 built/cached, 2 blocked (no usable source), 4 Go missing or too old, 5 go build failed,
# 6 gcc (cgo) missing. On failure the exact command and its error go to stderr.
set -euo pipefail

FLAVOR="${1:?usage: build-vm-node.sh <minimove|miniwasm> <version>}"
VERSION="${2:?usage: build-vm-node.sh <minimove|miniwasm> <version>}"
MIN_GO="1.23.6"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_ROOT="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}"
OUT_DIR="$CACHE_ROOT/$FLAVOR-$VERSION"
BIN="$OUT_DIR/minitiad"
LOG="$OUT_DIR/build.log"

say() { echo "[$FLAVOR-build] $*" >&2; }

case "$FLAVOR" in
  minimove) VM_MODULE=github.com/initia-labs/movevm; VM_LIBS=(api/libmovevm.x86_64.so api/libcompiler.x86_64.so) ;;
  miniwasm) VM_MODULE=github.com/CosmWasm/wasmvm/v2; VM_LIBS=(internal/api/libwasmvm.x86_64.so) ;;
  *) say "unknown flavor $FLAVOR (minimove or miniwasm)"; exit 2 ;;
esac

# miniwasm's binary leaves a temporary directory (a wasm cache) behind at every invocation: this check's goes with it.
runs() {
  [[ -x "$BIN" ]] || return 1
  local tmp rc=0
  tmp="$(mktemp -d)"
  LD_LIBRARY_PATH="$OUT_DIR" TMPDIR="$tmp" "$BIN" version >/dev/null 2>&1 || rc=$?
  rm -rf "$tmp"
  return "$rc"
}

if runs; then
  say "source: cached binary $BIN ($(cat "$OUT_DIR/source" 2>/dev/null || echo unknown source))"
  echo "$BIN"
  exit 0
fi
mkdir -p "$OUT_DIR"
# One build at a time per cache (parallel test runs share it); the winner's binary serves the others.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$OUT_DIR/.build.lock"
  flock 9
  if runs; then
    say "source: cached binary $BIN (built by a concurrent run: $(cat "$OUT_DIR/source" 2>/dev/null || echo unknown source))"
    echo "$BIN"
    exit 0
  fi
fi
: >"$LOG"
export GOMODCACHE="${MINIEVM_GOMODCACHE:-$CACHE_ROOT/go/mod}"
export GOCACHE="${MINIEVM_GOCACHE:-$CACHE_ROOT/go/build-cache}"
export GOWORK=off GOTOOLCHAIN=local GO111MODULE=on CGO_ENABLED=1
mkdir -p "$GOMODCACHE" "$GOCACHE"
command -v gcc >/dev/null 2>&1 || { say "MISSING: gcc (cgo is required by $FLAVOR); install gcc"; exit 6; }
command -v go >/dev/null 2>&1 || { say "MISSING: go (>= $MIN_GO) on PATH"; exit 4; }
go_version="$(go env GOVERSION | sed 's/^go//')"
if [[ "$(printf '%s\n%s\n' "$MIN_GO" "$go_version" | sort -V | head -n1)" != "$MIN_GO" ]]; then
  say "Go $go_version is older than $MIN_GO, which $FLAVOR $VERSION needs"
  exit 4
fi

# Run a step, keeping its full output in the log; on failure replay the command and its error.
run_step() {
  local code="$1"; shift
  echo "+ $*" >>"$LOG"
  if ! "$@" >>"$LOG" 2>&1; then
    say "FAILED (exit $code): $*"
    say "----- last lines of $LOG -----"
    tail -n 25 "$LOG" >&2
    exit "$code"
  fi
}

SRC="$OUT_DIR/src"
# 1. The app source: the module proxy's zip, else the archive of the tag.
say "downloading github.com/initia-labs/$FLAVOR@$VERSION from the module proxy (log: $LOG)"
dl_json="$OUT_DIR/download.json"
if (cd "$OUT_DIR" && GOFLAGS=-mod=mod go mod download -json "github.com/initia-labs/$FLAVOR@$VERSION") >"$dl_json" 2>>"$LOG" \
  && [[ -z "$(jq -r '.Error // empty' "$dl_json")" ]]; then
  say "source: module proxy (github.com/initia-labs/$FLAVOR@$VERSION)"
  echo "module proxy github.com/initia-labs/$FLAVOR@$VERSION" >"$OUT_DIR/source"
  stamp="proxy $VERSION"
  if [[ ! -f "$SRC/.extracted" ]] || [[ "$(cat "$SRC/.extracted")" != "$stamp" ]]; then
    rm -rf "$SRC"; mkdir -p "$SRC"
    run_step 2 cp -r "$(jq -r '.Dir' "$dl_json")/." "$SRC/"
    chmod -R u+w "$SRC"
    echo "$stamp" >"$SRC/.extracted"
  fi
else
  say "module proxy refused github.com/initia-labs/$FLAVOR@$VERSION (GOPROXY=$(go env GOPROXY)): $(jq -r '.Error // empty' "$dl_json" 2>/dev/null | head -c 200)"
  var="$(echo "$FLAVOR" | tr '[:lower:]' '[:upper:]')_SOURCE_ARCHIVE"
  default_archive="$(cd "$HERE/../.." && pwd)/../shared/vendor/$FLAVOR-$VERSION.tar.gz"
  archive="${!var:-$default_archive}"
  if [[ ! -f "$archive" ]]; then
    say "BLOCKED: the module proxy refuses $FLAVOR and no source archive at $archive"
    say "  set $var=/path/to/$FLAVOR-$VERSION.tar.gz (git archive of the tag, top folder $FLAVOR-$VERSION/)"
    exit 2
  fi
  archive="$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")"
  say "source: archive $archive"
  echo "archive $archive" >"$OUT_DIR/source"
  # Extract once; the same path keeps build-cache hits (-trimpath) on rebuilds.
  stamp="$(stat -c '%s %Y' "$archive") $archive"
  if [[ ! -f "$SRC/.extracted" ]] || [[ "$(cat "$SRC/.extracted")" != "$stamp" ]]; then
    rm -rf "$SRC"; mkdir -p "$SRC"
    run_step 2 tar -xzf "$archive" --strip-components=1 -C "$SRC"
    echo "$stamp" >"$SRC/.extracted"
  fi
fi
cd "$SRC"
export GOFLAGS="-buildvcs=false -p=${GO_BUILD_PARALLEL:-2}"
mod_flag=-mod=readonly
if [[ "$FLAVOR" == miniwasm ]]; then
  # bytedance/sonic v1.14.0 does not compile on Go >= 1.26 (`undefined: GoMapIterator` in its loader); v1.15.5
  # does, with the same API. `-mod=mod` lets Go move sonic/loader to the version v1.15.5 requires.
  run_step 2 go mod edit -replace github.com/bytedance/sonic=github.com/bytedance/sonic@v1.15.5
  mod_flag=-mod=mod
fi
run_step 2 go mod download
# The archive lacks one generated file (the swagger-UI bundle); regenerate it with the statik its go.mod pins.
if [[ ! -f client/docs/statik/statik.go ]]; then
  run_step 2 nice -n 19 go build "$mod_flag" -o "$OUT_DIR/statik" github.com/rakyll/statik
  run_step 5 "$OUT_DIR/statik" -src=client/docs/swagger-ui -dest=client/docs -f -m
fi
tm="$(go list "$mod_flag" -m github.com/cometbft/cometbft | sed 's:.* ::')"
ldflags="-X github.com/cosmos/cosmos-sdk/version.Name=$FLAVOR \
-X github.com/cosmos/cosmos-sdk/version.AppName=minitiad \
-X github.com/cosmos/cosmos-sdk/version.Version=$VERSION \
-X github.com/cosmos/cosmos-sdk/version.BuildTags=netgo,ledger \
-X github.com/cometbft/cometbft/version.TMCoreSemVer=$tm -w -s"
say "building minitiad (nice 19, GOCACHE=$GOCACHE); cold: several minutes, warm: seconds"
run_step 5 nice -n 19 go build "$mod_flag" -tags "netgo ledger" -trimpath -ldflags "$ldflags" -o "$BIN.tmp" ./cmd/minitiad
vm_dir="$(go list "$mod_flag" -m -f '{{.Dir}}' "$VM_MODULE")"
for lib in "${VM_LIBS[@]}"; do
  run_step 2 cp "$vm_dir/$lib" "$OUT_DIR/"
  chmod u+w "$OUT_DIR/$(basename "$lib")"
done
mv "$BIN.tmp" "$BIN"
runs || { say "FAILED (exit 5): $BIN version (with LD_LIBRARY_PATH=$OUT_DIR)"; LD_LIBRARY_PATH="$OUT_DIR" "$BIN" version >&2 || true; exit 5; }
say "built $BIN"
echo "$BIN"
