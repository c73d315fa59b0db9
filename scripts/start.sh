#!/usr/bin/env bash
# Quick start, command 1: install what is needed and run the main job on embedded defaults
# (chDB under ./data, Temporal dev server built from its Go module, the recorded EVM sample chain on loopback).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# --max-semi-space-size: a 64 MB young generation for the ingest's allocations (platform/node-flags.ts, decision 010).
exec node --max-semi-space-size=64 --import tsx scripts/main.ts
