package wgslgen

import (
	"fmt"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/wgsl"
)

// entryBuiltin is a builtin input of the entry point: its WGSL builtin
// name, the entry parameter that receives it, and the private variable
// that holds a copy for device functions.
type entryBuiltin struct {
	builtin, param, private string
	vector                  bool // vec3<u32> rather than u32
}

// entryBuiltins lists the builtins in the order main declares them.
var entryBuiltins = []entryBuiltin{
	{"global_invocation_id", "gid", "xpu_gid", true},
	{"local_invocation_id", "lid", "xpu_lid", true},
	{"workgroup_id", "wid", "xpu_wid", true},
	{"num_workgroups", "nwg", "xpu_nwg", true},
	{"local_invocation_index", "lidx", "xpu_lidx", false},
	{"subgroup_invocation_id", "sgid", "xpu_sgid", false},
	{"subgroup_size", "sgsize", "xpu_sgsize", false},
}

func (b entryBuiltin) typ() wgsl.Type {
	if b.vector {
		return &wgsl.Vec{N: 3, Elem: wgsl.U32Type}
	}
	return wgsl.U32Type
}

// threadQuery lowers a coordinate or size query. The kernel body reads
// the entry point's parameters (workgroup_id and num_workgroups stay
// uniform for WGSL's uniformity analysis); device functions read private
// copies that main fills first.
func (l *lowerer) threadQuery(fn ir.Builtin) wgsl.Expr {
	var b entryBuiltin
	axis := ""
	switch fn {
	case ir.GlobalX, ir.GlobalY, ir.GlobalZ:
		b, axis = entryBuiltins[0], "xyz"[fn-ir.GlobalX:][:1]
	case ir.LocalX, ir.LocalY, ir.LocalZ:
		b, axis = entryBuiltins[1], "xyz"[fn-ir.LocalX:][:1]
	case ir.GroupX, ir.GroupY, ir.GroupZ:
		b, axis = entryBuiltins[2], "xyz"[fn-ir.GroupX:][:1]
	case ir.NumGroupsX, ir.NumGroupsY, ir.NumGroupsZ:
		b, axis = entryBuiltins[3], "xyz"[fn-ir.NumGroupsX:][:1]
	case ir.LocalIndex:
		b = entryBuiltins[4]
	case ir.BlockX, ir.BlockY, ir.BlockZ:
		return wgsl.U32Lit(l.blockSize()[fn-ir.BlockX])
	case ir.WaveWidth, ir.LaneIndex:
		if l.tier == "" {
			l.fail(ruleWaveTier, "wave queries need a wave tier: %v", fn)
			return wgsl.U32Lit(0)
		}
		return l.waveQuery(fn)
	default:
		l.fail(ruleIR, "%v is not a thread query", fn)
		return wgsl.U32Lit(0)
	}
	x := l.entryValue(b)
	if axis != "" {
		x = &wgsl.Member{X: x, Name: axis}
	}
	return x
}

// entryValue reads the entry point's builtin b: its parameter in the
// kernel body, its private copy in device functions.
func (l *lowerer) entryValue(b entryBuiltin) wgsl.Expr {
	var x wgsl.Expr
	if l.fn.main {
		l.builtin[b.builtin] = true
		x = wgsl.Id(b.param)
	} else {
		l.builtin[b.builtin] = true
		l.private[b.builtin] = true
		x = wgsl.Id(b.private)
	}
	return x
}

// blockSize returns the pinned block size, zero sizes read as 1.
func (l *lowerer) blockSize() [3]uint32 {
	b := l.k.Block
	for i := range b {
		if b[i] == 0 {
			b[i] = 1
		}
	}
	return b
}

// privateDecls declares the private copies of builtins that device
// functions read.
func (l *lowerer) privateDecls() []wgsl.Decl {
	var ds []wgsl.Decl
	for _, b := range entryBuiltins {
		if l.private[b.builtin] {
			ds = append(ds, &wgsl.GlobalVar{Space: wgsl.Private, Name: b.private, Type: b.typ()})
		}
	}
	return ds
}

// entryPoint lowers the kernel body as fn main. Its builtins arrive as
// parameters named as the body reads them, but for the grid's: the
// prologue (gridPrologue) declares those from the physical ones.
func (l *lowerer) entryPoint() *wgsl.Func {
	var body []wgsl.Stmt
	l.fn = newFuncState(true, &body)
	l.stmts(l.k.Body)
	prologue := l.gridPrologue()
	var params []*wgsl.Param
	var copies []wgsl.Stmt
	for _, b := range entryBuiltins {
		if !l.builtin[b.builtin] {
			continue
		}
		if l.private[b.builtin] {
			copies = append(copies, &wgsl.Assign{LHS: wgsl.Id(b.private), RHS: wgsl.Id(b.param)})
		}
		name := b.param
		if g, ok := gridBuiltins[b.builtin]; ok {
			if !g.physical {
				continue // the prologue computes it
			}
			name = g.name
		}
		params = append(params, &wgsl.Param{Attrs: []*wgsl.Attr{wgsl.BuiltinAttr(b.builtin)}, Name: name, Type: b.typ()})
	}
	blk := l.blockSize()
	stmts := append(prologue, copies...)
	return &wgsl.Func{
		Doc:    fmt.Sprintf("main is kernel %s, block %dx%dx%d.", l.k.Name, blk[0], blk[1], blk[2]),
		Attrs:  []*wgsl.Attr{wgsl.ComputeAttr(), wgsl.WorkgroupSizeAttr(blk[0], blk[1], blk[2])},
		Name:   "main",
		Params: params,
		Body:   &wgsl.Block{Stmts: append(stmts, body...)},
	}
}

// funcDecl lowers a device function. WGSL parameters are immutable and
// arrays passed by value cannot be indexed dynamically, so each parameter
// arrives as a_name and is copied into the variable v_name that the body
// uses, as Go's parameters are variables.
func (l *lowerer) funcDecl(f *ir.Func) *wgsl.Func {
	l.at(f.Pos)
	var body []wgsl.Stmt
	l.fn = newFuncState(false, &body)
	d := &wgsl.Func{Name: l.global(mangle(prefixFunc, f.Name), "function "+f.Name)}
	if f.Result != nil {
		d.Result = l.typ(f.Result)
	}
	for _, v := range f.Params {
		name := l.local(v)
		a := mangle(prefixParam, v.Name)
		d.Params = append(d.Params, &wgsl.Param{Name: a, Type: l.typ(v.Type)})
		l.emit(&wgsl.VarDecl{Name: name, Type: l.typ(v.Type), Init: wgsl.Id(a)})
	}
	if f.Body == nil {
		l.fail(ruleIR, "function %s has no body", f.Name)
	} else {
		l.stmts(f.Body)
	}
	if f.Result != nil {
		// Go guarantees the end is unreachable; WGSL's behavior analysis
		// does not know Go's terminating statements, so end with a return.
		if _, ok := lastStmt(body).(*wgsl.Return); !ok {
			body = append(body, &wgsl.Return{Value: l.zero(f.Result)})
		}
	}
	d.Body = &wgsl.Block{Stmts: body}
	return d
}

func lastStmt(s []wgsl.Stmt) wgsl.Stmt {
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// local returns the WGSL name of the variable v, checking that no other
// variable of the function mangles alike.
func (l *lowerer) local(v *ir.Var) string {
	name := mangle(prefixVar, v.Name)
	if prev, ok := l.fn.locals[name]; ok && prev != v {
		l.fail(ruleName, "variables %s and %s both become %s in WGSL; rename one", prev.Name, v.Name, name)
	}
	l.fn.locals[name] = v
	return name
}
