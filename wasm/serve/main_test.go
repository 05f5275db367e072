//go:build unix

package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSignalCleanup starts the server, waits until it serves, and
// stops it with SIGTERM and with SIGINT: each time it must exit and
// leave no build folder in the temporary directory.
func TestSignalCleanup(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := filepath.Join(t.TempDir(), "serve")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-pkg", "./testdata/hello")
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			serving := make(chan bool, 1)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					if strings.HasPrefix(sc.Text(), "serving ") {
						serving <- true
						break
					}
				}
				serving <- false
			}()
			select {
			case ok := <-serving:
				if !ok {
					t.Fatal("the server exited before it served")
				}
			case <-time.After(3 * time.Minute):
				t.Fatal("the server did not serve within 3 minutes")
			}
			if left := buildFolders(t, tmp); len(left) != 1 {
				t.Fatalf("build folders while serving: %v, want one", left)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("the server exited with %v after %v", err, sig)
				}
			case <-time.After(time.Minute):
				_ = cmd.Process.Kill()
				t.Fatalf("the server did not exit within a minute of %v", sig)
			}
			if left := buildFolders(t, tmp); len(left) != 0 {
				t.Errorf("build folders left after %v: %v", sig, left)
			}
		})
	}
}

// buildFolders returns serve's build folders in dir.
func buildFolders(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "xpu-wasm-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
