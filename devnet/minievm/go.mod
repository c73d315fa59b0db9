// Wrapper module: `go install github.com/initia-labs/minievm/cmd/minitiad@v1.2.18`
// refuses modules with `replace` directives, so this module requires minievm and
// repeats its replace block; build.sh then runs
// `go build github.com/initia-labs/minievm/cmd/minitiad` inside it.
// build.sh checks that the replace block below still equals the one in
// minievm v1.2.18's own go.mod (from the module cache) before building.
module chain-infra/devnet/minievm

go 1.23.6

require github.com/initia-labs/minievm v1.2.18

// cosmos replaces (copied from minievm's go.mod)
replace (
	github.com/99designs/keyring => github.com/cosmos/keyring v1.2.0
	github.com/dgrijalva/jwt-go => github.com/golang-jwt/jwt/v4 v4.4.2
	github.com/gin-gonic/gin => github.com/gin-gonic/gin v1.9.1
	github.com/syndtr/goleveldb => github.com/syndtr/goleveldb v1.0.1-0.20210819022825-2ae1ddf74ef7
)

// initia custom (copied from minievm's go.mod)
replace (
	github.com/cometbft/cometbft => github.com/initia-labs/cometbft v0.38.19-minitia.7
	github.com/cosmos/cosmos-sdk => github.com/initia-labs/cosmos-sdk v0.50.14-initia.2
	github.com/cosmos/ibc-go/v8 => github.com/initia-labs/ibc-go/v8 v8.7.0-initia.0
	github.com/ethereum/go-ethereum => github.com/initia-labs/evm v1.15.11-initia.0
	github.com/noble-assets/forwarding/simapp => github.com/initia-labs/forwarding/simapp v1.0.0
	github.com/noble-assets/forwarding/v2 => github.com/initia-labs/forwarding/v2 v2.0.3-initia.3
	github.com/skip-mev/connect/v2 => github.com/initia-labs/connect/v2 v2.3.1
	google.golang.org/grpc => google.golang.org/grpc v1.65.0
)
