package ir

// This file is the widening pass: arithmetic on the narrow integers (int8,
// uint8, int16, uint16) becomes 32-bit arithmetic, so that no lowering
// computes at a width other than 32.

// Widen rewrites k's body and device functions so that no Unary, Binary
// or CallBuiltin has a narrow operand or result and every Convert that
// involves a narrow type has I32 or U32 on its other side. A narrow value
// is held sign- or zero-extended (its value as its Wide type), so Go's
// semantics follow from computing in 32 bits and converting the result
// back after each operation: the conversion truncates what overflowed
// (+, -, *, <<, unary -, ^), and division, remainder, right shifts and
// comparisons of extended values already give Go's answers (int8(-128) /
// -1 is 128 in 32 bits and -128 once converted back, as Go wraps). Widen
// may run again on a widened kernel; it changes nothing then.
func Widen(k *Kernel) {
	widenBlock(k.Body)
	for _, f := range k.Funcs {
		widenBlock(f.Body)
	}
}

func widenBlock(b *Block) {
	WalkStmts(b, func(s Stmt) bool {
		switch s := s.(type) {
		case *Decl:
			s.Init = widen(s.Init)
		case *Assign:
			s.Dst = widen(s.Dst)
			s.Value = widen(s.Value)
		case *If:
			s.Cond = widen(s.Cond)
		case *Loop:
			s.Cond = widen(s.Cond)
		case *Return:
			s.Value = widen(s.Value)
		case *ExprStmt:
			s.X = widen(s.X)
		}
		return true
	})
}

// widen returns x widened; nil stays nil.
func widen(x Expr) Expr {
	if x == nil {
		return nil
	}
	ops := Operands(x)
	for i, y := range ops {
		ops[i] = widen(y)
	}
	switch e := x.(type) {
	case *Index:
		e.X, e.Index = ops[0], toWide(ops[1])
	case *FieldOf:
		e.X = ops[0]
	case *Unary:
		return narrowed(&Unary{Op: e.Op, X: toWide(ops[0]), T: wideOf(e.T)}, e.T)
	case *Binary:
		y := ops[1]
		if e.Op != OpShl && e.Op != OpShr {
			y = toWide(y)
		} else if IsNarrow(y.Type()) {
			y = toWide(y)
		}
		return narrowed(&Binary{Op: e.Op, X: toWide(ops[0]), Y: y, T: wideOf(e.T)}, e.T)
	case *Convert:
		return convertNarrow(ops[0], e.T)
	case *Bitcast:
		e.X = ops[0]
	case *CallBuiltin:
		args := make([]Expr, len(ops))
		for i, a := range ops {
			args[i] = toWide(a)
		}
		return narrowed(&CallBuiltin{Fn: e.Fn, Args: args, T: wideOf(e.T)}, e.T)
	case *Call:
		e.Args = ops
	case *Atomic:
		e.Ptr, e.Args = ops[0], ops[1:]
	case *Wave:
		e.Args = ops
	}
	return x
}

// wideOf returns the type a narrow t computes in, and any other t itself.
func wideOf(t Type) Type {
	if b, ok := t.(*Basic); ok {
		return b.Wide()
	}
	return t
}

// toWide returns x as its Wide type: a narrow constant becomes the wide
// constant of the same bits (they are held extended), another narrow
// value a Convert.
func toWide(x Expr) Expr {
	b, ok := x.Type().(*Basic)
	if !ok || !b.Narrow() {
		return x
	}
	if c, ok := x.(*Const); ok {
		return &Const{T: b.Wide(), Bits: c.Bits}
	}
	return &Convert{X: x, T: b.Wide()}
}

// narrowed converts the 32-bit result x back to t when t is narrow.
func narrowed(x Expr, t Type) Expr {
	if b, ok := t.(*Basic); ok && b.Narrow() {
		return &Convert{X: x, T: b}
	}
	return x
}

// convertNarrow returns x converted to t where one side may be narrow: a
// narrow source is first extended to its Wide type, and a narrow
// destination is reached from a 32-bit integer of its signedness (from a
// float32 through the 32-bit conversion, which truncates toward zero as
// Go does for values in range).
func convertNarrow(x Expr, t *Basic) Expr {
	x = toWide(x)
	if !t.Narrow() {
		if x.Type() == Type(t) {
			return x
		}
		return &Convert{X: x, T: t}
	}
	if IsKind(x.Type(), F32) || IsWide64(x.Type()) {
		x = &Convert{X: x, T: t.Wide()}
	}
	if c, ok := x.(*Const); ok {
		return &Const{T: t, Bits: ExtendBits(c.Bits, t)}
	}
	return &Convert{X: x, T: t}
}

// ExtendBits returns the 32-bit pattern of v truncated to the width of t
// and extended back as t's Wide type: the bits a narrow constant holds.
func ExtendBits(v uint32, t *Basic) uint32 {
	if !t.Narrow() {
		return v
	}
	sh := uint(32 - 8*t.Size())
	if t.Signed() {
		return uint32(int32(v<<sh) >> sh)
	}
	return v << sh >> sh
}
