package wgslgen_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/goxpu/xpu/codegen/wgslgen"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden checks the WGSL of every test kernel against
// testdata/<name>.wgsl (go test -update rewrites them), and that lowering
// the same kernel again prints the same text.
func TestGolden(t *testing.T) {
	for _, tk := range testKernels {
		t.Run(tk.name, func(t *testing.T) {
			got, err := wgslgen.Generate(tk.ir())
			if err != nil {
				t.Fatal(err)
			}
			again, err := wgslgen.Generate(tk.ir())
			if err != nil || again != got {
				t.Fatalf("second lowering differs (%v)", err)
			}
			path := filepath.Join("testdata", tk.name+".wgsl")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (go test -update creates it)", err)
			}
			if got != string(want) {
				t.Errorf("WGSL differs from %s:\n%s", path, got)
			}
		})
	}
}
