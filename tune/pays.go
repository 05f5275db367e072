package tune

// This file answers binary questions: does variant A of a step beat
// variant B on this device (a wave-verb reduction against a shared-memory
// one, one fused launch against two)? Each is measured once per device
// and fingerprint, by the same race as a family's members, and
// remembered in the same store.

import (
	"fmt"
	"strings"
	"time"

	"github.com/goxpu/xpu/gpu"
)

// A Variant is one way to do a step, which [Tuner.Pays] compares with
// another.
type Variant struct {
	// Name names the variant in the store and in messages: a letter,
	// then letters, digits, '.', '_' and '-'.
	Name string
	// Hash identifies the variant's code, so that a rebuild that changes
	// it measures again: its kernels' code hashes ([CodeHash]).
	Hash string
	// Run records the variant's launches, once, on the stream Pays is
	// given, without syncing.
	Run func() error
}

// CodeHash returns the hashes of the code d runs for each of kernels,
// joined: a [Variant]'s Hash. A kernel d runs no code for adds its
// refusal.
func CodeHash(d *gpu.Device, kernels ...*gpu.Kernel) string {
	hs := make([]string, len(kernels))
	for i, k := range kernels {
		if m, ok := d.Manifest(k); ok {
			hs[i] = m.Hash
		} else {
			hs[i] = "none:" + k.Name()
		}
	}
	return strings.Join(hs, "+")
}

// Pays reports whether variant a beats variant b on s's device: whether
// a's median is faster than b's by more than TieMargin, so that a tie
// keeps b. The name names the family of such answers in the store
// ("pays/" and name: a path, as a family's name), and fingerprint
// the kernel or shape it is asked for, as a problem key ("n=4096"). The
// answer is measured once per device, fingerprint and build of the two
// variants, and remembered as a family's choice is; a pinned tuner
// answers false without timing, and Force["pays/"+name] names the
// variant taken. The Choice says how the answer was reached.
func (t *Tuner) Pays(s *gpu.Stream, name string, fingerprint Key, a, b Variant) (bool, *Choice, error) {
	start := time.Now()
	family := "pays/" + name
	if err := checkFamilyName(family); err != nil {
		return false, nil, fmt.Errorf("tune: Pays: %w", err)
	}
	if err := fingerprint.check(); err != nil {
		return false, nil, fmt.Errorf("tune: Pays %s: %w", name, err)
	}
	for _, v := range []Variant{a, b} {
		if !isVariantName(v.Name) || v.Run == nil || v.Name == a.Name && v.Name == b.Name {
			return false, nil, fmt.Errorf("tune: [tune-variant] Pays %s: variants need distinct names (a letter, then letters, digits, '.', '_', '-') and a Run; got %q and %q",
				name, a.Name, b.Name)
		}
	}
	if s == nil {
		return false, nil, fmt.Errorf("tune: Pays %s: %w", name, gpu.ErrArgs)
	}
	// b first: the earlier of a tie, and what a pinned tuner runs.
	q := question{family: family, key: fingerprint, names: []string{b.Name, a.Name}, hashes: []string{b.Hash, a.Hash},
		prepare: func() ([]func() error, func(), error) { return []func() error{b.Run, a.Run}, nil, nil }}
	c := &Choice{Family: family, Key: fingerprint, Device: s.Device().Key(), Stable: true}
	i, err := t.decide(s, c, q, q.names)
	if err != nil {
		return false, nil, err
	}
	c.Chosen = q.names[i]
	c.Cost = time.Since(start)
	if t.Log != nil {
		t.Log(c)
	}
	return i == 1, c, nil
}

func isVariantName(s string) bool {
	return s != "" && isName(s[:1]) && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == ""
}
