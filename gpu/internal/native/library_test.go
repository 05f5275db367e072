package native

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// TestSymbols binds random functions of a library some of whose symbols
// are missing: each before the first missing one is bound to its
// address and named, none after it, and the error is the first's.
func TestSymbols(t *testing.T) {
	r := rand.New(rand.NewPCG(rand.Uint64(), 7))
	for range 50 {
		n := 1 + r.IntN(10)
		missing := r.IntN(n + 1) // n: none missing
		addrs := map[string]uintptr{}
		for i := range n {
			if i != missing {
				addrs[fmt.Sprint("sym", i)] = uintptr(1 + r.Uint32())
			}
		}
		bound := map[*Fn[func() uint32]]uintptr{}
		s := &Symbols{
			Find: func(name string) (uintptr, error) {
				if a, ok := addrs[name]; ok {
					return a, nil
				}
				return 0, errors.New("no " + name)
			},
			Register: func(fptr any, addr uintptr) {
				for fn := range bound {
					if fptr == any(&fn.Call) {
						bound[fn] = addr
					}
				}
			},
			Missing: func(name string) error { return errors.New("lacks " + name) },
		}
		fns := make([]Fn[func() uint32], n)
		for i := range fns {
			bound[&fns[i]] = 0
		}
		for i := range fns {
			BindFn(s, &fns[i], fmt.Sprint("sym", i))
		}
		for i := range fns {
			name := fmt.Sprint("sym", i)
			want := addrs[name]
			if i >= missing {
				want = 0
			}
			if got := bound[&fns[i]]; got != want || fns[i].Name != name {
				t.Fatalf("symbol %d of %d, %d missing: bound to %#x named %q, want %#x", i, n, missing, got, fns[i].Name, want)
			}
		}
		if want := fmt.Sprint("lacks sym", missing); (missing < n) != (s.Err != nil) || s.Err != nil && s.Err.Error() != want {
			t.Fatalf("%d of %d missing: error %v, want %q", missing, n, s.Err, want)
		}
	}
}

// TestLibraries checks that a library opens once per path, its error
// kept.
func TestLibraries(t *testing.T) {
	var ls Libraries[int]
	opens := map[string]int{}
	open := func(path string) (int, error) {
		opens[path]++
		if strings.HasPrefix(path, "bad") {
			return 0, errors.New("cannot open " + path)
		}
		return len(path), nil
	}
	for range 3 {
		for _, p := range []string{"a", "bb", "bad"} {
			v, err := ls.Load(p, open)
			if strings.HasPrefix(p, "bad") != (err != nil) || err == nil && v != len(p) {
				t.Fatalf("%s: %d, %v", p, v, err)
			}
		}
	}
	for p, n := range opens {
		if n != 1 {
			t.Errorf("%s opened %d times", p, n)
		}
	}
}

// TestOrdinal checks the device ordinal of the environment: unset is 0,
// a number is itself, anything else is an error naming the variable.
func TestOrdinal(t *testing.T) {
	const name = "XPU_NATIVETEST_DEVICE"
	n := rand.IntN(100)
	for s, want := range map[string]int{"": 0, strconv.Itoa(n): n, "-1": -1, "one": -1} {
		t.Setenv(name, s)
		got, err := Ordinal("x", name)
		if want < 0 {
			if err == nil || !strings.Contains(err.Error(), "x: "+name) {
				t.Errorf("%q: %d, %v; want an error", s, got, err)
			}
		} else if err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", s, got, err, want)
		}
	}
}

// TestRefusal checks that a refusal lists what each artifact of the
// device's backend lacks, in order, and names the kernel and the device.
func TestRefusal(t *testing.T) {
	info := driver.Info{Backend: schema.BackendCUDA, Native: schema.TargetPTX, Name: "dev", ISA: "sm_75"}
	k := &driver.Kernel{Name: "k", Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendCUDA, Target: schema.TargetPTX}, Selector: schema.Selector{ISA: "sm_80"}},
		{Manifest: schema.Manifest{Backend: schema.BackendHIP, Target: schema.TargetHSACO}, Selector: schema.Selector{ISA: "gfx90a"}},
		{Manifest: schema.Manifest{Backend: schema.BackendCUDA, Target: schema.TargetHSACO}, Selector: schema.Selector{ISA: "sm_90"}},
	}}
	need := func(a *schema.Artifact) string { return "[" + a.Selector.ISA + "]" }
	want := "x: kernel k: its ptx artifacts need [sm_80], target hsaco (the driver runs ptx); the device dev is sm_75"
	if err := Refusal("x", info, k, "need", need); err == nil || err.Error() != want {
		t.Errorf("refusal %v, want %q", err, want)
	}
	k.Artifacts = k.Artifacts[1:2]
	if err := Refusal("x", info, k, "need", need); err == nil || err.Error() != "x: kernel k: no ptx artifact" {
		t.Errorf("refusal of no ptx artifact: %v", err)
	}
}
