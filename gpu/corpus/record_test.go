package corpus_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/corpus"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/gpu/launchfile"
	"github.com/goxpu/xpu/kernels/conformance"
)

// TestRecordEnv checks that XPU_RECORD makes a device record from its
// open, and that a folder that cannot be made fails the open by name.
func TestRecordEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(gpu.RecordEnv, dir)
	d, err := gpu.OpenBackend("cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if rec := d.Recording(); filepath.Dir(rec) != dir {
		t.Fatalf("recording into %q, want a folder in %s", rec, dir)
	}
	y := upload(t, d, make([]float32, 10))
	x := upload(t, d, make([]float32, 10))
	if err := conformance.LaunchSaxpy(d.Stream(), xpu.Dim3{X: 1}, y, x, 1, 10); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(d.Recording(), "*"+launchfile.Ext)); len(files) != 1 {
		t.Errorf("launch files %v, want one", files)
	}

	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(gpu.RecordEnv, file)
	if d, err := gpu.OpenBackend("cpu"); err == nil || !strings.Contains(err.Error(), gpu.RecordEnv) {
		d.Close()
		t.Errorf("open with %s naming a file: %v, want an error naming %s", gpu.RecordEnv, err, gpu.RecordEnv)
	}
}

// TestRecordRefusedAndStopped checks that a refused launch writes no
// file, and that SetRecord("") stops the recording.
func TestRecordRefusedAndStopped(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		if err := d.SetRecord(t.TempDir()); err != nil {
			t.Fatal(err)
		}
		rec := d.Recording()
		y := upload(t, d, make([]float32, 10))
		x := upload(t, d, make([]float32, 10))
		err := conformance.LaunchSaxpy(d.Stream(), xpu.Dim3{X: 1}, y, x, 1, 11) // len(y)=n refuses
		if !errors.Is(err, gpu.ErrBufferLen) {
			t.Errorf("launch with a short buffer: %v, want ErrBufferLen", err)
		}
		x.Release()
		if err := conformance.LaunchSaxpy(d.Stream(), xpu.Dim3{X: 1}, y, x, 1, 10); !errors.Is(err, gpu.ErrReleased) {
			t.Errorf("launch with a released buffer: %v, want ErrReleased", err)
		}
		if err := d.SetRecord(""); err != nil || d.Recording() != "" {
			t.Fatalf("SetRecord(\"\"): %v, recording into %q", err, d.Recording())
		}
		x = upload(t, d, make([]float32, 10))
		if err := conformance.LaunchSaxpy(d.Stream(), xpu.Dim3{X: 1}, y, x, 1, 10); err != nil {
			t.Fatal(err)
		}
		if files, _ := os.ReadDir(rec); len(files) != 0 {
			t.Errorf("recording holds %d files, want none", len(files))
		}
	})
}

// TestRecordConcurrent records launches made from several goroutines on
// several streams, and checks that each is recorded once with its own
// inputs and outputs: the replay agrees with every one.
func TestRecordConcurrent(t *testing.T) {
	const goroutines, launches = 4, 5
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		dir := t.TempDir()
		if err := d.SetRecord(dir); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for g := range goroutines {
			s, err := d.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			y := upload(t, d, gputest.Floats(randFor(g), n, -1, 1))
			x := upload(t, d, gputest.Floats(randFor(g+goroutines), n, -1, 1))
			wg.Go(func() {
				for i := range launches {
					if err := conformance.LaunchSaxpy(s, xpu.Dim3{X: xpu.GroupsFor(n, 256)}, y, x, float32(i), n); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		d.SetRecord("")
		r, err := corpus.Replay(dir, corpus.Options{Holds: corpus.Holds{}})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Launches) != goroutines*launches {
			t.Errorf("%d launches recorded, want %d", len(r.Launches), goroutines*launches)
		}
		for i, v := range r.Launches {
			if v.Err != nil || v.Index != i+1 {
				t.Errorf("%s: launch %d: %v", v.Path, v.Index, v.Err)
			}
		}
	})
}

func randFor(i int) *rand.Rand { return rand.New(rand.NewPCG(rand.Uint64(), uint64(i))) }

// TestRecordFault checks that a recorded launch that faults (a division
// by zero at a random place) returns the fault itself on every backend,
// naming the kernel, writes no file, and that the stream goes on
// recording.
func TestRecordFault(t *testing.T) {
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		if err := d.SetRecord(t.TempDir()); err != nil {
			t.Fatal(err)
		}
		defer d.SetRecord("")
		r := randFor(0)
		bs := gputest.Ints(r, n, 1, 100)
		bs[r.IntN(n)] = 0
		a := upload(t, d, gputest.Ints(r, n, -1000, 1000))
		b := upload(t, d, bs)
		out := upload(t, d, make([]int32, 5*n))
		err := conformance.LaunchIntArith(d.Stream(), xpu.Dim3{X: xpu.GroupsFor(n, 64)}, out, a, b, n)
		if !errors.Is(err, gpu.ErrFault) || !strings.Contains(err.Error(), "IntArith") {
			t.Errorf("recorded launch dividing by zero: %v, want an error wrapping ErrFault naming IntArith", err)
		}
		if files, _ := os.ReadDir(d.Recording()); len(files) != 0 {
			t.Errorf("recording holds %d files after a faulting launch, want none", len(files))
		}
		if err := b.Write(gputest.Ints(r, n, 1, 100)); err != nil {
			t.Fatal(err)
		}
		if err := conformance.LaunchIntArith(d.Stream(), xpu.Dim3{X: xpu.GroupsFor(n, 64)}, out, a, b, n); err != nil {
			t.Fatal(err)
		}
		rep, err := corpus.Replay(d.Recording(), corpus.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.Err(); err != nil || len(rep.Launches) != 1 {
			t.Errorf("replay of the launch after the fault: %v (%d launches)", err, len(rep.Launches))
		}
	})
}

// TestRecordReplayedGraph checks that a recording device records a
// captured graph's launches when the graph is replayed, each of them, and
// not when they are captured, which runs nothing; the corpus agrees with
// the reference.
func TestRecordReplayedGraph(t *testing.T) {
	const launches, replays = 3, 2
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) {
		dir := t.TempDir()
		if err := d.SetRecord(dir); err != nil {
			t.Fatal(err)
		}
		defer d.SetRecord("")
		y := upload(t, d, gputest.Floats(randFor(0), n, -1, 1))
		x := upload(t, d, gputest.Floats(randFor(1), n, -1, 1))
		s := d.Stream()
		g, err := s.Capture(func() error {
			for i := range launches {
				if err := conformance.LaunchSaxpy(s, xpu.Dim3{X: xpu.GroupsFor(n, 256)}, y, x, float32(i), n); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		defer g.Release()
		if files, _ := os.ReadDir(d.Recording()); len(files) != 0 {
			t.Fatalf("%d launches recorded at capture, want none", len(files))
		}
		for range replays {
			if err := g.Replay(); err != nil {
				t.Fatal(err)
			}
		}
		r, err := corpus.Replay(dir, corpus.Options{Holds: corpus.Holds{}})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Launches) != launches*replays {
			t.Errorf("%d launches recorded, want %d", len(r.Launches), launches*replays)
		}
		for _, v := range r.Launches {
			if v.Err != nil {
				t.Errorf("%s: launch %d: %v", v.Path, v.Index, v.Err)
			}
		}
	})
}
