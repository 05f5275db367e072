package wgslgen

import (
	"fmt"
	"slices"

	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/schema"
	"github.com/goxpu/xpu/wgsl"
)

// Generate lowers k to WGSL and prints it: for a kernel that uses waves,
// at the emulated tier (see Lower).
func Generate(k *ir.Kernel) (string, error) {
	m, err := Lower(k)
	if err != nil {
		return "", err
	}
	return print(k, m)
}

// Lower builds the WGSL module of k. It returns the first rule k breaks
// as an *Error. A kernel that uses waves is lowered at the emulated tier,
// which runs on every device; Artifacts gives the others.
func Lower(k *ir.Kernel) (*wgsl.Module, error) {
	var tier schema.Tier
	if k != nil && k.Body != nil && (k.Wave != 0 || ir.UsesWaves(k)) {
		tier = schema.TierEmulated
	}
	return lower(k, tier)
}

// lower builds the WGSL module of k at a wave tier ("" for a kernel
// without waves).
func lower(k *ir.Kernel, tier schema.Tier) (*wgsl.Module, error) {
	if k == nil || k.Body == nil {
		return nil, &Error{Rule: ruleIR, Msg: "kernel without a body"}
	}
	switch tier {
	case "", schema.TierNative, schema.TierFolded, schema.TierNarrow, schema.TierEmulated:
	default:
		return nil, &Error{Pos: k.Pos, Rule: ruleWaveTier, Msg: "unknown wave tier " + string(tier)}
	}
	l := &lowerer{
		tier:     tier,
		k:        k,
		globals:  map[string]string{},
		structs:  map[*ir.Struct]*wgsl.Struct{},
		helpers:  map[string]*wgsl.Func{},
		builtin:  map[string]bool{},
		private:  map[string]bool{},
		fences:   storageFences(k),
		assigned: assignedVars(k),
		unrolls:  map[*ir.Loop]*unrolling{},
		vectors:  vectorsFit(k),
	}
	l.pos = k.Pos
	if k.Wave != 0 && tier == "" {
		l.fail(ruleWaveTier, "kernel %s declares wave=%d: it needs a wave tier", k.Name, k.Wave)
	}
	for _, s := range k.Structs {
		l.structDecl(s)
	}
	l.bindings()
	var funcs []wgsl.Decl
	for _, f := range k.Funcs {
		funcs = append(funcs, l.funcDecl(f))
	}
	main := l.entryPoint()
	if l.fault {
		l.faultDecl()
	}
	if l.err != nil {
		return nil, l.err
	}

	m := &wgsl.Module{}
	if l.subgroups() {
		m.Enable = []string{"subgroups"}
	}
	for _, s := range l.structOrder {
		m.Decls = append(m.Decls, s)
	}
	m.Decls = append(m.Decls, l.globalDecls...)
	m.Decls = append(m.Decls, l.privateDecls()...)
	names := make([]string, 0, len(l.helpers))
	for n := range l.helpers {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		m.Decls = append(m.Decls, l.helpers[n])
	}
	m.Decls = append(m.Decls, funcs...)
	m.Decls = append(m.Decls, main)
	return m, nil
}

// lowerer holds the state of one kernel's lowering.
type lowerer struct {
	tier schema.Tier // the wave tier; "" for a kernel without waves
	k    *ir.Kernel
	err  error
	pos  ir.Pos // position of the statement being lowered

	globals      map[string]string // module-scope WGSL names taken, with what took them
	structs      map[*ir.Struct]*wgsl.Struct
	structOrder  []*wgsl.Struct
	globalDecls  []wgsl.Decl // bindings, uniform struct and workgroup arrays
	helpers      map[string]*wgsl.Func
	waveOps      map[string]opSet        // the verbs each wave helper serves (waveUses)
	fault        bool                    // a helper records faults: the fault word is declared
	words        []schema.Word           // the launch words the uniform block ends with
	faultBinding int                     // the binding of the fault word
	builtin      map[string]bool         // entry-point builtins the kernel body reads
	private      map[string]bool         // private copies of builtins device functions read
	storage      bool                    // some buffer is written: barriers fence storage too
	fences       map[*ir.Barrier]bool    // the kernel body's barriers that fence storage
	assigned     map[*ir.Var]bool        // variables stored to after their declaration
	vectors      bool                    // four-element arrays are vec4s (vectorsFit)
	unrolls      map[*ir.Loop]*unrolling // each counted loop's unrolling, decided once (unroll.go)

	fn *funcState // the function being lowered
}

// funcState is the state of the function being lowered.
type funcState struct {
	main   bool
	locals map[string]*ir.Var
	temps  int
	out    *[]wgsl.Stmt          // the statement list being built
	lets   map[string]bool       // the lets of never-assigned variables
	alias  map[*ir.Var]wgsl.Expr // variables that spell another value (letDecl)
	once   map[*ir.Var]bool      // variables named once, by the next statements of their block
	depth  int                   // how deep the blocks being built nest (maxNesting)
}

func newFuncState(main bool, out *[]wgsl.Stmt) *funcState {
	return &funcState{main: main, locals: map[string]*ir.Var{}, out: out, lets: map[string]bool{}, alias: map[*ir.Var]wgsl.Expr{}, once: map[*ir.Var]bool{}}
}

// fail records the first error.
func (l *lowerer) fail(rule, format string, args ...any) {
	if l.err == nil {
		l.err = &Error{Pos: l.pos, Rule: rule, Msg: fmt.Sprintf(format, args...)}
	}
}

// emit appends s to the statement list being built.
func (l *lowerer) emit(s ...wgsl.Stmt) { *l.fn.out = append(*l.fn.out, s...) }

// temp returns a fresh name for a value the lowering introduces.
func (l *lowerer) temp() string {
	l.fn.temps++
	return fmt.Sprintf("xpu_t%d", l.fn.temps)
}

// global claims a module-scope name for what (a description for errors).
func (l *lowerer) global(name, what string) string {
	if prev, ok := l.globals[name]; ok {
		l.fail(ruleName, "%s and %s both become %s in WGSL; rename one", prev, what, name)
	}
	l.globals[name] = what
	return name
}

// at makes p the position of what is lowered next; an unknown position
// falls back to the kernel's.
func (l *lowerer) at(p ir.Pos) {
	if p.File == "" {
		p = l.k.Pos
	}
	l.pos = p
}
