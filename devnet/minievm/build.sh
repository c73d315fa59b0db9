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
# Exit codes: 0 built/cached, 2 blocked (module download failed), 3 replace block
# drifted from upstream, 4 Go too old, 5 go build failed. On failure the exact
# command and its error go to stderr: that is the evidence a "blocked" report needs.
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
  echo "$BIN"
  exit 0
fi

mkdir -p "$OUT_DIR"
: >"$LOG"

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

# 1. Fetch the minievm module itself; its go.mod is the source of truth for the
#    replace block.
say "downloading github.com/initia-labs/minievm@$MINIEVM_VERSION (log: $LOG)"
dl_json="$OUT_DIR/download.json"
echo "+ go mod download -json github.com/initia-labs/minievm@$MINIEVM_VERSION" >>"$LOG"
if ! (cd "$OUT_DIR" && GOFLAGS=-mod=mod go mod download -json "github.com/initia-labs/minievm@$MINIEVM_VERSION") >"$dl_json" 2>>"$LOG" \
  || [[ "$(jq -r '.Error // empty' "$dl_json")" != "" ]]; then
  cat "$dl_json" >>"$LOG"
  say "BLOCKED: go mod download -json github.com/initia-labs/minievm@$MINIEVM_VERSION"
  say "GOPROXY=$(go env GOPROXY)"
  say "error: $(jq -r '.Error // empty' "$dl_json" 2>/dev/null || cat "$dl_json")"
  exit 2
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

# 3. Build in a scratch copy so the repo stays clean (go.sum is generated there).
SRC="$OUT_DIR/src"
rm -rf "$SRC"; mkdir -p "$SRC"
cp "$HERE/go.mod" "$HERE/tools.go" "$SRC/"
cd "$SRC"
export GOFLAGS="$(go env GOFLAGS) -mod=mod -p=${GO_BUILD_PARALLEL:-1}"
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
