#!/usr/bin/env bash
# Quick start, command 2: install what is needed and run the whole test suite
# (typecheck, vitest suites against real chDB / Temporal dev server / loopback HTTP, API fuzzers).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
mkdir -p .tmp
echo "== minievm node (built once, cached; its e2e test runs only when the build succeeds)"
if bash devnet/minievm/build.sh; then
  minievm_ready=1
else
  minievm_ready=0
  echo "minievm: node build BLOCKED (the Go module proxy refuses github.com/initia-labs/*; see docs/minievm.md) - devnet e2e test not run"
fi
echo "== lint and format (biome)"
npx biome ci --reporter=summary .
echo "== import rules (dependency-cruiser, docs/architecture.md)"
node scripts/check-imports.mjs
echo "== typecheck"
npx tsc --noEmit -p tsconfig.json
echo "== vitest"
status=0
npx vitest run --reporter=default --reporter=json --outputFile=.tmp/vitest.json || status=$?
if [ "$minievm_ready" = 1 ]; then
  echo "== minievm devnet end-to-end"
  npx vitest run -c devnet/minievm/vitest.e2e.config.ts || status=$?
fi
echo "== fuzz (schemathesis; full output in .tmp/fuzz-*.log)"
# schemathesis closes with a pytest-style banner; it stays in the log so that the run's only closing line is ours.
fuzz_passed=0
fuzz_failed=0
for f in scripts/fuzz-indexer.sh scripts/fuzz-router.sh; do
  log=".tmp/$(basename "$f" .sh).log"
  if bash "$f" >"$log" 2>&1; then
    ops=$(sed -n 's/^ *Tested: *\([0-9]*\).*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
    echo "fuzz: $f passed ($ops operations)"
    fuzz_passed=$((fuzz_passed + ops))
  else
    echo "fuzz: $f FAILED; last lines of $log:" >&2
    tail -n 60 "$log" | sed 's/^=\{3,\}/---/' >&2
    fuzz_failed=$((fuzz_failed + 1))
  fi
done
node -e '
  const r = require("./.tmp/vitest.json");
  const passed = r.numPassedTests + Number(process.argv[1]), failed = r.numFailedTests + Number(process.argv[2]), skipped = r.numPendingTests + r.numTodoTests;
  console.log(`tests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$fuzz_passed" "$fuzz_failed"
[ "$status" -eq 0 ] && [ "$fuzz_failed" -eq 0 ]
