package schema

// This file defines launch words: what code reads of a launch that is
// not an argument.

// A Word is a uint32 that the runtime of a backend writes, for each
// launch, after a kernel's uniform block (from byte Kernel.UniformSize,
// in the order of Manifest.Words, 4 bytes each): facts of the launch
// that the code cannot read from its target's builtins.
type Word struct {
	Kind WordKind
	// Param, for WordLen, is the index in Kernel.Params of the buffer
	// whose length it is.
	Param int
}

// WordKind says what a launch word holds.
type WordKind uint8

const (
	// WordGroupsX, WordGroupsY and WordGroupsZ are the launch's grid, in
	// groups on each axis, as the program launched it.
	WordGroupsX WordKind = iota + 1
	WordGroupsY
	WordGroupsZ
	// WordFolded is 1 when the dispatch folds the grid (a grid with an
	// axis beyond the device's groups per dimension), else 0. A folded
	// dispatch's groups, numbered x + X*(y + Y*z) over its physical grid
	// X×Y×Z, are the launch's groups numbered alike over its grid; the
	// groups past the last return at once.
	WordFolded
	// WordLen is the elements of the buffer parameter Param as bound:
	// where the target's binding counts something else (packed words).
	WordLen
)

// GridWords are the words a WGSL artifact that can fold its grid reads
// first: the launch's grid and whether the dispatch folds it.
var GridWords = []Word{{Kind: WordGroupsX}, {Kind: WordGroupsY}, {Kind: WordGroupsZ}, {Kind: WordFolded}}

// WordBytes returns the bytes the words of m take after the uniform
// block: a multiple of 16, as uniform blocks are.
func (m *Manifest) WordBytes() int { return (4*len(m.Words) + 15) &^ 15 }

// Folds reports whether the code of m reads the grid words, so that a
// launch's grid may exceed the device's groups per dimension.
func (m *Manifest) Folds() bool {
	n := 0
	for _, w := range m.Words {
		if w.Kind >= WordGroupsX && w.Kind <= WordFolded {
			n++
		}
	}
	return n == len(GridWords)
}
