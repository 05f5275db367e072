package browserbench_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// tfjsPackages are the npm packages of tfjs the benchmark loads, pinned.
var tfjsPackages = []string{"@tensorflow/tfjs-core@4.22.0", "@tensorflow/tfjs-backend-webgpu@4.22.0"}

// tfjsScripts are the files of tfjsPackages the page runs, in order.
var tfjsScripts = []string{
	"node_modules/@tensorflow/tfjs-core/dist/tf-core.min.js",
	"node_modules/@tensorflow/tfjs-backend-webgpu/dist/tf-backend-webgpu.min.js",
}

// TFJSEnv names the environment variable that gives the folder tfjs is
// installed into; the default is a folder of the user's cache.
const TFJSEnv = "XPU_TFJS_DIR"

// tfjs returns the sources of tfjsScripts, installing tfjsPackages with
// npm into their folder first when they are not there yet.
func tfjs(ctx context.Context) ([]string, error) {
	dir := os.Getenv(TFJSEnv)
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return nil, err
		}
		dir = filepath.Join(cache, "xpu", "tfjs-4.22.0")
	}
	if _, err := os.Stat(filepath.Join(dir, tfjsScripts[len(tfjsScripts)-1])); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			return nil, fmt.Errorf("npm is needed to install tfjs: %w", err)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		args := append([]string{"install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir}, tfjsPackages...)
		if out, err := exec.CommandContext(ctx, npm, args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("npm %v: %w\n%s", args, err, out)
		}
	}
	var srcs []string
	for _, f := range tfjsScripts {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		srcs = append(srcs, string(b))
	}
	return srcs, nil
}
