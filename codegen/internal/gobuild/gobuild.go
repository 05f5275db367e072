// Package gobuild compiles and vets Go packages of the module with some
// files replaced or added (the go command's -overlay), for the tests that
// check that what the generator writes builds without writing it into the
// tree.
package gobuild

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// Check runs go build, then go vet, on the packages pkgs (directories, as
// the go command takes them) as if each file of files (a path to its
// contents) were on disk; tmp is a directory for the overlay. The error
// carries the go command's output.
func Check(tmp string, files map[string][]byte, pkgs ...string) error {
	overlay := struct{ Replace map[string]string }{Replace: map[string]string{}}
	i := 0
	for path, src := range files {
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		f := filepath.Join(tmp, strconv.Itoa(i)+".go")
		i++
		if err := os.WriteFile(f, src, 0o644); err != nil {
			return err
		}
		overlay.Replace[abs] = f
	}
	js, err := json.Marshal(overlay)
	if err != nil {
		return err
	}
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, js, 0o644); err != nil {
		return err
	}
	for _, tool := range []string{"build", "vet"} {
		cmd := exec.Command("go", append([]string{tool, "-overlay=" + ov}, pkgs...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %w\n%s", tool, err, out)
		}
	}
	return nil
}
