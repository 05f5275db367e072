package corpus

// This file replays a corpus: each recorded launch's kernel, looked up
// by name, runs on the reference runner from the recorded inputs.

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"unsafe"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/launchfile"
	"github.com/goxpu/xpu/schema"
)

// The reasons a launch or a hold fails a replay, besides [gpu.ErrNoCode]
// for a kernel the program does not link and the reference runner's own
// errors.
var (
	// ErrMismatch: the reference's results differ from the recorded ones
	// beyond the kernel's hold.
	ErrMismatch = errors.New("replay differs from the recording")
	// ErrChanged: the code the device ran is no longer the kernel's.
	ErrChanged = errors.New("kernel code changed since the recording")
	// ErrStale: a hold is looser than the corpus needs.
	ErrStale = errors.New("stale hold")
)

// Options are the options of a replay.
type Options struct {
	// Holds are the bounds the replay holds kernels to. Nil reads the
	// corpus's holds.json (none when the file is absent); an empty map
	// holds every kernel to bit-exact results.
	Holds Holds
}

// Replay replays every launch file below dir, in the order of their
// paths, and judges the holds. The error is for a corpus that cannot be
// replayed at all (no such folder, no launch in it, a holds file that
// cannot be used); the verdicts are in the report, and [Report.Err]
// says whether the replay passed.
func Replay(dir string, o Options) (*Report, error) {
	holds := o.Holds
	if holds == nil {
		var err error
		holds, err = ReadHolds(filepath.Join(dir, HoldsFile))
		if errors.Is(err, fs.ErrNotExist) {
			holds, err = Holds{}, nil
		}
		if err != nil {
			return nil, err
		}
	} else if err := holds.check(); err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	paths, err := launchFiles(dir)
	if err != nil {
		return nil, err
	}
	r := &Report{Dir: dir}
	for _, p := range paths {
		r.Launches = append(r.Launches, replayFile(dir, p, holds))
	}
	r.judge(holds)
	return r, nil
}

// launchFiles returns the paths of the launch files below dir, sorted.
func launchFiles(dir string) ([]string, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() && strings.HasSuffix(path, launchfile.Ext) {
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("corpus: no launch file (*%s) below %s", launchfile.Ext, dir)
	}
	slices.Sort(paths)
	return paths, nil
}

// replayFile replays the launch file at path.
func replayFile(dir, path string, holds Holds) Verdict {
	v := Verdict{Path: path}
	if rel, err := filepath.Rel(dir, path); err == nil {
		v.Path = rel
	}
	h, payload, err := launchfile.Read(path)
	if err != nil {
		v.Outcome, v.Err = Failed, err
		return v
	}
	v.Index, v.Kernel, v.Device = h.Index, h.Kernel, h.Device
	k, ok := gpu.Lookup(h.Kernel)
	if !ok {
		v.Outcome = Missing
		v.Err = fmt.Errorf("kernel %s is not linked into this program (a program replays only the kernels it links): %w", h.Kernel, gpu.ErrNoCode)
		return v
	}
	spec := k.Spec()
	if err := sameCode(spec, h); err != nil {
		v.Outcome, v.Err = Changed, err
		return v
	}
	args, err := arguments(spec, h, payload)
	if err != nil {
		v.Outcome, v.Err = Failed, err
		return v
	}
	grid := xpu.Dim3{X: h.Grid[0], Y: h.Grid[1], Z: h.Grid[2]}
	if err := k.ReferenceWith(gpu.ReferenceOptions{Wave: h.Wave}, grid, args...); err != nil {
		v.Outcome, v.Err = Failed, err
		return v
	}
	hold := holds[h.Kernel]
	for i, p := range h.Params {
		if p.Out != nil {
			v.compare(p.Name, reflect.ValueOf(args[i]), p.Out.Slice(payload), hold.ULP)
		}
	}
	switch {
	case v.Differ > 0:
		v.Outcome = Mismatch
		v.Err = fmt.Errorf("kernel %s: %d words differ (hold %d ulp): %w", h.Kernel, v.Differ, hold.ULP, ErrMismatch)
	case v.ULP > 0:
		v.Outcome = Held
	default:
		v.Outcome = Agree
	}
	return v
}

