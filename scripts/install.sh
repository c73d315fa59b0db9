#!/usr/bin/env bash
# Installs everything the project needs: npm packages and the Temporal CLI (built once from its Go module,
# cached outside the repo). Idempotent and quiet when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "install: Node.js 20.12+ is required" >&2; exit 1; }
command -v go >/dev/null || { echo "install: Go is required to build the Temporal dev server" >&2; exit 1; }
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  # A finished install is kept outside the clone, keyed by the manifest, the lock, Node's version and the machine
  # kind, and a fresh clone copies it (a few seconds) instead of unpacking 1.3 GB of packages again (~47 s of CPU,
  # docs/decisions/009-ci-time.md). A copy, not hard links: nothing a run writes under node_modules reaches the cache.
  cache_root="${CHAIN_INFRA_CACHE:-$HOME/.cache/chain-infra}/node-modules"
  key=$(cat package.json package-lock.json <(node -v) <(uname -sm) | sha256sum | cut -c1-16)
  if [ -f "$cache_root/$key/.install-stamp" ]; then
    rm -rf node_modules
    cp -a "$cache_root/$key" node_modules
  else
    # npm install, not npm ci: npm here serves no @chdb/lib-darwin-* or lib-linux-arm64 packages, so the
    # lock it resolves cannot list them and ci's sync check refuses it ("Missing: @chdb/lib-darwin-arm64@").
    # install follows the committed lock and leaves it byte-identical (docs/decisions/001-lock-file.md).
    npm install --no-audit --no-fund --loglevel=error
    touch "$stamp"
    # Saved under a temporary name and renamed, so a copy cut short is never taken for a finished one; only the
    # newest two installs are kept.
    mkdir -p "$cache_root"
    rm -rf "$cache_root/$key.partial"
    cp -a node_modules "$cache_root/$key.partial" &&
      { mv -T "$cache_root/$key.partial" "$cache_root/$key" 2>/dev/null || rm -rf "$cache_root/$key.partial"; }
    ls -1dt "$cache_root"/*/ | tail -n +3 | xargs -r rm -rf
  fi
  touch "$stamp"
fi
bash scripts/install-temporal.sh >/dev/null
# Debian's chromium for the headless browser test (test/browser/): installed once when missing.
if [ ! -x /usr/bin/chromium ]; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null ||
      { echo "install: apt-get install chromium failed (needed by test/browser/)" >&2; exit 1; }
  else
    echo "install: /usr/bin/chromium is missing; install Debian's chromium package (apt-get install chromium)" >&2
    exit 1
  fi
fi
