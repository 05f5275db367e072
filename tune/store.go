package tune

// This file is the store: one small file per device, family and problem
// bucket, whose first line names the winning member. Its folder names
// what the entry was measured for (the device key's digest, the family,
// the bucket and the build id of the survivors' code), so that a read
// needs no parser: a stale entry is a file of another build, removed by
// deleting it, and a store copied to another device is another device's
// folder, never read there.

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goxpu/xpu/gpu"
)

// A Store remembers choices in a folder.
type Store struct {
	dir string
}

// deviceFile is the file of a device's folder that holds its key
// spelled out (gpu.DeviceKey.String), to be read by people and checked
// against the device that reads the folder.
const deviceFile = "device"

// OpenStore returns the store in dir, creating the folder when it can. A
// folder that cannot be written still serves its entries: the choices
// measured then are remembered for the process only (see [Choice]).
func OpenStore(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("tune: OpenStore of an empty folder name")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if _, serr := os.Stat(dir); serr != nil {
			return nil, fmt.Errorf("tune: store: %w", err)
		}
	}
	return &Store{dir: dir}, nil
}

// StoreEnv is the environment variable that places the default store:
// a folder, or "off" for none (the test suites run with it off).
const StoreEnv = "XPU_TUNE_STORE"

// DefaultStore returns the store in $XPU_TUNE_STORE, or when it is not
// set, in the folder "xpu/tune" of the user's cache folder; nil (and no
// error) when XPU_TUNE_STORE is "off".
func DefaultStore() (*Store, error) {
	dir := os.Getenv(StoreEnv)
	switch dir {
	case "off":
		return nil, nil
	case "":
		cache, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("tune: no default store: %w", err)
		}
		dir = filepath.Join(cache, "xpu", "tune")
	}
	return OpenStore(dir)
}

// Dir returns the store's folder.
func (s *Store) Dir() string { return s.dir }

// digest returns the first 16 hex digits of the SHA-256 of text.
func digest(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:8])
}

// deviceDir returns the folder of dev's entries.
func (s *Store) deviceDir(dev gpu.DeviceKey) string {
	return filepath.Join(s.dir, digest(dev.String()))
}

// entryPath returns the file of an entry; a bucket's files differ in
// their build alone.
func (s *Store) entryPath(dev gpu.DeviceKey, family string, key Key, build string) string {
	return filepath.Join(s.deviceDir(dev), filepath.FromSlash(family), string(key)+"@"+build)
}

// lookup returns the member stored for (dev, family, key) at build, or
// "" when there is none; members are the family's members' names. It
// removes the bucket's entries of other builds and says so in notes,
// naming the hint of an entry whose member no longer exists.
func (s *Store) lookup(dev gpu.DeviceKey, family string, key Key, build string, members []string) (member string, notes []string) {
	if !s.deviceIsOurs(dev) {
		return "", nil
	}
	want := s.entryPath(dev, family, key, build)
	others, _ := filepath.Glob(filepath.Join(filepath.Dir(want), globEscape(string(key))+"@*"))
	for _, p := range others {
		if p == want {
			continue
		}
		old := firstLine(p)
		switch {
		case old != "" && !slices.Contains(members, old):
			notes = append(notes, fmt.Sprintf("store: the hint %s for %s is dropped: no such member", Short(old), key))
		default:
			notes = append(notes, fmt.Sprintf("store: the entry for %s of another build is removed", key))
		}
		if err := os.Remove(p); err != nil {
			notes = append(notes, fmt.Sprintf("store: %v", err))
		}
	}
	member = firstLine(want)
	if member != "" && !slices.Contains(members, member) {
		notes = append(notes, fmt.Sprintf("store: the hint %s for %s is dropped: no such member", Short(member), key))
		os.Remove(want)
		return "", notes
	}
	return member, notes
}

// deviceIsOurs reports whether dev's folder holds no device file or one
// naming dev: a digest shared by another key is not read.
func (s *Store) deviceIsOurs(dev gpu.DeviceKey) bool {
	b, err := os.ReadFile(filepath.Join(s.deviceDir(dev), deviceFile))
	return err != nil || strings.TrimSpace(string(b)) == dev.String()
}

// save records member as the choice for (dev, family, key) at build,
// with detail, a line for people, after it.
func (s *Store) save(dev gpu.DeviceKey, family string, key Key, build, member, detail string) error {
	if !s.deviceIsOurs(dev) {
		return fmt.Errorf("store: %s holds another device's entries", s.deviceDir(dev))
	}
	p := s.entryPath(dev, family, key, build)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if err := writeFile(filepath.Join(s.deviceDir(dev), deviceFile), dev.String()+"\n"); err != nil {
		return err
	}
	return writeFile(p, member+"\n"+detail+"\n")
}

// writeFile writes text to path by renaming a file written beside it, so
// that a reader sees the old entry or the new one, never a part.
func writeFile(path, text string) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".entry-*")
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// firstLine returns the first line of the file at path, trimmed; "" when
// it cannot be read.
func firstLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return ""
	}
	return strings.TrimSpace(sc.Text())
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// An Entry is one remembered choice, as [Store.Entries] reads it back.
type Entry struct {
	Device string // the device's key, spelled out; "" where its folder has no device file
	Family string
	Key    Key
	Build  string // the build id's digest
	Member string
	Detail string // the line written after it: survivors, margin, rounds
}

// Entries returns every entry of the store, sorted by device, family and
// key.
func (s *Store) Entries() ([]Entry, error) {
	var es []Entry
	devs, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("tune: store: %w", err)
	}
	for _, dev := range devs {
		if !dev.IsDir() {
			continue
		}
		root := filepath.Join(s.dir, dev.Name())
		key, _ := os.ReadFile(filepath.Join(root, deviceFile))
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || p == filepath.Join(root, deviceFile) || strings.HasPrefix(e.Name(), ".") {
				return err
			}
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			bucket, build, ok := strings.Cut(e.Name(), "@")
			if !ok {
				return nil
			}
			lines := strings.SplitN(readText(p), "\n", 3)
			ent := Entry{Device: strings.TrimSpace(string(key)), Family: filepath.ToSlash(rel), Key: Key(bucket), Build: build,
				Member: strings.TrimSpace(lines[0])}
			if len(lines) > 1 {
				ent.Detail = strings.TrimSpace(lines[1])
			}
			es = append(es, ent)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("tune: store: %w", err)
		}
	}
	slices.SortFunc(es, func(a, b Entry) int {
		return strings.Compare(a.Device+"\x00"+a.Family+"\x00"+string(a.Key), b.Device+"\x00"+b.Family+"\x00"+string(b.Key))
	})
	return es, nil
}

func readText(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}
