package corpus_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/corpus"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/gpu/launchfile"
	"github.com/goxpu/xpu/kernels/conformance"
)

const (
	saxpy    = "github.com/goxpu/xpu/kernels/conformance.Saxpy"
	intArith = "github.com/goxpu/xpu/kernels/conformance.IntArith"
	n        = 1000 // elements of the recorded launches
)

// recorded is a corpus of two launches, a Saxpy and an IntArith, and
// what went into them.
type recorded struct {
	dir         string // the recording's folder
	y, x        []float32
	a, b        []int32
	yOut        []float32 // what the device left in y
	outOut      []int32   // ... and in IntArith's out
	saxpyFile   string
	intArthFile string
}

// record launches Saxpy and IntArith on d, recording, on fresh random
// inputs with poisoned outputs.
func record(t *testing.T, d *gpu.Device) *recorded {
	t.Helper()
	r := rand.New(rand.NewPCG(rand.Uint64(), 1))
	c := &recorded{y: gputest.Floats(r, n, -1, 1), x: gputest.Floats(r, n, -1, 1), a: gputest.Ints(r, n, -1000, 1000), b: gputest.Ints(r, n, 1, 100)}
	if err := d.SetRecord(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	defer d.SetRecord("")
	c.dir = d.Recording()
	y := upload(t, d, c.y)
	x := upload(t, d, c.x)
	a := upload(t, d, c.a)
	b := upload(t, d, c.b)
	out := upload(t, d, slices.Repeat([]int32{-0x21524111}, 5*n))
	s := d.Stream()
	if err := conformance.LaunchSaxpy(s, xpu.Dim3{X: xpu.GroupsFor(n, 256)}, y, x, 0.75, n); err != nil {
		t.Fatal(err)
	}
	if err := conformance.LaunchIntArith(s, xpu.Dim3{X: xpu.GroupsFor(n, 64)}, out, a, b, n); err != nil {
		t.Fatal(err)
	}
	var err error
	if c.yOut, err = y.Download(); err != nil {
		t.Fatal(err)
	}
	if c.outOut, err = out.Download(); err != nil {
		t.Fatal(err)
	}
	c.saxpyFile = filepath.Join(c.dir, "000001"+launchfile.Ext)
	c.intArthFile = filepath.Join(c.dir, "000002"+launchfile.Ext)
	return c
}

func upload[T any](t *testing.T, d *gpu.Device, data []T) *gpu.Buffer[T] {
	t.Helper()
	b, err := gpu.Upload(d, data)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

// TestRecordLaunch checks what a recorded launch's file holds against
// what the program gave the launch and read back after it.
func TestRecordLaunch(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		c := record(t, d)
		files, _ := filepath.Glob(filepath.Join(c.dir, "*"))
		if len(files) != 2 {
			t.Fatalf("recording holds %v, want two launch files", files)
		}
		h, payload, err := launchfile.Read(c.saxpyFile)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := d.Manifest(conformance.SaxpyKernel)
		if !ok {
			t.Fatal("no manifest of Saxpy on the device")
		}
		if h.Index != 1 || h.Kernel != saxpy || h.Hash != m.Hash || h.Backend != string(m.Backend) || h.Target != string(m.Target) ||
			h.Grid != [3]uint32{xpu.GroupsFor(n, 256), 1, 1} || h.Block != [3]uint32{256, 1, 1} || h.Device != d.TraceName() {
			t.Errorf("header %+v, want launch 1 of %s, code %s %s %s, grid %d, on %s", h, saxpy, m.Backend, m.Target, m.Hash, xpu.GroupsFor(n, 256), d.TraceName())
		}
		if len(h.Params) != 4 {
			t.Fatalf("%d parameters recorded, want 4", len(h.Params))
		}
		y, x, a, nn := h.Params[0], h.Params[1], h.Params[2], h.Params[3]
		if !bytes.Equal(y.In.Slice(payload), floatBytes(c.y)) || y.Out == nil || !bytes.Equal(y.Out.Slice(payload), floatBytes(c.yOut)) {
			t.Error("y: the recorded contents are not those before and after the launch")
		}
		if !bytes.Equal(x.In.Slice(payload), floatBytes(c.x)) || x.Out != nil {
			t.Error("x: want its contents before the launch and none after (the kernel only reads it)")
		}
		if !a.Scalar || a.Bits != math.Float32bits(0.75) || !nn.Scalar || nn.Bits != n || a.Type != "float32" || nn.Type != "uint32" {
			t.Errorf("scalars recorded as %+v and %+v, want a=0.75 and n=%d", a, nn, n)
		}
	})
}

func floatBytes(s []float32) []byte {
	var b []byte
	for _, v := range s {
		b = append(b, byte(math.Float32bits(v)), byte(math.Float32bits(v)>>8), byte(math.Float32bits(v)>>16), byte(math.Float32bits(v)>>24))
	}
	return b
}

