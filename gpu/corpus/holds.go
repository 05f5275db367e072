package corpus

// This file reads the bounds a corpus holds kernels to: holds.json.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// HoldsFile is the name of a corpus's holds, in its folder.
const HoldsFile = "holds.json"

// Hold bounds how far a kernel's float results may be from its
// reference's in a replay, and says why.
type Hold struct {
	ULP uint64 `json:"ulp"` // units in the last place; at least 1
	Why string `json:"why"` // the reason the device may differ
}

// Holds maps a kernel's name ("importpath.Name") to its hold. A kernel
// without one is held to bit-exact results. A holds.json file is one
// JSON object of them:
//
//	{
//	  "github.com/goxpu/xpu/kernels/conformance.Saxpy":
//	    {"ulp": 1, "why": "a*x+y may be fused"}
//	}
type Holds map[string]Hold

// ErrHolds is wrapped by the errors of a holds file that cannot be used.
var ErrHolds = errors.New("bad holds")

// ReadHolds reads the holds file at path. A hold of no ulp, or one that
// gives no reason, is refused: it would hold nothing, or nobody would know
// when to drop it.
func ReadHolds(path string) (Holds, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var hs Holds
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&hs); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w: %w", path, ErrHolds, err)
	}
	if err := hs.check(); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", path, err)
	}
	return hs, nil
}

// check refuses a hold of no ulp or without a reason.
func (hs Holds) check() error {
	var errs []error
	for _, k := range hs.kernels() {
		h := hs[k]
		switch {
		case h.ULP == 0:
			errs = append(errs, fmt.Errorf("kernel %s: a hold of 0 ulp holds nothing (remove it): %w", k, ErrHolds))
		case strings.TrimSpace(h.Why) == "":
			errs = append(errs, fmt.Errorf("kernel %s: a hold of %d ulp gives no reason: %w", k, h.ULP, ErrHolds))
		}
	}
	return errors.Join(errs...)
}

// kernels returns the held kernels' names, sorted.
func (hs Holds) kernels() []string {
	ks := make([]string, 0, len(hs))
	for k := range hs {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
