package wgslgen

// This file lowers the launch's grid. A dispatch has at most the device's
// groups per dimension on each axis (65,535 at least); the runtime
// dispatches a larger grid folded (gpu/driver.Fold) and says so in the
// grid words (schema.WordFolded). The entry point's prologue numbers the
// groups of the physical grid x + X*y and gives group p the launch's
// coordinates of its p-th group, so that GroupX, GlobalX and NumGroupsX
// read the launch's grid however it was dispatched; the groups past the
// last return before the body. Every value involved is uniform over a
// group, so the return keeps the body's control flow uniform.

import (
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// gridBuiltins are the entry builtins the prologue replaces: by the
// physical builtin, under another name, or by a value it computes.
var gridBuiltins = map[string]struct {
	physical bool
	name     string
}{
	"global_invocation_id": {false, ""},
	"workgroup_id":         {true, "xpu_pwid"},
	"num_workgroups":       {true, "xpu_pnwg"},
}

// gridPrologue returns the statements that begin main: the early return
// of a folded dispatch's spare groups, and the declarations of the grid
// builtins the body reads (wid, nwg, gid), as the launch numbers them.
// It marks the builtins it reads as used.
func (l *lowerer) gridPrologue() []wgsl.Stmt {
	used := func(b string) bool { return l.builtin[b] }
	needWid := used("workgroup_id") || used("global_invocation_id")
	needGid, needNwg := used("global_invocation_id"), used("num_workgroups")
	l.builtin["workgroup_id"], l.builtin["num_workgroups"] = true, true
	if needGid {
		l.builtin["local_invocation_id"] = true
	}
	gx, gy, gz := l.word(schema.Word{Kind: schema.WordGroupsX}), l.word(schema.Word{Kind: schema.WordGroupsY}), l.word(schema.Word{Kind: schema.WordGroupsZ})
	pwid, pnwg := wgsl.Id("xpu_pwid"), wgsl.Id("xpu_pnwg")
	at := func(v wgsl.Expr, axis string) wgsl.Expr { return &wgsl.Member{X: v, Name: axis} }
	vec3 := &wgsl.Vec{N: 3, Elem: wgsl.U32Type}
	p := wgsl.Id("xpu_p")
	fold := []wgsl.Stmt{
		&wgsl.LetDecl{Name: "xpu_p", Init: bin(wgsl.Add, at(pwid, "x"), bin(wgsl.Mul, at(pnwg, "x"), at(pwid, "y")))},
		&wgsl.If{
			Cond: bin(wgsl.Ge, p, bin(wgsl.Mul, bin(wgsl.Mul, gx, gy), gz)),
			Then: &wgsl.Block{Stmts: []wgsl.Stmt{&wgsl.Return{}}},
		},
	}
	var out []wgsl.Stmt
	if needWid {
		out = append(out, &wgsl.VarDecl{Name: "wid", Init: pwid})
		fold = append(fold, &wgsl.Assign{LHS: wgsl.Id("wid"), RHS: &wgsl.Construct{Type: vec3, Args: []wgsl.Expr{
			bin(wgsl.Rem, p, gx),
			bin(wgsl.Rem, bin(wgsl.Div, p, gx), gy),
			bin(wgsl.Div, p, bin(wgsl.Mul, gx, gy)),
		}}})
	}
	out = append(out, &wgsl.If{
		Cond: bin(wgsl.Ne, l.word(schema.Word{Kind: schema.WordFolded}), wgsl.U32Lit(0)),
		Then: &wgsl.Block{Stmts: fold},
	})
	if needNwg {
		out = append(out, &wgsl.LetDecl{Name: "nwg", Init: &wgsl.Construct{Type: vec3, Args: []wgsl.Expr{gx, gy, gz}}})
	}
	if needGid {
		blk := l.blockSize()
		size := &wgsl.Construct{Type: vec3, Args: []wgsl.Expr{wgsl.U32Lit(blk[0]), wgsl.U32Lit(blk[1]), wgsl.U32Lit(blk[2])}}
		out = append(out, &wgsl.LetDecl{Name: "gid", Init: bin(wgsl.Add, bin(wgsl.Mul, wgsl.Id("wid"), size), wgsl.Id("lid"))})
	}
	return out
}
