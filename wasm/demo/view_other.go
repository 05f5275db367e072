//go:build !js

package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
)

// view prints the report.
type view struct{}

func newView() *view { return &view{} }

// show prints nothing until the end.
func (*view) show(*Report) {}

// done prints r.
func (*view) done(r *Report) {
	text, _ := status(r)
	fmt.Println(text)
	if r.Backend != "" {
		fmt.Printf("device: %s %s (%s, %s)\n", r.Backend, r.Device.Name, r.Device.Driver, r.Device.Type)
		for _, k := range slices.Sorted(maps.Keys(r.Device.Facts)) {
			fmt.Printf("  %s: %s\n", k, r.Device.Facts[k])
		}
	}
	for _, s := range r.Suites {
		for _, o := range s.Outcomes {
			if o.Status != "pass" {
				fmt.Fprintf(os.Stderr, "%s %s: %s %s\n", s.Name, o.Case, o.Status, o.Error)
			}
		}
	}
	for _, b := range r.Bench {
		fmt.Printf("%s: %.2f %s on the device, %.2f in a Go loop (%.2f×)\n", b.Name, b.Device, b.Unit, b.Reference, b.Device/b.Reference)
	}
	for _, t := range r.Tune {
		if t.Error != "" {
			fmt.Fprintf(os.Stderr, "tune %s: %s\n", t.Shape, t.Error)
			continue
		}
		fmt.Printf("tune %s (%s): %s, %s; again: %s\n", t.Shape, t.Key, t.Chosen, t.Source, t.Again)
	}
}
