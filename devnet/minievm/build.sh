#!/usr/bin/env bash
# Builds minitiad (initia-labs/minievm) once into a cache outside the repo and
# prints the binary's path on stdout. Idempotent: exits at once when the binary
# already exists and runs.
#
# Why a wrapper module: `go install github.com/initia-labs/minievm/cmd/minitiad@v1.2.18`
# refuses modules whose go.mod has `replace` directives. This directory's go.mod
# requires minievm and repeats its replace block, so a plain `go build` of the
# command package inside it resolves the same module graph from the module
# proxy alone (no git, no Rust library).
#
# When the module proxy refuses minievm (it answers 403 on some networks), the
# build falls back to a source archive of the same tag: MINIEVM_SOURCE_ARCHIVE
# (default: ../shared/vendor/minievm-v1.2.18.tar.gz next to the repo). It is
# extracted into $CHAIN_INFRA_CACHE (default ~/.cache/chain-infra), never into
# the repo, and GOMODCACHE/GOCACHE are kept there so a rebuild takes seconds.
# One line on stderr says which source was used: "[minievm-build] source: ...".
#
# Exit codes: 0 built/cached, 2 blocked (proxy refused and no usable archive),
# 3 replace block drifted from upstream, 4 Go too old, 5 go build failed,
# 6 gcc (cgo) missing. On failure the exact command and its error go to stderr:
# that is the evidence a "blocked" report needs.
set -euo pipefail

MINIEVM_VERSION="${MINIEVM_VERSION:-v1.2.18}"
MIN_GO="1.23.6"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_ROOT="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}"
OUT_DIR="$CACHE_ROOT/minievm-$MINIEVM_VERSION"
BIN="$OUT_DIR/minitiad"
LOG="$OUT_DIR/build.log"

say() { echo "[minievm-build] $*" >&2; }

if [[ -x "$BIN" ]] && "$BIN" version >/dev/null 2>&1; then
  say "source: cached binary $BIN ($(cat "$OUT_DIR/source" 2>/dev/null || echo unknown source))"
  echo "$BIN"
  exit 0
fi

mkdir -p "$OUT_DIR"
# One build at a time per cache (parallel test runs share it); the winner's binary serves the others.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$OUT_DIR/.build.lock"
  flock 9
  if [[ -x "$BIN" ]] && "$BIN" version >/dev/null 2>&1; then
    say "source: cached binary $BIN (built by a concurrent run: $(cat "$OUT_DIR/source" 2>/dev/null || echo unknown source))"
    echo "$BIN"
    exit 0
  fi
fi
: >"$LOG"
# Go caches inside the chain-infra cache: a second build (or a CI cache of this
# one folder) takes seconds.
export GOMODCACHE="${MINIEVM_GOMODCACHE:-$CACHE_ROOT/go/mod}"
export GOCACHE="${MINIEVM_GOCACHE:-$CACHE_ROOT/go/build-cache}"
export GOWORK=off GOTOOLCHAIN=local GO111MODULE=on CGO_ENABLED=1
mkdir -p "$GOMODCACHE" "$GOCACHE"
if ! command -v gcc >/dev/null 2>&1; then
  say "MISSING: gcc (cgo is required by minievm: pebble, zstd, secp256k1); install gcc"
  exit 6
fi
if ! command -v go >/dev/null 2>&1; then
  say "MISSING: go (>= $MIN_GO) on PATH"
  exit 4
fi

# Run a step, keeping its full output in the log; on failure replay the command
# and its error so callers (CI, the lead) see exactly what failed.
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

go_version="$(go env GOVERSION | sed 's/^go//')"
if [[ "$(printf '%s\n%s\n' "$MIN_GO" "$go_version" | sort -V | head -n1)" != "$MIN_GO" ]]; then
  say "Go $go_version is older than $MIN_GO, which minievm $MINIEVM_VERSION needs"
  exit 4
fi

