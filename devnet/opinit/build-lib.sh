# Shared steps of build-initiad.sh and build-opinitd.sh (sourced, not run). The caller sets, before sourcing:
#   TAG          log prefix, e.g. initiad-build
#   MODULE       Go module path of the app
#   VERSION      its tag
#   ARCHIVE_NAME git archive of the tag in ../shared/vendor/ (top folder <repo>-<version>/)
#   ARCHIVE_SHA  its sha256 (checked only for the default archive; an override archive is trusted)
#   ARCHIVE_VAR  env var that overrides the archive path
#   BIN_NAME     binary name; OUT_DIR=$CACHE_ROOT/<BIN_NAME>-<VERSION>
# Then calls: build_prepare, fetch_source, and its own build steps with run_step, then build_done.
#
# Conventions (as devnet/tools/build-vm-node.sh): built once into $CHAIN_INFRA_CACHE (default
# ~/.cache/chain-infra), never into the repo; GOMODCACHE/GOCACHE are the ones the minievm build fills
# ($CACHE_ROOT/go), so the shared cosmos-sdk dependency graph compiles once. One line on stderr names the source:
# "[<tag>] source: ...". Exit codes: 0 built/cached, 2 blocked (no usable source), 4 Go missing or too old,
# 5 go build failed, 6 gcc (cgo) missing. On failure the exact command and its error go to stderr.
MIN_GO="1.23.6"
OPINIT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_ROOT="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}"
OUT_DIR="$CACHE_ROOT/$BIN_NAME-$VERSION"
BIN="$OUT_DIR/$BIN_NAME"
LOG="$OUT_DIR/build.log"
SRC="$OUT_DIR/src"

say() { echo "[$TAG] $*" >&2; }

# The binary counts as built when `<bin> version` runs with its libraries beside it.
runs() { [[ -x "$BIN" ]] && LD_LIBRARY_PATH="$OUT_DIR" "$BIN" version >/dev/null 2>&1; }

cached_exit() { # $1: extra words for the source line
  say "source: cached binary $BIN ($1$(cat "$OUT_DIR/source" 2>/dev/null || echo unknown source))"
  echo "$BIN"
  exit 0
}

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

build_prepare() {
  runs && cached_exit ""
  mkdir -p "$OUT_DIR"
  # One build at a time per cache (parallel CI jobs share it); the winner's binary serves the others.
  if command -v flock >/dev/null 2>&1; then
    exec 9>"$OUT_DIR/.build.lock"
    flock 9
    runs && cached_exit "built by a concurrent run: "
  fi
  : >"$LOG"
  export GOMODCACHE="${MINIEVM_GOMODCACHE:-$CACHE_ROOT/go/mod}"
  export GOCACHE="${MINIEVM_GOCACHE:-$CACHE_ROOT/go/build-cache}"
  # GOWORK=off: initia's tree has no go.work today, but a parent go.work must never leak in.
  export GOWORK=off GOTOOLCHAIN=local GO111MODULE=on CGO_ENABLED=1
  export GOFLAGS="-buildvcs=false -p=${GO_BUILD_PARALLEL:-2}"
  mkdir -p "$GOMODCACHE" "$GOCACHE"
  command -v gcc >/dev/null 2>&1 || { say "MISSING: gcc (cgo is required: pebble, secp256k1, ledger hid)"; exit 6; }
  command -v go >/dev/null 2>&1 || { say "MISSING: go (>= $MIN_GO) on PATH"; exit 4; }
  command -v jq >/dev/null 2>&1 || { say "MISSING: jq"; exit 4; }
  local v
  v="$(go env GOVERSION | sed 's/^go//')"
  if [[ "$(printf '%s\n%s\n' "$MIN_GO" "$v" | sort -V | head -n1)" != "$MIN_GO" ]]; then
    say "Go $v is older than $MIN_GO, which $MODULE@$VERSION needs"; exit 4
  fi
}

