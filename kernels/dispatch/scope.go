package dispatch

import (
	"errors"
	"fmt"
	"sync"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/tensor"
)

// A Scope owns the temporaries that calls made with it allocate (an
// adapter's output) until its Release, which the caller runs after the
// calls' work is done (after a sync of their streams). A call that
// needs a temporary and has no scope is refused: the registry allocates
// nothing the caller does not see. A Scope is safe for concurrent use.
type Scope struct {
	mu      sync.Mutex
	release []func()
	done    bool
}

// NewScope returns an empty scope.
func NewScope() *Scope { return &Scope{} }

// Tensor allocates a tensor of descriptor desc and the given shape on d,
// contiguous or in the blocked layout desc names, owned by the scope.
func (sc *Scope) Tensor(d *gpu.Device, desc tensor.Descriptor, shape []int) (tensor.Tensor, error) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.done {
		return tensor.Tensor{}, errors.New("dispatch: a temporary of a released scope")
	}
	n := 1
	for _, s := range shape {
		n *= s
	}
	var (
		t   tensor.Tensor
		rel func()
		err error
	)
	switch desc.Format {
	case tensor.F32:
		t, rel, err = dense[float32](d, shape, n)
	case tensor.I32:
		t, rel, err = dense[int32](d, shape, n)
	case tensor.U32:
		t, rel, err = dense[uint32](d, shape, n)
	default:
		bytes, ok := desc.Format.Bytes(n)
		if !ok || !desc.Layout.Blocked() {
			return tensor.Tensor{}, fmt.Errorf("dispatch: a temporary %s%v: %w", desc, shape, gpu.ErrSize)
		}
		var b *gpu.Buffer[uint32]
		if b, err = gpu.NewBuffer[uint32](d, (bytes+3)/4); err == nil {
			rel = b.Release
			if t, err = tensor.Blocked(b, desc.Format, desc.Layout, shape...); err != nil {
				b.Release()
			}
		}
	}
	if err != nil {
		return tensor.Tensor{}, err
	}
	if desc.Layout == tensor.Strided {
		desc.Layout = tensor.Contiguous // a temporary is made dense
	}
	if t.Descriptor() != desc {
		rel()
		return tensor.Tensor{}, fmt.Errorf("dispatch: a temporary %s%v would be %s: %w", desc, shape, t.Descriptor(), gpu.ErrArgs)
	}
	sc.release = append(sc.release, rel)
	return t, nil
}

// dense allocates a contiguous tensor of n elements of T.
func dense[T tensor.Scalar](d *gpu.Device, shape []int, n int) (tensor.Tensor, func(), error) {
	b, err := gpu.NewBuffer[T](d, n)
	if err != nil {
		return tensor.Tensor{}, nil, err
	}
	t, err := tensor.Dense(b, shape...)
	if err != nil {
		b.Release()
		return tensor.Tensor{}, nil, err
	}
	return t, b.Release, nil
}

// Release frees the scope's temporaries. The work of the calls that used
// them must be done. Releasing twice does nothing more.
func (sc *Scope) Release() {
	sc.mu.Lock()
	rel := sc.release
	sc.release, sc.done = nil, true
	sc.mu.Unlock()
	for _, r := range rel {
		r()
	}
}
