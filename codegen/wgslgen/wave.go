package wgslgen

// This file lowers the wave verbs and queries at one wave tier.
//
// A virtual wave of W lanes is a range of W consecutive local indices. The
// tiers differ in how lanes meet:
//
//   - native: the device's subgroups are the waves (subgroup size S = W,
//     or a width-agnostic kernel, whose W is S): subgroup builtins.
//   - folded (S < W): a wave spans W/S subgroups; each subgroup reduces,
//     scans or votes over its own lanes with a subgroup builtin, and the
//     lanes combine the W/S subgroup results through workgroup memory and
//     barriers (wavefold.go); shuffles go through workgroup memory, as in
//     the emulated tier.
//   - narrow (S > W): each subgroup holds S/W waves; lanes meet through
//     subgroupShuffle, each lane reading only the lanes of its own wave.
//   - emulated (no subgroups): lanes meet through workgroup memory and
//     barriers, legal because the front end admits wave verbs only in
//     workgroup-uniform control flow.
//
// Reductions and scans in the memory and shuffle tiers run over the lanes
// in lane order, as the reference runner does.

import (
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// EmulatedWidth is the wave width of a width-agnostic kernel in the
// emulated tier.
const EmulatedWidth = 32

// MaxSubgroup bounds the subgroup sizes the variants cover.
const MaxSubgroup = 128

// variant is the wave tier of one of a kernel's WGSL artifacts and the
// devices it is for.
type variant struct {
	tier schema.Tier
	sel  schema.Selector
}

// variants returns the tiers k needs, each with its selector: one without
// a tier for a kernel that uses no wave verb or query; for a
// width-agnostic kernel, native and emulated; for a declared width W,
// native (S = W), folded (S < W), narrow (W < S <= MaxSubgroup) and
// emulated, which runs on any device.
func variants(k *ir.Kernel) []variant {
	if !ir.UsesWaves(k) && k.Wave == 0 {
		return []variant{{}}
	}
	var vs []variant
	if w := k.Wave; w == 0 {
		maxS := uint32(MaxSubgroup)
		if usesBallot(k) {
			maxS = 32
		}
		vs = append(vs, variant{schema.TierNative, schema.Selector{SubgroupMin: 4, SubgroupMax: maxS}})
	} else {
		vs = append(vs, variant{schema.TierNative, schema.Selector{SubgroupMin: w, SubgroupMax: w, Width: w}})
		if w > 4 {
			vs = append(vs, variant{schema.TierFolded, schema.Selector{SubgroupMin: 4, SubgroupMax: w / 2, Width: w}})
		}
		if w < MaxSubgroup {
			vs = append(vs, variant{schema.TierNarrow, schema.Selector{SubgroupMin: 2 * w, SubgroupMax: MaxSubgroup, Width: w}})
		}
	}
	em := k.Wave
	if em == 0 {
		em = EmulatedWidth
	}
	return append(vs, variant{schema.TierEmulated, schema.Selector{Width: em}})
}

func usesBallot(k *ir.Kernel) bool {
	found := false
	ir.WalkStmts(k.Body, func(s ir.Stmt) bool {
		if w, _ := ir.WaveStmt(s); w != nil && w.Op == schema.WaveBallot {
			found = true
		}
		return !found
	})
	return found
}

// GenerateTier lowers k at tier and prints it.
func GenerateTier(k *ir.Kernel, tier schema.Tier) (string, error) {
	m, err := lower(k, tier)
	if err != nil {
		return "", err
	}
	return print(k, m)
}

// waveWidth returns the static wave width of the tier, or nil when it is
// the subgroup size (native, width-agnostic).
func (l *lowerer) waveWidth() wgsl.Expr {
	switch {
	case l.k.Wave != 0:
		return wgsl.U32Lit(l.k.Wave)
	case l.tier == schema.TierNative:
		return nil
	}
	return wgsl.U32Lit(EmulatedWidth)
}

// subgroups reports whether the tier uses subgroup builtins.
func (l *lowerer) subgroups() bool { return l.tier != "" && l.tier != schema.TierEmulated }

// waveQuery lowers WaveWidth and LaneIndex.
func (l *lowerer) waveQuery(fn ir.Builtin) wgsl.Expr {
	w := l.waveWidth()
	if w == nil {
		if fn == ir.WaveWidth {
			return l.entryValue(sgSize)
		}
		return l.entryValue(sgLane)
	}
	if fn == ir.WaveWidth {
		return w
	}
	return bin(wgsl.Rem, l.entryValue(entryBuiltins[4]), w)
}

// The subgroup builtins of the entry point.
var (
	sgLane = entryBuiltins[5]
	sgSize = entryBuiltins[6]
)

// scratch returns the workgroup array the memory tiers exchange through,
// declaring it on first use: one u32 per lane, the block rounded up to
// whole waves.
func (l *lowerer) scratch() wgsl.Expr {
	const name = "xpu_wave"
	if _, ok := l.globals[name]; !ok {
		b := l.blockSize()
		n, w := b[0]*b[1]*b[2], l.k.Wave
		if w == 0 {
			w = EmulatedWidth
		}
		l.globalDecls = append(l.globalDecls, &wgsl.GlobalVar{
			Space: wgsl.Workgroup, Name: l.global(name, "the wave exchange"),
			Type: &wgsl.Array{Elem: wgsl.U32Type, Len: int((n + w - 1) / w * w)},
		})
	}
	return wgsl.Id(name)
}

// waveStmt lowers dst = w (a Decl when decl). The native tier's
// reductions, scans and votes are one subgroup builtin each; every other
// verb calls the module's helper of its family and operand type
// (wavehelper.go), passing the verb as an operand.
func (l *lowerer) waveStmt(w *ir.Wave, dst *ir.Var, decl bool) {
	if l.tier == "" {
		l.fail(ruleWaveTier, "%s needs a wave tier", w.Op)
		return
	}
	name := l.local(dst)
	x := l.expr(w.Args[0])
	var r wgsl.Expr
	if l.tier == schema.TierNative && !w.Op.IsShuffle() {
		r = l.waveNative(w.Op, x)
	} else {
		t := l.typ(w.Args[0].Type())
		if w.Op.IsPredicate() {
			t, x = wgsl.U32Type, wgsl.CallOf("select", wgsl.U32Lit(0), wgsl.U32Lit(1), x)
		}
		args := []wgsl.Expr{x}
		if w.Op.IsShuffle() {
			args = append(args, l.expr(w.Args[1]))
		}
		op := waveCode(w.Op)
		args = append(args, wgsl.U32Lit(uint32(op)))
		r = wgsl.CallOf(l.waveHelper(waveFamilyOf(op), t), args...)
		if op == schema.WaveAny || op == schema.WaveAll {
			r = bin(wgsl.Ne, r, wgsl.U32Lit(0))
		}
	}
	switch {
	case decl && !l.assigned[dst] && isBasic(dst.Type):
		l.letDecl(dst, name, r)
		return
	case decl:
		l.emit(&wgsl.VarDecl{Name: name, Type: l.typ(dst.Type), Init: r})
		return
	}
	l.emit(&wgsl.Assign{LHS: wgsl.Id(name), RHS: r})
}

// waveNative lowers a reduction, scan or vote of x to a subgroup builtin.
func (l *lowerer) waveNative(op schema.WaveOp, x wgsl.Expr) wgsl.Expr {
	switch op {
	case schema.WaveSum:
		return wgsl.CallOf("subgroupAdd", x)
	case schema.WaveMin:
		return wgsl.CallOf("subgroupMin", x)
	case schema.WaveMax:
		return wgsl.CallOf("subgroupMax", x)
	case schema.WavePrefixSum:
		return wgsl.CallOf("subgroupInclusiveAdd", x)
	case schema.WaveExclusivePrefixSum:
		return wgsl.CallOf("subgroupExclusiveAdd", x)
	case schema.WaveBallot:
		return &wgsl.Member{X: wgsl.CallOf("subgroupBallot", x), Name: "x"}
	case schema.WaveAny:
		return wgsl.CallOf("subgroupAny", x)
	case schema.WaveAll:
		return wgsl.CallOf("subgroupAll", x)
	}
	l.fail(ruleIR, "wave verb %v", op)
	return x
}

func isU32(t wgsl.Type) bool {
	s, ok := t.(*wgsl.Scalar)
	return ok && s.Kind == wgsl.U32
}
