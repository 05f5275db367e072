package fuzz

import (
	"testing"
)

// FuzzPipeline runs kernel sources through the whole generator (see
// checkPipeline), from the project's kernels and the front end's test
// sources.
func FuzzPipeline(f *testing.F) {
	seeds, err := sourceSeeds()
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkPipeline(t, src, false)
	})
}

// FuzzGenerated runs the kernels [Source] writes from the fuzzer's bytes
// through the whole generator; every one must pass the front end.
func FuzzGenerated(f *testing.F) {
	for _, s := range generatorSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPipeline(t, Source(data), true)
	})
}