// TestReplayVerdicts edits a recorded corpus and checks each verdict the
// replay gives: the edits a replay must fail (a corrupted output, a
// changed hash, a kernel the program does not link, a stale hold, a file
// of another version), and those it must pass.
func TestReplayVerdicts(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		c := record(t, d)
		// The reference's own results in the Saxpy file, so that the
		// replay of an unedited corpus agrees exactly on any device.
		edit(t, c.saxpyFile, func(h *launchfile.Header, payload []byte) {
			y := slices.Clone(c.y)
			if err := conformance.SaxpyKernel.Reference(xpu.Dim3{X: h.Grid[0]}, y, slices.Clone(c.x), float32(0.75), uint32(n)); err != nil {
				t.Fatal(err)
			}
			copy(h.Params[0].Out.Slice(payload), floatBytes(y))
		})
		j := rand.IntN(n)
		for _, tc := range []struct {
			name  string
			holds corpus.Holds
			edit  func(h *launchfile.Header, payload []byte) // of the Saxpy file
			ints  func(h *launchfile.Header, payload []byte) // of the IntArith file
			raw   func(data []byte) []byte                   // of the Saxpy file's bytes
			check func(t *testing.T, r *corpus.Report)
		}{{
			name: "unedited",
			check: func(t *testing.T, r *corpus.Report) {
				if err := r.Err(); err != nil || r.Launches[0].Outcome != corpus.Agree || r.Launches[1].Outcome != corpus.Agree {
					t.Errorf("replay: %v, want both launches to agree", err)
				}
			},
		}, {
			name: "float corrupted beyond the hold",
			edit: flipBit(j, 20),
			check: func(t *testing.T, r *corpus.Report) {
				wantDiff(t, r, 0, corpus.Mismatch, "y", j, corpus.ErrMismatch)
			},
		}, {
			name:  "float within the hold",
			holds: corpus.Holds{saxpy: {ULP: 1, Why: "a*x+y may be fused"}},
			edit:  flipBit(j, 0),
			check: func(t *testing.T, r *corpus.Report) {
				v := r.Launches[0]
				if err := r.Err(); err != nil || v.Outcome != corpus.Held || v.ULP != 1 || r.Holds[0].Stale {
					t.Errorf("replay: %v; Saxpy %v at %d ulp, hold %+v; want it held at 1 ulp, the hold not stale", err, v.Outcome, v.ULP, r.Holds[0])
				}
			},
		}, {
			name:  "integer corrupted in a held kernel",
			holds: corpus.Holds{intArith: {ULP: 4, Why: "no reason: integers are exact anyway"}},
			ints:  flipBit(5*j+3, 0),
			check: func(t *testing.T, r *corpus.Report) {
				wantDiff(t, r, 1, corpus.Mismatch, "out", 5*j+3, corpus.ErrMismatch)
			},
		}, {
			name: "hash changed",
			edit: func(h *launchfile.Header, _ []byte) { h.Hash = "sha256:" + strings.Repeat("0", 64) },
			check: func(t *testing.T, r *corpus.Report) {
				wantOutcome(t, r, 0, corpus.Changed, corpus.ErrChanged, saxpy)
			},
		}, {
			name: "kernel not linked",
			edit: func(h *launchfile.Header, _ []byte) { h.Kernel = "example.com/gone.Saxpy" },
			check: func(t *testing.T, r *corpus.Report) {
				wantOutcome(t, r, 0, corpus.Missing, gpu.ErrNoCode, "example.com/gone.Saxpy")
			},
		}, {
			name:  "hold of a kernel that agrees exactly",
			holds: corpus.Holds{saxpy: {ULP: 2, Why: "fused"}},
			check: func(t *testing.T, r *corpus.Report) { wantStale(t, r, "agree exactly") },
		}, {
			name:  "hold looser than the corpus needs",
			holds: corpus.Holds{saxpy: {ULP: 3, Why: "fused"}},
			edit:  flipBit(j, 0),
			check: func(t *testing.T, r *corpus.Report) { wantStale(t, r, "need 1: tighten") },
		}, {
			name:  "hold of a kernel not in the corpus",
			holds: corpus.Holds{"example.com/other.Kernel": {ULP: 2, Why: "fused"}},
			check: func(t *testing.T, r *corpus.Report) { wantStale(t, r, "no launch of it") },
		}, {
			name: "another version",
			raw: func(data []byte) []byte {
				return bytes.Replace(data, []byte(launchfile.Magic), []byte("xpu-launch 2"), 1)
			},
			check: func(t *testing.T, r *corpus.Report) {
				wantOutcome(t, r, 0, corpus.Failed, launchfile.ErrFormat, "xpu-launch 2")
			},
		}, {
			name: "payload cut short",
			raw:  func(data []byte) []byte { return data[:len(data)-4] },
			check: func(t *testing.T, r *corpus.Report) {
				wantOutcome(t, r, 0, corpus.Failed, launchfile.ErrFormat, "buffer y")
			},
		}} {
			t.Run(tc.name, func(t *testing.T) {
				dir := t.TempDir()
				for _, f := range []string{c.saxpyFile, c.intArthFile} {
					data, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					if tc.raw != nil && f == c.saxpyFile {
						data = tc.raw(data)
					}
					if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if tc.edit != nil {
					edit(t, filepath.Join(dir, filepath.Base(c.saxpyFile)), tc.edit)
				}
				if tc.ints != nil {
					edit(t, filepath.Join(dir, filepath.Base(c.intArthFile)), tc.ints)
				}
				holds := tc.holds
				if holds == nil {
					holds = corpus.Holds{}
				}
				r, err := corpus.Replay(dir, corpus.Options{Holds: holds})
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Launches) != 2 {
					t.Fatalf("%d launches replayed, want 2", len(r.Launches))
				}
				tc.check(t, r)
				if t.Failed() {
					logReport(t, r)
				}
			})
		}
	})
}

