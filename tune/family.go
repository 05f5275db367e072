package tune

// This file defines a family: the members a tuner chooses among, the
// problem key that buckets its problems, what a member needs at a
// problem's shape, and the probe that times it there.

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// A Family is kernels that solve one problem P, of which a [Tuner]
// chooses one per device and problem bucket. Members are as a rule a
// template's (gpu.Template.Members), in the family's order of
// preference: among survivors that tie, and where nothing is measured
// (a pinned tuner), the earlier member is taken.
type Family[P any] struct {
	// Name names the family in the store and in messages: by convention
	// its template's name, "importpath.Tiled". It is a slash-separated
	// path of letters, digits, '.', '_' and '-'.
	Name    string
	Members []*gpu.Kernel

	// Key returns the bucket of a problem: the problems whose keys are
	// equal share one measured choice. The family states the rule, as a
	// GEMM's powers of two of M, N and K:
	//
	//	Key: func(p Shape) tune.Key {
	//		return tune.KeyOf(tune.Dim{"M", tune.Pow2(p.M)}, tune.Dim{"N", tune.Pow2(p.N)}, tune.Dim{"K", tune.Pow2(p.K)})
	//	}
	Key func(p P) Key

	// Need returns what member k needs to run p beyond what its code
	// declares: its grid and dynamic shared memory, its largest buffer.
	// Nil: nothing beyond the code.
	Need func(k *gpu.Kernel, p P) Need

	// Probe prepares p on s for timing, allocating and filling its
	// operands once, and returns run, which records one launch of member
	// k at p on s (without syncing), and release, which frees what Probe
	// allocated (nil for nothing). A family that is only ever given one
	// survivor may leave it nil.
	Probe func(s *gpu.Stream, p P) (run func(k *gpu.Kernel) error, release func(), err error)

	// Shapes are the problems `xpu tune` runs the family over.
	Shapes []P
}

// Need is what a member needs to run one problem, beyond its code.
type Need struct {
	// Groups is the launch's grid of blocks; zero where it is not known.
	Groups xpu.Dim3
	// DynamicSharedBytes is shared memory sized at launch, added to the
	// code's static shared bytes.
	DynamicSharedBytes int
	// BufferBytes is the size of the largest buffer the launch binds.
	BufferBytes uint64
}

// A Key is a problem's bucket, spelled as named sizes ("M=1024,N=512"):
// what the store files a choice under. Build one with [KeyOf].
type Key string

// A Dim is one named size of a problem key.
type Dim struct {
	Name string // a letter, then letters and digits
	Size int
}

// KeyOf returns the key of dims, in their order.
func KeyOf(dims ...Dim) Key {
	var b strings.Builder
	for i, d := range dims {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(d.Name)
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(d.Size))
	}
	return Key(b.String())
}

// Pow2 returns the least power of two at least n; 1 for n below 2. It is
// a bucketing rule for a size: 65 to 128 share 128.
func Pow2(n int) int {
	if n < 2 {
		return 1
	}
	return 1 << bits.Len(uint(n-1))
}

// check returns an error naming the rule when k cannot name a file: a
// key is a comma-separated list of name=size, a name a letter then
// letters and digits, a size decimal digits.
func (k Key) check() error {
	if k == "" {
		return fmt.Errorf("[tune-key] an empty problem key")
	}
	for _, dim := range strings.Split(string(k), ",") {
		name, size, ok := strings.Cut(dim, "=")
		if !ok || !isName(name) || size == "" || strings.Trim(size, "0123456789") != "" {
			return fmt.Errorf("[tune-key] problem key %q: %q is not name=size (a letter, then letters and digits; decimal digits)", k, dim)
		}
	}
	return nil
}

func isName(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return s != ""
}

// checkFamilyName returns an error naming the rule when name cannot be a
// family's folder in the store.
func checkFamilyName(name string) error {
	if name == "" {
		return fmt.Errorf("[tune-family] a family without a name")
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || seg == "." || seg == ".." || strings.Trim(seg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
			return fmt.Errorf("[tune-family] family name %q: %q is no path element of letters, digits, '.', '_' and '-'", name, seg)
		}
	}
	return nil
}

// check returns why f cannot be tuned, naming the rule.
func (f *Family[P]) check() error {
	if f == nil {
		return fmt.Errorf("[tune-family] a nil family")
	}
	if err := checkFamilyName(f.Name); err != nil {
		return err
	}
	if len(f.Members) == 0 {
		return fmt.Errorf("[tune-family] family %s has no members", f.Name)
	}
	seen := map[string]bool{}
	for i, k := range f.Members {
		if k == nil {
			return fmt.Errorf("[tune-family] family %s: member %d is nil", f.Name, i)
		}
		if seen[k.Name()] {
			return fmt.Errorf("[tune-family] family %s: member %s listed twice", f.Name, k.Name())
		}
		seen[k.Name()] = true
	}
	if f.Key == nil {
		return fmt.Errorf("[tune-family] family %s has no Key", f.Name)
	}
	return nil
}

// A Tunable is a registered family, as `xpu tune` runs it: over its
// shapes, on one stream.
type Tunable interface {
	// FamilyName returns the family's name.
	FamilyName() string
	// NumShapes returns how many shapes TuneShapes runs.
	NumShapes() int
	// TuneShapes chooses the family's member for each of its Shapes on
	// s with t, calling report with the shape, spelled with %v, and its
	// choice or error.
	TuneShapes(t *Tuner, s *gpu.Stream, report func(shape string, c *Choice, err error))
}

// FamilyName returns f.Name.
func (f *Family[P]) FamilyName() string { return f.Name }

// NumShapes returns len(f.Shapes).
func (f *Family[P]) NumShapes() int { return len(f.Shapes) }

// TuneShapes implements [Tunable].
func (f *Family[P]) TuneShapes(t *Tuner, s *gpu.Stream, report func(shape string, c *Choice, err error)) {
	for _, p := range f.Shapes {
		c, err := Choose(t, s, f, p)
		report(fmt.Sprintf("%v", p), c, err)
	}
}

var registered struct {
	sync.Mutex
	families []Tunable
}

// Register records f for `xpu tune` and returns it, so that a package
// declares its family once:
//
//	var Family = tune.Register(&tune.Family[Shape]{...})
func Register[P any](f *Family[P]) *Family[P] {
	registered.Lock()
	defer registered.Unlock()
	registered.families = append(registered.families, f)
	return f
}

// Registered returns the families registered so far, in order.
func Registered() []Tunable {
	registered.Lock()
	defer registered.Unlock()
	return append([]Tunable(nil), registered.families...)
}
