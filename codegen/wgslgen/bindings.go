package wgslgen

import (
	"fmt"
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// The names of the uniform block, its struct and its padding members.
const (
	uniformVar    = "xpu_u"
	uniformStruct = "xpu_Uniforms"
)

// bindings declares the buffers, the uniform block and the shared arrays.
func (l *lowerer) bindings() {
	var scalars []*ir.Param
	nb := 0
	for _, p := range l.k.Params {
		l.at(p.Pos)
		switch p.Kind {
		case ir.BufferParam:
			l.buffer(p, nb)
			nb++
		case ir.ScalarParam:
			scalars = append(scalars, p)
		default:
			l.fail(ruleIR, "parameter %s of unknown kind %d", p.Name, p.Kind)
		}
	}
	l.words = launchWords(l.k)
	l.uniforms(scalars, nb)
	l.faultBinding = nb + 1
	for _, s := range l.k.Shared {
		l.at(s.Pos)
		var elem wgsl.Type
		if s.Access == schema.AccessAtomic {
			elem = &wgsl.Atomic{Elem: l.atomicElem(s.Elem, s.AtomicElem, "shared array "+s.Name)}
		} else {
			elem = l.typ(s.Elem)
		}
		if s.Len <= 0 {
			l.fail(ruleIR, "shared array %s of length %d", s.Name, s.Len)
		}
		l.globalDecls = append(l.globalDecls, &wgsl.GlobalVar{
			Space: wgsl.Workgroup,
			Name:  l.global(mangle(prefixShared, s.Name), "shared array "+s.Name),
			Type:  &wgsl.Array{Elem: elem, Len: s.Len},
		})
	}
}

// buffer declares the buffer parameter p at binding i.
func (l *lowerer) buffer(p *ir.Param, i int) {
	if p.Binding != i {
		l.fail(ruleBinding, "buffer %s has binding %d, want %d (buffers bind in parameter order)", p.Name, p.Binding, i)
	}
	if !hostShareable(p.Type) {
		l.fail(ruleHostShare, "buffer %s holds %v: bool cannot live in device memory; use uint32", p.Name, p.Type)
	}
	v := &wgsl.GlobalVar{
		Attrs:  []*wgsl.Attr{wgsl.GroupAttr(0), wgsl.BindingAttr(i)},
		Space:  wgsl.Storage,
		Access: wgsl.ReadWrite,
		Name:   l.global(mangle(prefixBuffer, p.Name), "buffer "+p.Name),
	}
	switch p.Access {
	case schema.AccessRead:
		v.Access = wgsl.Read
	case schema.AccessWrite, schema.AccessReadWrite:
		l.storage = true
	case schema.AccessAtomic:
		l.storage = true
	}
	var elem wgsl.Type
	if p.Access == schema.AccessAtomic {
		elem = &wgsl.Atomic{Elem: l.atomicElem(p.Type, p.AtomicElem, "buffer "+p.Name)}
	} else {
		elem = l.typ(p.Type)
	}
	v.Type = &wgsl.Array{Elem: elem}
	if narrowBuffer(p) {
		v.Type = narrowWords(p)
	}
	l.globalDecls = append(l.globalDecls, v)
}

// atomicElem returns the WGSL element type of an atomic array whose Go
// element type is t and whose analyzed atomic element type is a (nil when
// the analysis left it out): i32 and u32 stay, float32 is u32 read
// through bitcasts.
func (l *lowerer) atomicElem(t, a ir.Type, what string) wgsl.Type {
	if a == nil {
		a = t
		if ir.IsKind(t, ir.F32) {
			a = ir.U32Type
		}
	}
	if _, ok := t.(*ir.Struct); ok {
		l.fail(ruleAtomicStruct, "%s: atomics on struct fields are not supported; keep the atomic counters in a []int32 or []uint32 of their own", what)
		return wgsl.U32Type
	}
	if !ir.IsInteger(a) || !(ir.IsInteger(t) || ir.IsKind(t, ir.F32)) {
		l.fail(ruleAtomicAccess, "%s: atomic element type %v of %v; atomics work on int32, uint32 and float32 elements", what, a, t)
		return wgsl.U32Type
	}
	return scalar(a.(*ir.Basic).Kind)
}

// uniforms declares the uniform block, the struct of the scalar
// parameters and the launch words, and its binding.
func (l *lowerer) uniforms(scalars []*ir.Param, binding int) {
	scalars = slices.Clone(scalars)
	slices.SortStableFunc(scalars, func(a, b *ir.Param) int { return a.Binding - b.Binding })
	s := &wgsl.Struct{Name: l.global(uniformStruct, "the uniform block")}
	off := 0
	for _, p := range scalars {
		l.at(p.Pos)
		if !ir.IsInteger(p.Type) && !ir.IsKind(p.Type, ir.F32) {
			l.fail(ruleHostShare, "scalar parameter %s is %v: uniforms are int32, uint32 or float32", p.Name, p.Type)
		}
		if p.Binding%4 != 0 || p.Binding < off {
			l.fail(ruleBinding, "scalar parameter %s at uniform offset %d: offsets must be multiples of 4 and must not overlap", p.Name, p.Binding)
		}
		for ; off < p.Binding; off += 4 {
			s.Fields = append(s.Fields, &wgsl.Field{Name: fmt.Sprintf("xpu_pad%d", off), Type: wgsl.U32Type})
		}
		s.Fields = append(s.Fields, &wgsl.Field{Name: mangle(prefixUniform, p.Name), Type: l.typ(p.Type)})
		off += 4
	}
	// The launch words follow the scalars' block (schema.Word).
	for end := ir.UniformSize(l.k); off < end; off += 4 {
		s.Fields = append(s.Fields, &wgsl.Field{Name: fmt.Sprintf("xpu_pad%d", off), Type: wgsl.U32Type})
	}
	for _, w := range l.words {
		s.Fields = append(s.Fields, &wgsl.Field{Name: l.wordField(w), Type: wgsl.U32Type})
	}
	l.structOrder = append(l.structOrder, s)
	l.globalDecls = append(l.globalDecls, &wgsl.GlobalVar{
		Attrs: []*wgsl.Attr{wgsl.GroupAttr(0), wgsl.BindingAttr(binding)},
		Space: wgsl.Uniform,
		Name:  l.global(uniformVar, "the uniform block"),
		Type:  &wgsl.Named{Name: s.Name},
	})
}

// launchWords returns the launch words of k's modules: the grid words,
// which every module reads (its entry point unfolds a folded grid:
// grid.go), so that every module has a uniform block; then the length of
// each narrow buffer, whose binding counts words.
func launchWords(k *ir.Kernel) []schema.Word {
	ws := slices.Clone(schema.GridWords)
	for i, p := range k.Params {
		if narrowBuffer(p) {
			ws = append(ws, schema.Word{Kind: schema.WordLen, Param: i})
		}
	}
	return ws
}

// wordField names the member of the uniform block that holds w.
func (l *lowerer) wordField(w schema.Word) string {
	switch w.Kind {
	case schema.WordGroupsX:
		return "xpu_groups_x"
	case schema.WordGroupsY:
		return "xpu_groups_y"
	case schema.WordGroupsZ:
		return "xpu_groups_z"
	case schema.WordFolded:
		return "xpu_folded"
	case schema.WordLen:
		return mangle("xpu_len_", l.k.Params[w.Param].Name)
	}
	l.fail(ruleIR, "launch word of unknown kind %d", w.Kind)
	return "xpu_word"
}

// word reads the launch word w, which the module declares.
func (l *lowerer) word(w schema.Word) wgsl.Expr {
	return &wgsl.Member{X: wgsl.Id(uniformVar), Name: l.wordField(w)}
}
