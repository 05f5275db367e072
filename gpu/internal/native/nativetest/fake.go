package nativetest

// This file builds a driver's fake library, a shared object of C that
// answers the library's calls, with gcc.

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Fake is a fake library built once per test process; the zero Fake is
// unbuilt.
type Fake struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// Build returns the path of the library name built from the C source
// src, building it the first time, then calling bind with its path (to
// bind the functions by which a test sets the fake's facts); it skips t
// where gcc is missing.
func (f *Fake) Build(t testing.TB, src, name string, bind func(path string) error) string {
	t.Helper()
	f.once.Do(func() {
		gcc, err := exec.LookPath("gcc")
		if err != nil {
			f.err = err
			return
		}
		if f.dir, err = os.MkdirTemp("", "fake"); err != nil {
			f.err = err
			return
		}
		f.path = filepath.Join(f.dir, name)
		out, err := exec.Command(gcc, "-shared", "-fPIC", "-O2", "-Wall", "-o", f.path, src, "-lpthread").CombinedOutput()
		if err != nil {
			f.err = &buildError{err, string(out)}
			return
		}
		f.err = bind(f.path)
	})
	if _, ok := f.err.(*exec.Error); ok {
		t.Skipf("no gcc to build the fake library %s: %v", name, f.err)
	}
	if f.err != nil {
		t.Fatalf("building the fake library %s: %v", name, f.err)
	}
	return f.path
}

// Remove removes the built library, for a TestMain after the tests.
func (f *Fake) Remove() {
	if f.dir != "" {
		os.RemoveAll(f.dir)
	}
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }
