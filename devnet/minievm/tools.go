//go:build tools

// Package tools pins the minitiad command in this wrapper module's build list,
// so `go mod tidy` keeps every module `go build .../cmd/minitiad` needs.
package tools

import _ "github.com/initia-labs/minievm/cmd/minitiad"
