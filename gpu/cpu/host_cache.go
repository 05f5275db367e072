//go:build (linux || darwin) && (amd64 || arm64)

package cpu

// This file writes a host-tier shared object to the cache folder, where
// the loader can open it: once per content, named by its hash, and
// atomically, so that no process ever opens half a file.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// cacheDir returns the folder host code is cached in: d's setting, else
// xpu/host in the user's cache folder.
func (d *device) cacheDir() (string, error) {
	if d.cache != "" {
		return d.cache, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "xpu", "host"), nil
}

// hostFile returns the path of a file holding code, named by its sum. A
// file of that name in the cache folder is used when it holds exactly
// code; one that does not (cut short, changed) is replaced. Where the
// cache cannot be written, the file is written to a temporary folder,
// which done removes once the caller has loaded it; done is never nil.
func (d *device) hostFile(code string, sum [sha256.Size]byte) (path string, done func(), err error) {
	name := hex.EncodeToString(sum[:]) + ".so"
	dir, err := d.cacheDir()
	if err == nil {
		path = filepath.Join(dir, name)
		if old, rerr := os.ReadFile(path); rerr == nil && string(old) == code {
			return path, func() {}, nil
		}
		if err = writeAtomic(dir, name, code); err == nil {
			return path, func() {}, nil
		}
	}
	tmp, terr := os.MkdirTemp("", "xpu-host-")
	if terr == nil {
		if terr = writeAtomic(tmp, name, code); terr == nil {
			return filepath.Join(tmp, name), func() { os.RemoveAll(tmp) }, nil
		}
		os.RemoveAll(tmp)
	}
	return "", nil, fmt.Errorf("no folder to write it to: the cache: %w; a temporary folder: %w", err, terr)
}

// writeAtomic writes data to dir/name through a temporary file in dir
// renamed over it, so that a reader sees the old file or the whole new
// one.
func writeAtomic(dir, name, data string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, name+".*.tmp")
	if err != nil {
		return err
	}
	_, werr := f.WriteString(data)
	if err := errors.Join(werr, f.Chmod(0o644), f.Close()); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
