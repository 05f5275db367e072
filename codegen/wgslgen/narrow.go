package wgslgen

// This file lowers the narrow integers (int8, uint8, int16, uint16). A
// narrow value is held in an i32 or u32, sign- or zero-extended (the IR's
// Widen pass leaves only conversions to do); a buffer of them is packed
// into 32-bit words, since WGSL has no 8- or 16-bit types. A buffer that
// is only read is an array<u32>; one that is written is an
// array<atomic<u32>>, and a store of one element clears its bits with
// atomicAnd and sets them with atomicOr: the bits of distinct elements are
// disjoint, so stores by different work-items to neighbouring elements of
// one word stay correct, as Go's distinct memory locations are.

import (
	"fmt"
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// narrowBuffer reports whether p is a buffer of narrow integers.
func narrowBuffer(p *ir.Param) bool { return p.Kind == ir.BufferParam && ir.IsNarrow(p.Type) }

// narrowElem returns the narrow buffer x indexes, or nil.
func narrowElem(x ir.Expr) *ir.Param {
	if b, ok := x.(*ir.BufferRef); ok && narrowBuffer(b.Param) {
		return b.Param
	}
	return nil
}

// narrowWords returns the WGSL array type of the narrow buffer p.
func narrowWords(p *ir.Param) wgsl.Type {
	if p.Access == schema.AccessRead {
		return &wgsl.Array{Elem: wgsl.U32Type}
	}
	return &wgsl.Array{Elem: &wgsl.Atomic{Elem: wgsl.U32Type}}
}

// packing returns how the elements of a narrow buffer lie in its words:
// the shift from an element's index to its word's, the element's bits
// and its mask.
func packing(t *ir.Basic) (perWordLog, bits, mask uint32) {
	bits = uint32(8 * t.Size())
	if bits == 8 {
		perWordLog = 2
	} else {
		perWordLog = 1
	}
	return perWordLog, bits, 1<<bits - 1
}

// narrowWordShift returns the word index and the shift of element i (a
// u32) of a buffer of t.
func narrowWordShift(t *ir.Basic, i wgsl.Expr) (word, shift wgsl.Expr) {
	log, bits, _ := packing(t)
	word = bin(wgsl.Shr, i, wgsl.U32Lit(log))
	shift = bin(wgsl.Mul, bin(wgsl.And, i, wgsl.U32Lit(1<<log-1)), wgsl.U32Lit(bits))
	return word, shift
}

// narrowLoad returns the helper that loads element i of the narrow
// buffer p, extended to p's Wide type.
func (l *lowerer) narrowLoad(p *ir.Param) string {
	name := mangle("xpu_load_", p.Name)
	if _, ok := l.helpers[name]; ok {
		return name
	}
	t := p.Type.(*ir.Basic)
	_, bits, mask := packing(t)
	buf := wgsl.Id(mangle(prefixBuffer, p.Name))
	word, shift := narrowWordShift(t, wgsl.Id("i"))
	var w wgsl.Expr = &wgsl.Index{X: buf, Index: word}
	if p.Access != schema.AccessRead {
		w = wgsl.CallOf("atomicLoad", wgsl.AddrOfExpr(w))
	}
	wt := scalar(t.Kind)
	var v wgsl.Expr
	if t.Signed() {
		// Shift the element to the top, then back: the sign fills in.
		up := bin(wgsl.Shl, wgsl.Id("w"), bin(wgsl.Sub, wgsl.U32Lit(32-bits), wgsl.Id("s")))
		v = bin(wgsl.Shr, &wgsl.Bitcast{Type: wgsl.I32Type, X: up}, wgsl.U32Lit(32-bits))
	} else {
		v = bin(wgsl.And, bin(wgsl.Shr, wgsl.Id("w"), wgsl.Id("s")), wgsl.U32Lit(mask))
	}
	f := fn(fmt.Sprintf("Element i of the %v buffer %s, packed %d to a word.", t, p.Name, 32/bits),
		[]*wgsl.Param{{Name: "i", Type: wgsl.U32Type}}, wt,
		&wgsl.LetDecl{Name: "s", Init: shift},
		&wgsl.LetDecl{Name: "w", Init: w},
		ret(v))
	f.Name = l.global(name, "the load of buffer "+p.Name)
	l.helpers[name] = f
	return name
}

// narrowStore returns the helper that stores v in element i of the narrow
// buffer p.
func (l *lowerer) narrowStore(p *ir.Param) string {
	name := mangle("xpu_store_", p.Name)
	if _, ok := l.helpers[name]; ok {
		return name
	}
	t := p.Type.(*ir.Basic)
	_, bits, mask := packing(t)
	buf := wgsl.Id(mangle(prefixBuffer, p.Name))
	word, shift := narrowWordShift(t, wgsl.Id("i"))
	ptr := wgsl.AddrOfExpr(&wgsl.Index{X: buf, Index: wgsl.Id("w")})
	var v wgsl.Expr = wgsl.Id("v")
	if t.Signed() {
		v = &wgsl.Bitcast{Type: wgsl.U32Type, X: v}
	}
	set := bin(wgsl.Shl, bin(wgsl.And, v, wgsl.U32Lit(mask)), wgsl.Id("s"))
	clear := &wgsl.Unary{Op: wgsl.Compl, X: bin(wgsl.Shl, wgsl.U32Lit(mask), wgsl.Id("s"))}
	f := fn(fmt.Sprintf("Stores v in element i of the %v buffer %s, packed %d to a word: clears its bits, then sets them, touching no other element's.", t, p.Name, 32/bits),
		[]*wgsl.Param{{Name: "i", Type: wgsl.U32Type}, {Name: "v", Type: scalar(t.Kind)}}, nil,
		&wgsl.LetDecl{Name: "s", Init: shift},
		&wgsl.LetDecl{Name: "w", Init: word},
		&wgsl.CallStmt{Call: wgsl.CallOf("atomicAnd", ptr, clear)},
		&wgsl.CallStmt{Call: wgsl.CallOf("atomicOr", ptr, set)})
	f.Name = l.global(name, "the store of buffer "+p.Name)
	l.helpers[name] = f
	return name
}

// asU32 returns the index x, an i32 or u32, as a u32 (a negative index is
// out of range either way).
func asU32(t ir.Type, x wgsl.Expr) wgsl.Expr {
	if ir.IsKind(t, ir.U32) {
		return x
	}
	if c, ok := x.(*wgsl.Lit); ok {
		return wgsl.U32Lit(c.Bits)
	}
	return &wgsl.Construct{Type: wgsl.U32Type, Args: []wgsl.Expr{x}}
}

// narrowIndex lowers a load of element e.Index of the narrow buffer p.
func (l *lowerer) narrowIndex(p *ir.Param, e *ir.Index) wgsl.Expr {
	return wgsl.CallOf(l.narrowLoad(p), asU32(e.Index.Type(), l.expr(e.Index)))
}

// narrowAssign lowers a store of value into element dst.Index of the
// narrow buffer p; the index is evaluated first, as Go does.
func (l *lowerer) narrowAssign(p *ir.Param, dst *ir.Index, value ir.Expr) {
	ops := l.exprs([]ir.Expr{dst.Index, value})
	l.emit(&wgsl.CallStmt{Call: wgsl.CallOf(l.narrowStore(p), asU32(dst.Index.Type(), ops[0]), ops[1])})
}

// narrowLen lowers len of the narrow buffer p: its launch word, since
// its binding holds whole words.
func (l *lowerer) narrowLen(p *ir.Param) wgsl.Expr {
	i := slices.Index(l.k.Params, p)
	return l.word(schema.Word{Kind: schema.WordLen, Param: i})
}

// narrowConvert lowers the conversion of x, an i32 or u32, to the narrow
// type t: the low bits, extended as t's Wide type.
func narrowConvert(from *ir.Basic, t *ir.Basic, x wgsl.Expr) wgsl.Expr {
	_, bits, mask := packing(t)
	if !t.Signed() {
		if from.Signed() {
			x = &wgsl.Construct{Type: wgsl.U32Type, Args: []wgsl.Expr{x}}
		}
		return bin(wgsl.And, x, wgsl.U32Lit(mask))
	}
	if !from.Signed() {
		x = &wgsl.Construct{Type: wgsl.I32Type, Args: []wgsl.Expr{x}}
	}
	return bin(wgsl.Shr, bin(wgsl.Shl, x, wgsl.U32Lit(32-bits)), wgsl.U32Lit(32-bits))
}