# Leaves a writable source tree of the tag in $SRC: the module proxy's zip first, else the vendor archive.
# The archive may lack generated files the zip has (initia: client/docs/statik/statik.go).
fetch_source() {
  local dl_json="$OUT_DIR/download.json" stamp
  # OPINIT_FORCE_ARCHIVE=1 skips the proxy, to exercise the fallback (CI, or a proxy serving a changed zip).
  if [[ "${OPINIT_FORCE_ARCHIVE:-0}" == 1 ]]; then
    echo '{"Error":"OPINIT_FORCE_ARCHIVE=1: module proxy not asked"}' >"$dl_json"
  elif say "downloading $MODULE@$VERSION from the module proxy (log: $LOG)" \
    && echo "+ go mod download -json $MODULE@$VERSION" >>"$LOG" \
    && (cd "$OUT_DIR" && GOFLAGS=-mod=mod go mod download -json "$MODULE@$VERSION") >"$dl_json" 2>>"$LOG" \
    && [[ -z "$(jq -r '.Error // empty' "$dl_json")" ]]; then
    say "source: module proxy ($MODULE@$VERSION)"
    echo "module proxy $MODULE@$VERSION" >"$OUT_DIR/source"
    stamp="proxy $VERSION"
    if [[ ! -f "$SRC/.extracted" ]] || [[ "$(cat "$SRC/.extracted")" != "$stamp" ]]; then
      rm -rf "$SRC"; mkdir -p "$SRC"
      run_step 2 cp -r "$(jq -r '.Dir' "$dl_json")/." "$SRC/"
      chmod -R u+w "$SRC"   # module cache trees are read-only; go mod edit writes go.mod
      echo "$stamp" >"$SRC/.extracted"
    fi
    return 0
  fi
  cat "$dl_json" >>"$LOG"
  local why default_archive archive
  # The proxy's error, on one line (it spans two), so the "source:" line stays a single line.
  why="$(jq -r '.Error // empty' "$dl_json" 2>/dev/null | tr '\n\t' '  ' | tr -s ' ' | sed 's/ *$//' | head -c 240 || true)"
  default_archive="$(cd "$OPINIT_DIR/../.." && pwd)/../shared/vendor/$ARCHIVE_NAME"
  archive="${!ARCHIVE_VAR:-$default_archive}"
  if [[ ! -f "$archive" ]]; then
    say "BLOCKED: the module proxy refused $MODULE@$VERSION ($why) and no source archive at $archive"
    say "  set $ARCHIVE_VAR=/path/to/$ARCHIVE_NAME (git archive of the tag, one top folder)"
    exit 2
  fi
  archive="$(cd "$(dirname "$archive")" && pwd)/$(basename "$archive")"
  if [[ -z "${!ARCHIVE_VAR:-}" ]]; then
    local sum
    sum="$(sha256sum "$archive" | cut -d' ' -f1)"
    [[ "$sum" == "$ARCHIVE_SHA" ]] || { say "BLOCKED: $archive has sha256 $sum, expected $ARCHIVE_SHA"; exit 2; }
  fi
  say "source: archive $archive (module proxy refused $MODULE@$VERSION: $why)"
  echo "archive $archive" >"$OUT_DIR/source"
  # Extract once; the same path keeps build-cache hits (-trimpath) on rebuilds.
  stamp="$(stat -c '%s %Y' "$archive") $archive"
  if [[ ! -f "$SRC/.extracted" ]] || [[ "$(cat "$SRC/.extracted")" != "$stamp" ]]; then
    rm -rf "$SRC"; mkdir -p "$SRC"
    run_step 2 tar -xzf "$archive" --strip-components=1 -C "$SRC"
    echo "$stamp" >"$SRC/.extracted"
  fi
}

# Moves the freshly built $BIN.tmp into place once it runs (with its libraries beside it).
build_done() {
  mv "$BIN.tmp" "$BIN"
  runs || { say "FAILED (exit 5): $BIN version (LD_LIBRARY_PATH=$OUT_DIR)"; LD_LIBRARY_PATH="$OUT_DIR" "$BIN" version >&2 || true; exit 5; }
  LD_LIBRARY_PATH="$OUT_DIR" "$BIN" version >>"$LOG" 2>&1 || true
  say "built $BIN"
  echo "$BIN"
}
