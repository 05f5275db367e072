package gpu

// This file decides whether a kernel can run on a device before any
// launch of it: whether the device's backend has code for it, whether its
// declared wave width and wave tier can run there, and whether its
// footprint fits the device's limits.

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// fits returns the artifact of k that d runs, or why k cannot run on d: no code for d's backend, a
// wave width or tier d cannot run, or a footprint beyond d's limits. The
// answer depends on k and d alone, so it is found once: every launch asks.
func (d *Device) fits(k *Kernel) (*schema.Artifact, error) { return d.fitIn(d.entry(k), k) }

// fitIn is fits with k's entry on d at hand, as a launch has it.
func (d *Device) fitIn(p *program, k *Kernel) (*schema.Artifact, error) {
	p.fitOnce.Do(func() { p.art, p.fitErr = d.fit(k) })
	return p.art, p.fitErr
}

func (d *Device) fit(k *Kernel) (*schema.Artifact, error) {
	a, err := d.artifact(k)
	if err != nil {
		return nil, err
	}
	if _, err := d.waveChoice(k, a); err != nil {
		return nil, err
	}
	return a, checkLimits(k, a, d.info.Limits)
}

// artifact returns the artifact of k that d's driver runs, or an error
// wrapping ErrNoCode when k has none for d's backend or the driver says
// why it runs none of them (driver.Refuser), or ErrWaveWidth when it has
// some, but none for d's subgroup sizes.
func (d *Device) artifact(k *Kernel) (*schema.Artifact, error) {
	if a := d.drv.Artifact(&k.spec); a != nil {
		return a, nil
	}
	if !slices.ContainsFunc(k.spec.Artifacts, func(a schema.Artifact) bool { return a.Backend == d.backend }) {
		return nil, fmt.Errorf("gpu: kernel %s: no code for the %s backend: %w", k.spec.Name, d.backend, ErrNoCode)
	}
	if r, ok := d.drv.(driver.Refuser); ok {
		if err := r.Refusal(&k.spec); err != nil {
			return nil, fmt.Errorf("gpu: kernel %s on %s: %w: %w", k.spec.Name, d.backend, ErrNoCode, err)
		}
	}
	lim := d.info.Limits
	return nil, fmt.Errorf("gpu: kernel %s: wave=%d: no variant for subgroups of %d to %d lanes: %w",
		k.spec.Name, k.spec.Wave, lim.SubgroupMin, lim.SubgroupMax, ErrWaveWidth)
}

// checkAlignment returns an ErrMisaligned error when the buffer st bound
// to p starts at an offset the device cannot bind.
func checkAlignment(k *Kernel, p *schema.Param, st *bufferState, lim Limits) error {
	a := int(lim.StorageOffsetAlignment)
	if a == 0 || st.offset%a == 0 {
		return nil
	}
	return fmt.Errorf("gpu: kernel %s: parameter %s: a view at byte offset %d (element %d), the device binds storage at multiples of %d bytes: %w",
		k.spec.Name, p.Name, st.offset, st.offset/st.elem.size, a, ErrMisaligned)
}

// checkLengths returns an ErrBufferLen error when a buffer holds fewer
// elements than the product of the scalars its parameter's MinLen names.
// elems(j) is the length of the j-th buffer bound, in order of k's buffer
// parameters.
func checkLengths(k *Kernel, elems func(j int) int, args []any) error {
	j := 0
	for _, p := range k.spec.Params {
		if p.Kind != schema.ParamBuffer {
			continue
		}
		have := elems(j)
		j++
		if p.MinLen == nil {
			continue
		}
		need, over, ok := product(k, p.MinLen, args)
		if !ok || !over && uint64(have) >= need {
			continue
		}
		want := strconv.FormatUint(need, 10)
		if over {
			want = "more than 2^64-1" // more than any buffer holds
		}
		return fmt.Errorf("gpu: kernel %s: parameter %s: a buffer of %d elements, the kernel needs %s = %s: %w",
			k.spec.Name, p.Name, have, strings.Join(p.MinLen, "*"), want, ErrBufferLen)
	}
	return nil
}

// product returns the product of the integer scalar parameters factors
// among args, which bind already checked; over is true when it exceeds
// 2^64-1. ok is false when a factor is no such parameter or is negative:
// then the bound says nothing.
func product(k *Kernel, factors []string, args []any) (need uint64, over, ok bool) {
	need = 1
	for _, f := range factors {
		v, found := scalarArg(k, f, args)
		switch {
		case !found:
			return 0, false, false
		case v == 0: // whatever overflowed before it
			return 0, false, true
		}
		hi, lo := bits.Mul64(need, v)
		need, over = lo, over || hi != 0
	}
	return need, over, true
}

// scalarArg returns the value of the integer scalar parameter name among
// args; ok is false when there is none or it is negative.
func scalarArg(k *Kernel, name string, args []any) (uint64, bool) {
	i := slices.IndexFunc(k.spec.Params, func(p schema.Param) bool { return p.Name == name && p.Kind == schema.ParamScalar })
	if i < 0 {
		return 0, false
	}
	switch v := args[i].(type) {
	case uint32:
		return uint64(v), true
	case int32:
		return uint64(max(v, 0)), v >= 0
	}
	return 0, false
}

// folds reports whether the code of k that d runs folds a grid beyond
// the device's groups per dimension (schema.Manifest.Folds).
func (d *Device) folds(k *Kernel) bool {
	a, err := d.artifact(k)
	return err == nil && a.Folds()
}
