//go:build !js

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "page runs in a browser: go test -run NONE -bench SGEMM -benchtime 1x -timeout 30m ./bench/browserbench")
	os.Exit(2)
}
