#!/usr/bin/env bash
# Installs everything the project needs: npm packages and the Temporal CLI (built once from its Go module,
# cached outside the repo). Idempotent and quiet when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "install: Node.js 20+ is required" >&2; exit 1; }
command -v go >/dev/null || { echo "install: Go is required to build the Temporal dev server" >&2; exit 1; }
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  # npm install, not npm ci: npm here serves no @chdb/lib-darwin-* or lib-linux-arm64 packages, so the
  # lock it resolves cannot list them and ci's sync check refuses it ("Missing: @chdb/lib-darwin-arm64@").
  # install follows the committed lock and leaves it byte-identical (docs/decisions/001-lock-file.md).
  npm install --no-audit --no-fund --loglevel=error
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