# Fallback: build from the source archive of the tag (the recipe verified in
# ../shared/vendor/README.md). Exits the script.
build_from_archive() {
  local default_archive
  default_archive="$(cd "$HERE/../.." && pwd)/../shared/vendor/minievm-$MINIEVM_VERSION.tar.gz"
  local archive="${MINIEVM_SOURCE_ARCHIVE:-$default_archive}"
  if [[ ! -f "$archive" ]]; then
    say "BLOCKED: the module proxy refuses minievm and no source archive at $archive"
    say "  set MINIEVM_SOURCE_ARCHIVE=/path/to/minievm-$MINIEVM_VERSION.tar.gz (git archive of the tag, top folder minievm-$MINIEVM_VERSION/)"
    exit 2
  fi
  archive="$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")"
  say "source: archive $archive (module proxy refused minievm)"
  echo "archive $archive" >"$OUT_DIR/source"
  local src="$OUT_DIR/archive-src" deps="$OUT_DIR/archive-deps"
  # The first proxy in Go's own configuration (GOPROXY); MINIEVM_PROXY_URL overrides it.
  local proxy="${MINIEVM_PROXY_URL:-$(go env GOPROXY | cut -d, -f1 | cut -d'|' -f1)}"
  case "$proxy" in
    http://* | https://*) ;;
    *) say "BLOCKED: go env GOPROXY names no HTTP proxy ($proxy); set MINIEVM_PROXY_URL"; exit 2 ;;
  esac
  # Extract once; a stamp records which archive the tree came from. Keeping the
  # same path keeps GOCACHE hits (-trimpath) for rebuilds.
  local stamp
  stamp="$(stat -c '%s %Y' "$archive") $archive"
  if [[ ! -f "$src/.extracted" ]] || [[ "$(cat "$src/.extracted")" != "$stamp" ]]; then
    rm -rf "$src"; mkdir -p "$src"
    run_step 2 tar -xzf "$archive" --strip-components=1 -C "$src"
    echo "$stamp" >"$src/.extracted"
  fi
  # initia-labs/store and store/memiavl: the proxy refuses only their .info, so
  # fetch the .zip directly and point replace directives at the unpacked trees.
  local store_ver
  store_ver="$(cd "$src" && go mod edit -json | jq -r '.Require[] | select(.Path=="github.com/initia-labs/store") | .Version')"
  if [[ ! -d "$deps/store" || ! -d "$deps/store-memiavl" ]]; then
    rm -rf "$deps"; mkdir -p "$deps/zips"
    run_step 2 curl -sSfL -o "$deps/zips/store.zip" "$proxy/github.com/initia-labs/store/@v/$store_ver.zip"
    run_step 2 curl -sSfL -o "$deps/zips/memiavl.zip" "$proxy/github.com/initia-labs/store/memiavl/@v/$store_ver.zip"
    (cd "$deps" && unzip -q zips/store.zip && unzip -q zips/memiavl.zip \
      && mv "github.com/initia-labs/store@$store_ver" store \
      && mv "github.com/initia-labs/store/memiavl@$store_ver" store-memiavl && rm -rf github.com) >>"$LOG" 2>&1 \
      || { say "FAILED (exit 2): unpacking initia-labs/store $store_ver zips"; tail -n 25 "$LOG" >&2; exit 2; }
  fi
  cd "$src"
  run_step 2 go mod edit -replace "github.com/initia-labs/store=$deps/store" \
    -replace "github.com/initia-labs/store/memiavl=$deps/store-memiavl"
  export GOFLAGS="-buildvcs=false -p=${GO_BUILD_PARALLEL:-2}"
  # The archive lacks one generated file (the swagger-UI bundle); regenerate it
  # with statik at the version minievm's go.mod pins.
  if [[ ! -f client/docs/statik/statik.go ]]; then
    run_step 2 nice -n 19 go build -mod=readonly -o "$OUT_DIR/statik" github.com/rakyll/statik
    run_step 5 "$OUT_DIR/statik" -src=client/docs/swagger-ui -dest=client/docs -f -m
  fi
  local tm ldflags
  tm="$(go list -m github.com/cometbft/cometbft | sed 's:.* ::')"
  ldflags="-X github.com/cosmos/cosmos-sdk/version.Name=minievm \
-X github.com/cosmos/cosmos-sdk/version.AppName=minitiad \
-X github.com/cosmos/cosmos-sdk/version.Version=$MINIEVM_VERSION \
-X github.com/cosmos/cosmos-sdk/version.BuildTags=netgo,ledger \
-X github.com/cometbft/cometbft/version.TMCoreSemVer=$tm -w -s"
  say "building minitiad from the archive (nice 19, GOCACHE=$GOCACHE); cold: several minutes, warm: seconds"
  run_step 5 nice -n 19 go build -mod=readonly -tags "netgo ledger" -trimpath -ldflags "$ldflags" \
    -o "$BIN.tmp" ./cmd/minitiad
  mv "$BIN.tmp" "$BIN"
  "$BIN" version >>"$LOG" 2>&1 || true
  say "built $BIN"
  echo "$BIN"
  exit 0
}

