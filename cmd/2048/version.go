package main

import (
	"fmt"
	"io"

	"github.com/mod2048/mod2048/cmd/internal/version"
)

// runVersion is `2048 version` (and --version): the program's version
// from its build information (package cmd/internal/version).
func runVersion(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "2048 %s\n", version.String())
	return 0
}
