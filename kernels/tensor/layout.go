package tensor

import "fmt"

// A Layout is the class of a tensor's arrangement in its buffer, which a
// kernel declares it takes beside the format: the registry selects by it
// exactly, so a kernel written for contiguous rows is never handed a
// strided view.
type Layout uint8

// The layout classes.
const (
	// Contiguous: a scalar tensor in row-major order without gaps, the
	// last dimension's stride 1.
	Contiguous Layout = iota + 1
	// Strided: a scalar tensor of any other non-negative strides: a
	// transposed matrix, a matrix whose rows are padded, a column.
	Strided
	// BlockedRowMajor: a block-format tensor whose last dimension is cut
	// into blocks, stored in row-major order of (row, block): the order
	// GGUF files hold weights in.
	BlockedRowMajor
	// BlockedInputMajor: a block-format matrix of rows x cols whose
	// block (r, j), holding elements r, 32j..32j+31 for a 32-element
	// format, is stored at j*rows + r: the blocks one input slice meets
	// are adjacent, so that a kernel in which neighbouring work-items
	// take neighbouring rows reads neighbouring bytes. A weight is
	// packed into it once, when it is loaded.
	BlockedInputMajor
)

// layouts holds each layout's name, indexed by Layout.
var layouts = [...]string{
	Contiguous:        "contiguous",
	Strided:           "strided",
	BlockedRowMajor:   "blocked-row-major",
	BlockedInputMajor: "blocked-input-major",
}

func (l Layout) valid() bool { return l > 0 && int(l) < len(layouts) }

// String returns the layout's name: "contiguous", "blocked-row-major", ...
func (l Layout) String() string {
	if !l.valid() {
		return fmt.Sprintf("Layout(%d)", uint8(l))
	}
	return layouts[l]
}

// Blocked reports whether the layout is one of block-format tensors.
func (l Layout) Blocked() bool { return l == BlockedRowMajor || l == BlockedInputMajor }

// Layouts returns every layout class, in order.
func Layouts() []Layout {
	ls := make([]Layout, 0, len(layouts)-1)
	for l := Contiguous; l.valid(); l++ {
		ls = append(ls, l)
	}
	return ls
}

// A Descriptor is what a kernel declares of one operand, and what the
// registry's keys are made of: a format and a layout class.
type Descriptor struct {
	Format Format
	Layout Layout
}

// String returns "format/layout": "q8_0/blocked-row-major".
func (d Descriptor) String() string { return d.Format.String() + "/" + d.Layout.String() }

// Valid reports whether the descriptor names a format and a layout that
// a tensor can have together: a scalar format contiguous or strided, a
// block format in a blocked layout.
func (d Descriptor) Valid() bool {
	return d.Format.valid() && d.Layout.valid() && d.Format.Blocked() == d.Layout.Blocked()
}
