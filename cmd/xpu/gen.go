package main

// This file implements `xpu gen`.

import (
	"fmt"
	"io"

	"github.com/goxpu/xpu/codegen"
)

// runGen generates the file of the kernel package in the current
// directory and prints a note for each refused template member.
func runGen(args []string, stdout, stderr io.Writer) error {
	if len(args) != 0 {
		return fmt.Errorf("%w: gen takes no arguments, got %q", errUsage, args)
	}
	r, err := codegen.Run(".")
	if err != nil {
		return err
	}
	if r.Empty {
		fmt.Fprintf(stderr, "xpu gen: note: the package has no kernels (no //xpu:kernel function): nothing generated\n")
		if r.Removed {
			fmt.Fprintf(stderr, "xpu gen: note: removed the %s of an earlier generation\n", r.Path)
		}
		return nil
	}
	for _, ref := range r.Refused {
		fmt.Fprintf(stderr, "xpu gen: note: %s: %s refused: %s\n", ref.Pos, ref.Name, ref.Reason)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(stderr, "xpu gen: note: %s\n", n)
	}
	return nil
}
