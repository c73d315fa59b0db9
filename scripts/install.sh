#!/usr/bin/env bash
# Installs everything the project needs: npm packages and the Temporal CLI (built once from its Go module,
# cached outside the repo). Idempotent and quiet when nothing is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "install: Node.js 20+ is required" >&2; exit 1; }
command -v go >/dev/null || { echo "install: Go is required to build the Temporal dev server" >&2; exit 1; }
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  # npm install (not npm ci): with this machine's npm config, npm 11's ci rejects the lock's optional
  # platform packages of other OSes; install still follows the lock.
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
