#!/usr/bin/env bash
# Builds the reference rollup indexer rollytics (initia-labs/rollytics, Go +
# Postgres) once into a cache outside the repo and prints the binary's path on
# stdout. Idempotent: exits at once when the binary already exists and runs.
#
# rollytics is BSL-licensed: it is only a local test oracle. Its source is
# extracted from ROLLYTICS_SOURCE_ARCHIVE (default ../shared/vendor/
# rollytics-3a2b99d.tar.gz next to the repo) into $CHAIN_INFRA_CACHE (default
# ~/.cache/chain-infra), never into the repo. Every Go module comes from the
# module proxy; if the proxy refuses github.com/initia-labs/minievm@v1.1.4 the
# vendored archive of that tag (MINIEVM_114_SOURCE_ARCHIVE) replaces it.
#
# The source tree stays in the cache: start.sh applies its orm/migrations/*.sql. One local edit to it: both
# servers listen on 127.0.0.1 instead of every interface.
# Exit codes: 0 built/cached, 2 source archive missing, 4 Go too old/missing,
# 5 go build failed, 6 gcc missing. Failures print the command and its error.
set -euo pipefail

ROLLYTICS_COMMIT="3a2b99d39afac6c645393c861b942eaf36b4ecbf"
ROLLYTICS_VERSION="v1.0.55-4-g3a2b99d"
MIN_GO="1.25.0"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENDOR_DIR="$(cd "$HERE/../.." && pwd)/../shared/vendor"
CACHE_ROOT="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}"
OUT_DIR="$CACHE_ROOT/rollytics-${ROLLYTICS_COMMIT:0:7}"
BIN="$OUT_DIR/rollytics"
SRC="$OUT_DIR/src"
LOG="$OUT_DIR/build.log"

say() { echo "[rollytics-build] $*" >&2; }

if [[ -x "$BIN" ]] && [[ -d "$SRC/orm/migrations" ]] && [[ -f "$OUT_DIR/.loopback" ]] && "$BIN" version >/dev/null 2>&1; then
  say "cached binary $BIN"
  echo "$BIN"
  exit 0
fi

mkdir -p "$OUT_DIR"
: >"$LOG"
export GOMODCACHE="${ROLLYTICS_GOMODCACHE:-$CACHE_ROOT/go/mod}"
export GOCACHE="${ROLLYTICS_GOCACHE:-$CACHE_ROOT/go/build-cache}"
export GOWORK=off GOTOOLCHAIN=local GO111MODULE=on CGO_ENABLED=1
export GOFLAGS="-buildvcs=false -p=${GO_BUILD_PARALLEL:-2}"
mkdir -p "$GOMODCACHE" "$GOCACHE"
command -v gcc >/dev/null 2>&1 || { say "MISSING: gcc (cgo: go-sqlite3, zstd, secp256k1); install gcc"; exit 6; }
command -v go >/dev/null 2>&1 || { say "MISSING: go (>= $MIN_GO) on PATH"; exit 4; }
go_version="$(go env GOVERSION | sed 's/^go//')"
if [[ "$(printf '%s\n%s\n' "$MIN_GO" "$go_version" | sort -V | head -n1)" != "$MIN_GO" ]]; then
  say "Go $go_version is older than $MIN_GO, which rollytics needs"
  exit 4
fi

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

archive="${ROLLYTICS_SOURCE_ARCHIVE:-$VENDOR_DIR/rollytics-${ROLLYTICS_COMMIT:0:7}.tar.gz}"
if [[ ! -f "$archive" ]]; then
  say "BLOCKED: no rollytics source archive at $archive (set ROLLYTICS_SOURCE_ARCHIVE)"
  exit 2
fi
stamp="$(stat -c '%s %Y' "$archive") $archive"
if [[ ! -f "$SRC/.extracted" ]] || [[ "$(cat "$SRC/.extracted")" != "$stamp" ]]; then
  rm -rf "$SRC"; mkdir -p "$SRC"
  run_step 2 tar -xzf "$archive" --strip-components=1 -C "$SRC"
  echo "$stamp" >"$SRC/.extracted"
fi
cd "$SRC"
say "source: $archive (log: $LOG)"
# Upstream listens on ":" + PORT (every interface) for both servers; on a shared machine a test server must bind
# loopback only. The one local change to the extracted tree (in the cache, never in the repo): 127.0.0.1.
for f in api/api.go indexer/api/api.go; do
  grep -q 'listenAddr := ":" + port' "$f" || grep -q 'listenAddr := "127.0.0.1:" + port' "$f" \
    || { say "FAILED: $f no longer has the expected listen address line; update build.sh"; exit 5; }
  sed -i 's/listenAddr := ":" + port/listenAddr := "127.0.0.1:" + port/' "$f"
done

# minievm v1.1.4: served by the proxy today (only its version list is refused);
# fall back to the vendored archive of the tag.
if ! grep -q '^replace github.com/initia-labs/minievm' go.mod \
  && ! (echo "+ go mod download github.com/initia-labs/minievm@v1.1.4" >>"$LOG"; nice -n 19 go mod download github.com/initia-labs/minievm@v1.1.4 >>"$LOG" 2>&1); then
  m114="${MINIEVM_114_SOURCE_ARCHIVE:-$VENDOR_DIR/minievm-v1.1.4.tar.gz}"
  [[ -f "$m114" ]] || { say "BLOCKED: proxy refused minievm v1.1.4 and no archive at $m114"; exit 2; }
  say "proxy refused minievm v1.1.4: using $m114"
  rm -rf "$OUT_DIR/deps/minievm" && mkdir -p "$OUT_DIR/deps/minievm"
  run_step 2 tar -xzf "$m114" -C "$OUT_DIR/deps/minievm"
  run_step 2 go mod edit -replace "github.com/initia-labs/minievm=$OUT_DIR/deps/minievm"
fi
run_step 2 nice -n 19 go mod download
say "building rollytics (nice 19, GOCACHE=$GOCACHE); cold: a few minutes, warm: seconds"
run_step 5 nice -n 19 go build -mod=readonly \
  -ldflags "-s -w -X main.Version=$ROLLYTICS_VERSION -X main.CommitHash=$ROLLYTICS_COMMIT" \
  -o "$BIN.tmp" ./cmd/rollytics
mv "$BIN.tmp" "$BIN"
touch "$OUT_DIR/.loopback"
"$BIN" version >>"$LOG" 2>&1 || true
say "built $BIN"
echo "$BIN"
