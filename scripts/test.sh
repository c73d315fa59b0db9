#!/usr/bin/env bash
# Quick start, command 2: install what is needed and run the whole test suite
# (typecheck, vitest suites against real chDB / Temporal dev server / loopback HTTP, API fuzzers).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
mkdir -p .tmp
echo "== minievm node (built once into ~/.cache/chain-infra, cached; its devnet e2e suite is part of every run)"
# No quiet skip: a node that cannot be built fails the run, naming the missing piece (build.sh's own lines above).
minievm_ready=1
if ! bash devnet/minievm/build.sh >/dev/null; then
  minievm_ready=0
  echo "minievm: FAILED to build minitiad (see the [minievm-build] lines above: missing gcc/go, an unreachable module proxy, or no source archive at MINIEVM_SOURCE_ARCHIVE); the devnet e2e suite cannot run" >&2
fi
echo "== minimove and miniwasm nodes (built once into ~/.cache/chain-infra, sharing minievm's Go caches; their devnet e2e suites are part of every run)"
# On a fresh machine these two builds take minutes: they run in the background (nice 19, after minievm's, whose
# Go caches they reuse) while the other builds, the checks and the vitest suites run; the Move/Wasm suites wait
# for them. With the binaries cached they finish at once.
rm -f .tmp/vm-nodes-build.done
( trap 'touch .tmp/vm-nodes-build.done' EXIT
  for flavor in minimove miniwasm; do
    bash "devnet/$flavor/build.sh" >/dev/null || { echo "$flavor: FAILED to build minitiad"; exit 1; }
  done ) >.tmp/vm-nodes-build.log 2>&1 &
vm_nodes_build=$!
echo "== OPinit bridge: L1 initiad and the executor opinitd (built once into ~/.cache/chain-infra, sharing the Go caches; the real-bridge e2e suite is part of every run)"
# In the background too, after the Move/Wasm builds (one Go build at a time beside the suites); the OPinit suite
# waits for it. Cached, it finishes at once.
( until [ -e .tmp/vm-nodes-build.done ]; do sleep 2; done
  bash devnet/opinit/build-initiad.sh >/dev/null || { echo "initiad: FAILED to build"; exit 1; }
  bash devnet/opinit/build-opinitd.sh >/dev/null || { echo "opinitd: FAILED to build"; exit 1; }
) >.tmp/opinit-build.log 2>&1 &
opinit_build=$!
echo "== IBC relayer (the Go relayer rly v2.6.0, built once into ~/.cache/chain-infra; the real-IBC e2e suite is part of every run)"
relayer_ready=1
if ! bash devnet/ibc/build-relayer.sh >/dev/null; then
  relayer_ready=0
  echo "relayer: FAILED to build rly (see the [relayer-build] lines above: missing go or an unreachable module proxy); the real-IBC e2e suite cannot run" >&2
fi
echo "== rollytics, the reference indexer (built once into ~/.cache/chain-infra) and PostgreSQL (Debian package)"
# No quiet skip either: the differential test cannot run without them, and that fails the run.
rollytics_ready=1
if ! bash devnet/rollytics/build.sh >/dev/null || ! bash devnet/rollytics/install-postgres.sh >/dev/null; then
  rollytics_ready=0
  echo "rollytics: FAILED to build rollytics or install PostgreSQL (see the [rollytics-build] / [rollytics-pg] lines above); the differential test cannot run" >&2
fi
# Lint, import rules and typecheck: each failed one counts as one failed test in the closing line. They run beside the
# minievm devnet suite below, whose node leaves about a quarter of the two cores idle while it makes blocks (vmstat
# over a whole run, docs/decisions/009-ci-time.md); their output is printed when they are judged, after that suite.
run_checks() {
  local failed=0
  echo "== lint and format (biome)"
  npx biome ci --reporter=summary . || failed=$((failed + 1))
  echo "== import rules (dependency-cruiser, docs/architecture.md)"
  node scripts/check-imports.mjs || failed=$((failed + 1))
  echo "== typecheck"
  npx tsc --noEmit -p tsconfig.json || failed=$((failed + 1))
  echo "$failed" >.tmp/checks.failed
}
echo "== vitest"
status=0
rm -f .tmp/vitest.json
npx vitest run --reporter=default --reporter=json --outputFile=.tmp/vitest.json || status=$?
rm -f .tmp/vitest-e2e.json
rm -f .tmp/checks.failed
run_checks >.tmp/checks.log 2>&1 &
checks_pid=$!
if [ "$minievm_ready" = 1 ]; then
  echo "== minievm devnet end-to-end (a real minitiad on loopback)"
  npx vitest run -c devnet/minievm/vitest.e2e.config.ts --reporter=default --reporter=json --outputFile=.tmp/vitest-e2e.json || status=$?
else
  status=1
fi
wait "$checks_pid" || true
cat .tmp/checks.log
# no verdict file: the checks themselves broke off, which is three failures, never none
checks_failed=$(cat .tmp/checks.failed 2>/dev/null || echo 3)
[ "$checks_failed" -eq 0 ] || status=1
rm -f .tmp/vitest-vm-nodes.json
vm_nodes_ready=1
wait "$vm_nodes_build" || vm_nodes_ready=0
# the builds' own lines (sources, and on failure the exact command and error)
sed 's/^/  /' .tmp/vm-nodes-build.log
if [ "$vm_nodes_ready" = 0 ]; then
  echo "minimove/miniwasm: FAILED to build (see the [minimove-build] / [miniwasm-build] lines above: missing gcc/go, an unreachable module proxy, or no source archive); the Move/Wasm devnet suites cannot run" >&2