// sameCode returns an ErrChanged error when none of the kernel's
// artifacts for the recorded backend and target has the recorded hash.
func sameCode(spec *schema.Kernel, h *launchfile.Header) error {
	var now []string
	for _, a := range spec.Artifacts {
		if string(a.Backend) != h.Backend || string(a.Target) != h.Target {
			continue
		}
		if a.Hash == h.Hash {
			return nil
		}
		now = append(now, a.Hash)
	}
	if len(now) == 0 {
		return fmt.Errorf("kernel %s: recorded from %s %s code %s, and the linked kernel has no %s %s code: %w",
			h.Kernel, h.Backend, h.Target, h.Hash, h.Backend, h.Target, ErrChanged)
	}
	return fmt.Errorf("kernel %s: recorded from %s %s code %s, the linked kernel's is %s: %w",
		h.Kernel, h.Backend, h.Target, h.Hash, strings.Join(now, ", "), ErrChanged)
}

// arguments returns the reference run's arguments of the recorded
// launch h: a slice holding each buffer's recorded contents before the
// launch and each scalar's value, of the types the kernel's Go function
// takes.
func arguments(spec *schema.Kernel, h *launchfile.Header, payload []byte) ([]any, error) {
	types, err := paramTypes(spec)
	if err != nil {
		return nil, err
	}
	if len(h.Params) != len(spec.Params) {
		return nil, fmt.Errorf("kernel %s: %d parameters recorded, the kernel has %d", h.Kernel, len(h.Params), len(spec.Params))
	}
	args := make([]any, len(h.Params))
	for i, p := range h.Params {
		q := spec.Params[i]
		if p.Name != q.Name || p.Type != q.Type.String() || p.Scalar != (q.Kind == schema.ParamScalar) || !p.Scalar && p.Size != q.Size {
			return nil, fmt.Errorf("kernel %s: parameter %d recorded as %s %s, the kernel's is %s %s", h.Kernel, i, p.Name, p.Type, q.Name, q.Type)
		}
		t := types[i]
		if p.Scalar {
			v := reflect.New(t).Elem()
			switch t.Kind() {
			case reflect.Float32:
				v.SetFloat(float64(math.Float32frombits(p.Bits)))
			case reflect.Uint32:
				v.SetUint(uint64(p.Bits))
			case reflect.Int32:
				v.SetInt(int64(int32(p.Bits)))
			default:
				return nil, fmt.Errorf("kernel %s: scalar %s of Go type %s", h.Kernel, p.Name, t)
			}
			args[i] = v.Interface()
			continue
		}
		s := reflect.MakeSlice(t, p.Len, p.Len)
		copy(sliceBytes(s), p.In.Slice(payload))
		args[i] = s.Interface()
	}
	return args, nil
}

// paramTypes returns the Go types of the kernel's parameters after its
// Thread, as its Go function takes them: a slice type for a buffer,
// without a template member's comptime parameter.
func paramTypes(spec *schema.Kernel) ([]reflect.Type, error) {
	ft := reflect.TypeOf(spec.Func)
	if ft == nil || ft.Kind() != reflect.Func {
		return nil, fmt.Errorf("kernel %s: no Go function registered (a spec written by hand): %w", spec.Name, gpu.ErrNoCode)
	}
	ct := reflect.TypeOf(spec.Comptime)
	var types []reflect.Type
	for i := 1; i < ft.NumIn(); i++ {
		if t := ft.In(i); ct == nil || t != ct {
			types = append(types, t)
		} else {
			ct = nil // one comptime parameter
		}
	}
	if len(types) != len(spec.Params) {
		return nil, fmt.Errorf("kernel %s: its Go function takes %d parameters after the Thread, its spec has %d", spec.Name, len(types), len(spec.Params))
	}
	for i, p := range spec.Params {
		if (p.Kind == schema.ParamScalar) == (types[i].Kind() == reflect.Slice) {
			return nil, fmt.Errorf("kernel %s: parameter %s: Go type %s for a %v", spec.Name, p.Name, types[i], p.Kind)
		}
	}
	return types, nil
}

// sliceBytes returns the bytes of the slice s, whose elements are
// 32-bit words.
func sliceBytes(s reflect.Value) []byte {
	n := s.Len() * int(s.Type().Elem().Size())
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(s.UnsafePointer()), n)
}
