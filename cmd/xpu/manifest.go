package main

// This file implements `xpu manifest`.

import (
	"fmt"
	"io"
	"os/exec"
	"strings"
	"text/tabwriter"

	"github.com/goxpu/xpu/codegen"
	"github.com/goxpu/xpu/schema"
)

// runManifest prints the manifests of one kernel, one block per backend.
//
// The kernel is named "importpath.Kernel" (or "./dir.Kernel"). Its
// package is found with `go list` and generated on demand with codegen,
// in memory: the manifests printed are exactly those the package's
// generated file registers (the drift test keeps the two equal), for any
// kernel package of the module or its dependencies, without linking the
// kernel packages into this command.
func runManifest(args []string, stdout, _ io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("%w: xpu manifest <importpath>.<Kernel>", errUsage)
	}
	pkg, name, ok := splitKernel(args[0])
	if !ok {
		return fmt.Errorf("%w: %q is not <importpath>.<Kernel>", errUsage, args[0])
	}
	dir, err := packageDir(pkg)
	if err != nil {
		return err
	}
	r, _, err := codegen.Build(dir)
	if err != nil {
		return err
	}
	found := false
	for _, a := range r.Artifacts {
		m := a.Manifest
		if m.Kernel[strings.LastIndexByte(m.Kernel, '.')+1:] != name {
			continue
		}
		if found {
			fmt.Fprintln(stdout)
		}
		found = true
		printManifest(stdout, m, a.Selector)
	}
	if !found {
		return fmt.Errorf("package %s has no kernel %s with code (kernels: %v)", pkg, name, r.Kernels)
	}
	return nil
}

// splitKernel splits "path/to/pkg.Kernel" at the last dot after the last
// slash.
func splitKernel(s string) (pkg, name string, ok bool) {
	slash := strings.LastIndexByte(s, '/')
	dot := strings.LastIndexByte(s, '.')
	if dot <= slash+1 || dot == len(s)-1 {
		return "", "", false
	}
	return s[:dot], s[dot+1:], true
}

// packageDir returns the directory of the package pkg, as go list finds
// it from the current directory.
func packageDir(pkg string) (string, error) {
	out, err := exec.Command("go", "list", "-find", "-f", "{{.Dir}}", pkg).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return "", fmt.Errorf("go list %s: %s", pkg, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("go list %s: %w", pkg, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// printManifest prints the manifest of one artifact and the devices its
// selector s admits; absent facts are left out.
func printManifest(w io.Writer, m schema.Manifest, s schema.Selector) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	fmt.Fprintf(tw, "%s on %s:\n", m.Kernel, m.Backend)
	row := func(k string, v any) { fmt.Fprintf(tw, "  %s\t%v\n", k, v) }
	row("target", m.Target)
	row("hash", m.Hash)
	row("codegen", m.Codegen)
	row("block", fmt.Sprintf("%dx%dx%d", m.Block.X, m.Block.Y, m.Block.Z))
	row("shared bytes", m.SharedBytes)
	row("storage bindings", m.StorageBindings)
	row("uniform bytes", m.UniformBytes)
	if m.PrivateBytes != nil {
		row("private bytes per work-item", *m.PrivateBytes)
	}
	for _, u := range m.Buffers {
		v := u.Access.String()
		if u.MinLen != nil {
			v += ", len >= " + strings.Join(u.MinLen, "*")
		}
		row("buffer "+u.Name, v)
	}
	if m.Wave != 0 {
		row("wave width", m.Wave)
	}
	if m.WaveOps && m.WaveTier != "" {
		row("wave tier", m.WaveTier)
	}
	if m.WaveOps || s != (schema.Selector{}) {
		row("devices", selectorText(s))
	}
	if m.Fault {
		row("faults", "recorded in a fault word")
	}
	if len(m.NativeOps) > 0 {
		row("native ops", strings.Join(m.NativeOps, " "))
	}
}

// selectorText describes the devices an artifact is for: the
// instruction set level or the subgroup sizes, and the width it runs at.
func selectorText(s schema.Selector) string {
	sub := "any device"
	switch {
	case s.ISA != "":
		sub = "instruction set " + s.ISA
	case s.SubgroupMin != 0:
		sub = fmt.Sprintf("subgroups of %d to %d lanes", s.SubgroupMin, s.SubgroupMax)
	}
	width := "the declared or the subgroup size"
	if s.Width != 0 {
		width = fmt.Sprint(s.Width)
	}
	return fmt.Sprintf("%s, width %s", sub, width)
}