fi
if [ "$vm_nodes_ready" = 1 ]; then
  echo "== minimove and miniwasm devnets end-to-end (real nodes on loopback, side by side)"
  npx vitest run -c devnet/vitest.vm-nodes.config.ts --reporter=default --reporter=json --outputFile=.tmp/vitest-vm-nodes.json || status=$?
else
  status=1
fi
rm -f .tmp/vitest-ibc.json .tmp/vitest-opinit.json
opinit_ready=1
wait "$opinit_build" || opinit_ready=0
sed 's/^/  /' .tmp/opinit-build.log
if [ "$opinit_ready" = 0 ]; then
  echo "opinit: FAILED to build initiad or opinitd (see the [initiad-build] / [opinitd-build] lines above: missing gcc/go, an unreachable module proxy, or no source archive); the OPinit bridge suite cannot run" >&2
fi
# The IBC and OPinit suites run side by side: each waits on its own chains (IBC ports 20000-31900, OPinit
# 10000-19900); the OPinit suite's output goes to its log, printed after both finish.
opinit_pid=""
if [ "$minievm_ready" = 1 ] && [ "$opinit_ready" = 1 ]; then
  npx vitest run -c devnet/opinit/vitest.e2e.config.ts --reporter=default --reporter=json --outputFile=.tmp/vitest-opinit.json >.tmp/opinit-e2e.log 2>&1 &
  opinit_pid=$!
else
  status=1
fi
# The router's fuzzer runs beside them too: those two suites wait on block production and leave about a third of the
# two cores idle (measured with vmstat over a whole run), which its one-request-at-a-time loop uses. It needs no chain
# and binds only free loopback ports above the suites' ranges. Judged with the indexer's fuzzers below.
bash scripts/fuzz-router.sh >.tmp/fuzz-router.log 2>&1 &
router_fuzz_pid=$!
if [ "$minievm_ready" = 1 ] && [ "$relayer_ready" = 1 ]; then
  echo "== real IBC transfer between two minievm devnets (rly relays; router + tracking end to end)"
  npx vitest run -c devnet/ibc/vitest.e2e.config.ts --reporter=default --reporter=json --outputFile=.tmp/vitest-ibc.json || status=$?
else
  status=1
fi
if [ -n "$opinit_pid" ]; then
  echo "== real OPinit bridge: L1 initiad + L2 minievm + executor opinitd (deposits, withdrawals to the claim; ran beside the IBC suite)"
  wait "$opinit_pid" || status=1
  cat .tmp/opinit-e2e.log
fi
rm -f .tmp/vitest-diff.json
if [ "$minievm_ready" = 1 ] && [ "$rollytics_ready" = 1 ]; then
  echo "== differential test: ours vs rollytics on the same minievm devnet"
  npx vitest run -c devnet/rollytics/vitest.e2e.config.ts --reporter=default --reporter=json --outputFile=.tmp/vitest-diff.json || status=$?
else
  status=1
fi
echo "== fuzz (schemathesis; full output in .tmp/fuzz-*.log)"
# schemathesis closes with a pytest-style banner; it stays in the log so that the run's only closing line is ours.
fuzz_passed=0
fuzz_failed=0
# The indexer's three sample chains are fuzzed side by side (each serves its own API on a free loopback port and
# drives it one request at a time, so no one of them fills a core alone); each fuzzer is judged from its own exit code
# and log, the router's (started beside the IBC suite) with them.
fuzzers=("fuzz-router.sh")
fuzz_pids=("$router_fuzz_pid")
fuzz_logs=(".tmp/fuzz-router.log")
for kind in evm move wasm; do
  bash scripts/fuzz-indexer.sh "$kind" >".tmp/fuzz-indexer-$kind.log" 2>&1 &
  fuzzers+=("fuzz-indexer.sh $kind")
  fuzz_pids+=($!)
  fuzz_logs+=(".tmp/fuzz-indexer-$kind.log")
done
for i in "${!fuzzers[@]}"; do
  f="scripts/${fuzzers[$i]}"
  log="${fuzz_logs[$i]}"
  if wait "${fuzz_pids[$i]}"; then
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
  const fs = require("node:fs");
  const suites = [".tmp/vitest-e2e.json", ".tmp/vitest-vm-nodes.json", ".tmp/vitest-ibc.json", ".tmp/vitest-opinit.json", ".tmp/vitest-diff.json"];
  const runs = [".tmp/vitest.json", ...suites].filter((f) => fs.existsSync(f)).map((f) => JSON.parse(fs.readFileSync(f, "utf8")));
  const sum = (k) => runs.reduce((n, r) => n + r[k], 0);
  // a file that failed outside its tests (a beforeAll, a suite-level error) counts as one failed test: its tests
  // were skipped, not passed, and the closing line must not read "0 failed"
  const brokenFiles = runs.reduce((n, r) => n + (r.testResults ?? []).filter((f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed")).length, 0);
  // a devnet suite that could not run (node, relayer or rollytics build failed) counts as one failed test, never as nothing
  const e2eMissing = suites.filter((f) => !fs.existsSync(f)).length;
  // argv: the passed fuzz operations and the failed fuzzers, then the failed checks (lint, import rules, typecheck)
  const passed = sum("numPassedTests") + Number(process.argv[1]), failed = sum("numFailedTests") + brokenFiles + Number(process.argv[2]) + Number(process.argv[3]) + e2eMissing, skipped = sum("numPendingTests") + sum("numTodoTests");
  console.log(`tests: ${passed} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : ""));
' "$fuzz_passed" "$fuzz_failed" "$checks_failed"
[ "$status" -eq 0 ] && [ "$fuzz_failed" -eq 0 ]