// edit rewrites the launch file at path as f edits its header and
// payload.
func edit(t *testing.T, path string, f func(h *launchfile.Header, payload []byte)) {
	t.Helper()
	h, payload, err := launchfile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	f(h, payload)
	var b bytes.Buffer
	if err := launchfile.Write(&b, h, payload); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// flipBit returns an edit that flips bit of element i of the first
// buffer's recorded output.
func flipBit(i, bit int) func(h *launchfile.Header, payload []byte) {
	return func(h *launchfile.Header, payload []byte) {
		out := h.Params[0].Out.Slice(payload)
		out[4*i+bit/8] ^= 1 << (bit % 8)
	}
}

func wantDiff(t *testing.T, r *corpus.Report, launch int, o corpus.Outcome, buffer string, elem int, sentinel error) {
	t.Helper()
	v := r.Launches[launch]
	if v.Outcome != o || v.Differ != 1 || len(v.Diffs) != 1 || v.Diffs[0].Buffer != buffer || v.Diffs[0].Element != elem {
		t.Errorf("launch %d: %v with %d words differing, %v; want %v of %s[%d] alone", launch, v.Outcome, v.Differ, v.Diffs, o, buffer, elem)
	}
	if err := r.Err(); !errors.Is(err, sentinel) || !strings.Contains(err.Error(), v.Kernel) {
		t.Errorf("replay: %v, want an error naming %s and wrapping %v", err, v.Kernel, sentinel)
	}
}

func wantOutcome(t *testing.T, r *corpus.Report, launch int, o corpus.Outcome, sentinel error, names string) {
	t.Helper()
	v := r.Launches[launch]
	if v.Outcome != o || !errors.Is(v.Err, sentinel) || !strings.Contains(v.Err.Error(), names) {
		t.Errorf("launch %d: %v: %v; want %v naming %q, wrapping %v", launch, v.Outcome, v.Err, o, names, sentinel)
	}
	if err := r.Err(); !errors.Is(err, sentinel) {
		t.Errorf("replay: %v, want an error wrapping %v", err, sentinel)
	}
	if other := r.Launches[1-launch]; other.Outcome != corpus.Agree {
		t.Errorf("the unedited launch: %v: %v", other.Outcome, other.Err)
	}
}

func wantStale(t *testing.T, r *corpus.Report, why string) {
	t.Helper()
	err := r.Err()
	if len(r.Holds) != 1 || !r.Holds[0].Stale || !errors.Is(err, corpus.ErrStale) || !strings.Contains(err.Error(), why) {
		t.Errorf("replay: %v; holds %+v; want the hold stale: %q", err, r.Holds, why)
	}
	for _, v := range r.Launches {
		if v.Err != nil {
			t.Errorf("%s: %v", v.Path, v.Err)
		}
	}
}

// TestReplayCorpusRefused checks the corpora a replay refuses whole: no
// launch in it, a holds file that holds nothing.
func TestReplayCorpusRefused(t *testing.T) {
	empty := t.TempDir()
	if _, err := corpus.Replay(empty, corpus.Options{}); err == nil || !strings.Contains(err.Error(), "no launch file") {
		t.Errorf("replay of an empty folder: %v, want an error saying it holds no launch", err)
	}
	if _, err := corpus.Replay(filepath.Join(empty, "absent"), corpus.Options{}); err == nil {
		t.Error("replay of a missing folder: no error")
	}
	for _, holds := range []string{`{"k.K": {"ulp": 0, "why": "x"}}`, `{"k.K": {"ulp": 2}}`, `{"k.K": {"ulp": 2, "why": "x", "rel": 1}}`, `[]`} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, corpus.HoldsFile), []byte(holds), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := corpus.Replay(dir, corpus.Options{}); !errors.Is(err, corpus.ErrHolds) {
			t.Errorf("holds %s: %v, want an error wrapping ErrHolds", holds, err)
		}
	}
}
