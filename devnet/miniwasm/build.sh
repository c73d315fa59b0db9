#!/usr/bin/env bash
# Builds miniwasm v1.2.11's minitiad into $CHAIN_INFRA_CACHE (default ~/.cache/chain-infra) and prints its path.
# Run it with LD_LIBRARY_PATH set to the binary's folder (the VM library lives beside it).
# The steps, sources and exit codes: devnet/tools/build-vm-node.sh.
set -euo pipefail
exec bash "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/../tools/build-vm-node.sh" miniwasm "${MINIWASM_VERSION:-v1.2.11}"
