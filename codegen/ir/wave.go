package ir

// This file defines the IR's call of a wave verb (the verbs are schema.WaveOp).

import "github.com/goxpu/xpu/schema"

// Wave is a call of a wave verb: a point where the lanes of a wave meet,
// like a barrier. The front end puts it anywhere a value can be, in the
// kernel body and in device functions; after Flatten it is only the
// whole Init of a Decl or Value of an Assign to a local variable in the
// kernel body (see WaveStmt), so that every lowering can treat it as a
// statement. Its value is never workgroup-uniform, and it must be reached
// in workgroup-uniform control flow (Analyze reports it otherwise).
type Wave struct {
	Op   schema.WaveOp
	Args []Expr // the value (or predicate), then for a shuffle the lane
	T    Type
	Pos  Pos
}

// Type returns the verb's result type.
func (w *Wave) Type() Type { return w.T }

// WaveStmt returns the wave verb s computes and the variable it sets, when
// s is a Decl or Assign whose whole value is one.
func WaveStmt(s Stmt) (*Wave, *Var) {
	switch s := s.(type) {
	case *Decl:
		if w, ok := s.Init.(*Wave); ok {
			return w, s.Var
		}
	case *Assign:
		w, ok := s.Value.(*Wave)
		r, isVar := s.Dst.(*VarRef)
		if ok && isVar {
			return w, r.Var
		}
	}
	return nil, nil
}

// UsesWaves reports whether k's body or a function it calls uses wave
// verbs or queries the wave (WaveWidth, LaneIndex).
func UsesWaves(k *Kernel) bool {
	found := false
	see := func(x Expr) bool {
		switch e := x.(type) {
		case *Wave:
			found = true
		case *CallBuiltin:
			found = found || e.Fn == WaveWidth || e.Fn == LaneIndex
		}
		return !found
	}
	bodies := []*Block{k.Body}
	for _, f := range k.Funcs {
		bodies = append(bodies, f.Body)
	}
	for _, b := range bodies {
		WalkStmts(b, func(s Stmt) bool {
			for _, x := range StmtExprs(s) {
				WalkExpr(x, see)
			}
			return !found
		})
	}
	return found
}

// UsesWaveVerbs reports whether k's body calls a wave verb.
func UsesWaveVerbs(k *Kernel) bool {
	found := false
	WalkStmts(k.Body, func(s Stmt) bool {
		if w, _ := WaveStmt(s); w != nil {
			found = true
		}
		return !found
	})
	return found
}

// waves sets Func.Wave for every device function of k (callees first).
func waves(k *Kernel) {
	for _, f := range k.Funcs {
		f.Wave = ""
		WalkStmts(f.Body, func(s Stmt) bool {
			for _, x := range StmtExprs(s) {
				WalkExpr(x, func(e Expr) bool {
					switch e := e.(type) {
					case *Wave:
						if f.Wave == "" {
							f.Wave = e.Op.String()
						}
					case *Call:
						if f.Wave == "" {
							f.Wave = e.Func.Wave
						}
					}
					return f.Wave == ""
				})
			}
			return f.Wave == ""
		})
	}
}