# 1. Fetch the minievm module itself; its go.mod is the source of truth for the
#    replace block.
say "downloading github.com/initia-labs/minievm@$MINIEVM_VERSION (log: $LOG)"
dl_json="$OUT_DIR/download.json"
echo "+ go mod download -json github.com/initia-labs/minievm@$MINIEVM_VERSION" >>"$LOG"
if ! (cd "$OUT_DIR" && GOFLAGS=-mod=mod go mod download -json "github.com/initia-labs/minievm@$MINIEVM_VERSION") >"$dl_json" 2>>"$LOG" \
  || [[ "$(jq -r '.Error // empty' "$dl_json")" != "" ]]; then
  cat "$dl_json" >>"$LOG"
  say "module proxy refused github.com/initia-labs/minievm@$MINIEVM_VERSION (GOPROXY=$(go env GOPROXY)):"
  say "  $(jq -r '.Error // empty' "$dl_json" 2>/dev/null | head -c 300 || head -c 300 "$dl_json")"
  build_from_archive
fi
upstream_gomod="$(jq -r '.GoMod' "$dl_json")"

# 2. The wrapper's replace block must equal upstream's, or the graph differs
#    from what minievm was tested with.
ours="$(go mod edit -json "$HERE/go.mod" | jq -S '.Replace // [] | sort_by(.Old.Path)')"
theirs="$(go mod edit -json "$upstream_gomod" | jq -S '.Replace // [] | sort_by(.Old.Path)')"
if [[ "$ours" != "$theirs" ]]; then
  say "replace block in $HERE/go.mod differs from $upstream_gomod; update it:"
  diff <(echo "$ours") <(echo "$theirs") >&2 || true
  exit 3
fi

say "source: module proxy (github.com/initia-labs/minievm@$MINIEVM_VERSION)"
echo "module proxy github.com/initia-labs/minievm@$MINIEVM_VERSION" >"$OUT_DIR/source"
# 3. Build in a scratch copy so the repo stays clean (go.sum is generated there).
SRC="$OUT_DIR/src"
rm -rf "$SRC"; mkdir -p "$SRC"
cp "$HERE/go.mod" "$HERE/tools.go" "$SRC/"
cd "$SRC"
export GOFLAGS="$(go env GOFLAGS) -mod=mod -p=${GO_BUILD_PARALLEL:-2}"
run_step 2 go mod tidy
tm_version="$(go list -m -f '{{if .Replace}}{{.Replace.Version}}{{else}}{{.Version}}{{end}}' github.com/cometbft/cometbft)"
ldflags="-w -s -X github.com/cosmos/cosmos-sdk/version.Name=minievm \
-X github.com/cosmos/cosmos-sdk/version.AppName=minitiad \
-X github.com/cosmos/cosmos-sdk/version.Version=$MINIEVM_VERSION \
-X github.com/cometbft/cometbft/version.TMCoreSemVer=$tm_version"
say "building minitiad (nice 19, GOFLAGS=$GOFLAGS); this takes several minutes"
run_step 5 nice -n 19 env CGO_ENABLED=1 go build -trimpath -tags netgo -ldflags "$ldflags" \
  -o "$BIN.tmp" github.com/initia-labs/minievm/cmd/minitiad
mv "$BIN.tmp" "$BIN"
"$BIN" version >>"$LOG" 2>&1 || true
say "built $BIN"
echo "$BIN"
