package gputest

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
)

// Case is one kernel of a suite: how to make its inputs, how to launch
// it through its generated launcher and how close a device must come to
// its reference, which the handle runs (gpu.Device.Reference).
type Case struct {
	Kernel *gpu.Kernel // the generated handle

	// Label names the case where a suite has several of one kernel;
	// empty, the kernel's name does.
	Label string

	// Tol bounds the difference of float32 results; integer results are
	// compared bit for bit.
	Tol Tolerance

	// Setup makes fresh inputs from r.
	Setup func(r *rand.Rand) Inputs

	// Launch launches the kernel through its generated launcher. args
	// are the device arguments in parameter order: a *gpu.Buffer[T] for
	// each buffer, the value for each scalar.
	Launch func(s *gpu.Stream, groups xpu.Dim3, args []any) error

	// Known maps a backend to a known bug that makes this case fail on
	// it. Check reports such a failure as a skip that names the bug, and
	// fails when the case passes there after all, so that a fixed bug's
	// mark is removed.
	Known map[string]string

	// Reference, when set, stands in for the kernel's own reference run on
	// d: a test of behaviour Go leaves to the implementation gives there
	// the rule the device's language defines. Nil runs the handle's
	// reference (gpu.Device.Reference).
	Reference func(d *gpu.Device, groups xpu.Dim3, args []any) error
}

// Name returns the case's label, or else the kernel's name without its
// package path.
func (c *Case) Name() string {
	if c.Label != "" {
		return c.Label
	}
	n := c.Kernel.Name()
	return n[strings.LastIndexByte(n, '.')+1:]
}

// Inputs are the grid and the arguments of one launch.
type Inputs struct {
	Groups xpu.Dim3
	Args   []Arg
}

// SeedEnv names the environment variable that fixes the seed of a run.
const SeedEnv = "XPU_SEED"

// Seed returns the seed of this run: the value of XPU_SEED when set, a
// fresh random one otherwise.
func Seed() (uint64, error) {
	s := os.Getenv(SeedEnv)
	if s == "" {
		return rand.Uint64(), nil
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("gputest: %s=%q: %w", SeedEnv, s, err)
	}
	return v, nil
}

// Run runs c once on the reference runner and once on d with the same
// fresh inputs made from seed, and compares every buffer. The error lists
// the mismatches.
func Run(d *gpu.Device, c *Case, seed uint64) error {
	h := fnv.New64a()
	h.Write([]byte(c.Name()))
	in := c.Setup(rand.New(rand.NewPCG(seed, h.Sum64())))

	ref := ReferenceArgs(in)
	reference := c.Reference
	if reference == nil {
		reference = func(d *gpu.Device, groups xpu.Dim3, args []any) error {
			return d.Reference(c.Kernel, groups, args...)
		}
	}
	if err := reference(d, in.Groups, ref); err != nil {
		return err
	}

	dev := make([]any, len(in.Args))
	defer func() {
		for i, a := range in.Args {
			if dev[i] != nil {
				a.release(dev[i])
			}
		}
	}()
	for i, a := range in.Args {
		v, err := a.device(d)
		if err != nil {
			return fmt.Errorf("argument %s: %w", paramName(c, i), err)
		}
		dev[i] = v
	}
	if err := c.Launch(d.Stream(), in.Groups, dev); err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	checked.record(string(d.Backend()), c.Kernel.Name())
	return compare(c, in.Args, ref, dev)
}

// ReferenceArgs returns the arguments of a reference run on in: fresh
// copies of the buffers' initial contents, and the scalars.
func ReferenceArgs(in Inputs) []any {
	args := make([]any, len(in.Args))
	for i, a := range in.Args {
		args[i] = a.reference()
	}
	return args
}

// maxReported bounds the mismatches reported per buffer.
const maxReported = 8

// compare compares every argument of both runs.
func compare(c *Case, args []Arg, ref, dev []any) error {
	var errs []error
	for i, a := range args {
		ms := a.compare(ref[i], dev[i], c.Tol)
		if len(ms) == 0 {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s: %d words differ (tolerance %v)", paramName(c, i), len(ms), c.Tol)
		for _, m := range ms[:min(len(ms), maxReported)] {
			fmt.Fprintf(&b, "\n\t%s%v", paramName(c, i), m)
		}
		errs = append(errs, errors.New(b.String()))
	}
	return errors.Join(errs...)
}

// paramName names the i-th parameter of c's kernel.
func paramName(c *Case, i int) string {
	if s := c.Kernel.Spec(); s != nil && i < len(s.Params) {
		return s.Params[i].Name
	}
	return fmt.Sprintf("argument %d", i)
}

// At returns args[i] as a T, or T's zero value (which the launch then
// refuses) when it is not one: a [Case]'s Launch passes its arguments to
// the generated launcher with it.
func At[T any](args []any, i int) T {
	var v T
	if i < len(args) {
		v, _ = args[i].(T)
	}
	return v
}
