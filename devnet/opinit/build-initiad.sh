#!/usr/bin/env bash
# Builds initiad (initia-labs/initia v1.2.2, the OPinit L1 that minievm v1.2.18 is tested against) once into
# $CHAIN_INFRA_CACHE/initiad-v1.2.2/ and prints the binary's path on stdout. Idempotent: exits at once when the
# cached binary runs. Run it with LD_LIBRARY_PATH=<its folder>: movevm's libmovevm/libcompiler live beside it.
#
# Source: the module proxy's zip (it serves initia v1.2.2, statik.go included); fallback the git archive of the
# tag, INITIA_SOURCE_ARCHIVE (default ../shared/vendor/initia-v1.2.2.tar.gz beside the repo), which lacks the
# generated client/docs/statik/statik.go. Steps, caches and exit codes: build-lib.sh.
set -euo pipefail
TAG=initiad-build
MODULE=github.com/initia-labs/initia
VERSION="${INITIA_VERSION:-v1.2.2}"
ARCHIVE_NAME="initia-$VERSION.tar.gz"
ARCHIVE_SHA=62894c9dee5fbfe015309e1ab1d278134579ad742e2759e8b5e688448c98c0f2
ARCHIVE_VAR=INITIA_SOURCE_ARCHIVE
BIN_NAME=initiad
# shellcheck source=build-lib.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/build-lib.sh"

build_prepare
fetch_source
cd "$SRC"
# initia pins cometbft to its fork github.com/initia-labs/cometbft v0.38.19-initia.2, which the module proxy
# refuses (403 on every file). Dropping the replace builds against plain cometbft v0.38.19, the fork's upstream
# base: only initia's extra "search v2" RPC is lost; tx_search, block_results and REST are unchanged. The named
# download records its go.sum lines (the tree's go.sum has only the fork's), so -mod=readonly still holds.
if go mod edit -json | jq -e '.Replace // [] | any(.Old.Path == "github.com/cometbft/cometbft")' >/dev/null; then
  run_step 2 go mod edit -dropreplace github.com/cometbft/cometbft
fi
run_step 2 go mod download github.com/cometbft/cometbft
run_step 2 go mod download
# The archive lacks the generated swagger-UI bundle; regenerate it with the statik its go.mod pins.
if [[ ! -f client/docs/statik/statik.go ]]; then
  run_step 2 nice -n 19 go build -mod=readonly -o "$OUT_DIR/statik" github.com/rakyll/statik
  run_step 5 "$OUT_DIR/statik" -src=client/docs/swagger-ui -dest=client/docs -f -m
fi
# As upstream's Makefile (`make build`, ledger on, stripped, trimpath); commit from the tag, no git here.
tm="$(go list -mod=readonly -m github.com/cometbft/cometbft | sed 's:.* ::')"
ldflags="-X github.com/cosmos/cosmos-sdk/version.Name=initia \
-X github.com/cosmos/cosmos-sdk/version.AppName=initiad \
-X github.com/cosmos/cosmos-sdk/version.Version=$VERSION \
-X github.com/cosmos/cosmos-sdk/version.Commit=${INITIA_COMMIT:-f4430a53961e8d1144efa0e87eec5071c85fb987} \
-X github.com/cosmos/cosmos-sdk/version.BuildTags=netgo,ledger \
-X github.com/cometbft/cometbft/version.TMCoreSemVer=$tm -w -s"
say "building initiad (nice 19, GOCACHE=$GOCACHE); cold: several minutes, warm: seconds"
run_step 5 nice -n 19 go build -mod=readonly -tags "netgo ledger" -trimpath -ldflags "$ldflags" -o "$BIN.tmp" ./cmd/initiad
# The Move VM is a prebuilt library in the movevm module zip (v1.1.1 for initia v1.2.2); the binary needs both.
vm_dir="$(go list -mod=readonly -m -f '{{.Dir}}' github.com/initia-labs/movevm)"
for lib in api/libmovevm.x86_64.so api/libcompiler.x86_64.so; do
  run_step 2 cp "$vm_dir/$lib" "$OUT_DIR/"
  chmod u+w "$OUT_DIR/$(basename "$lib")"
done
build_done
