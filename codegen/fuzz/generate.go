package fuzz

import (
	"fmt"
	"strings"
)

// Source returns the source of a Go file of package k that declares one
// kernel built from data, read as a sequence of choices (past its end
// every choice is the first, simplest one, so that any bytes make a
// kernel). The kernel is well-typed and inside the kernel language: every
// variable is used, constant expressions never overflow or divide by
// zero, barriers and wave verbs sit in workgroup-uniform control flow
// (no early exit under a non-uniform condition precedes them), wave
// verbs are whole values of declarations in the kernel body, shared
// arrays are declared at its top level, and the atomic buffers and
// shared arrays are touched only by atomics.
func Source(data []byte) []byte {
	g := &gen{data: data}
	return g.file()
}

// The scalar types of the kernel language.
type typ int

const (
	tF typ = iota // float32
	tI            // int32
	tU            // uint32
	tB            // bool
)

var typeNames = [...]string{tF: "float32", tI: "int32", tU: "uint32", tB: "bool"}

func (t typ) String() string { return typeNames[t] }

// expr is a generated expression: its text, whether Go takes it for a
// constant (so that no operator is applied to two constants, which could
// overflow at compile time), and whether it is workgroup-uniform.
type expr struct {
	s       string
	c       bool
	uniform bool
}

// local is a variable in scope.
type local struct {
	name    string
	t       typ
	kind    int // localScalar, localArray, localStruct
	n       int // array length
	uniform bool
	fixed   bool // a loop variable: read, never assigned
	read    bool
}

const (
	localScalar = iota
	localArray
	localStruct
)

// fn is a generated device function.
type fn struct {
	name   string
	params []typ
	result typ
}

// gen holds the state of one generation.
type gen struct {
	data []byte
	pos  int
	out  strings.Builder

	nodes  int // expressions written, against nodeBudget
	stmts  int // statements written, against stmtBudget
	names  int
	scopes [][]*local
	funcs  []fn

	inKernel bool // generating the kernel body, not a device function
	sync     bool // the kernel uses barriers, shared arrays and wave verbs
	hasS     bool // the struct S and its buffer are declared
	shared   bool // the shared arrays sf (float32) and su (uint32, atomic) exist
	wave     bool // wave verbs may be written
	loop     int  // enclosing loops
	switches int  // enclosing switches
	used     map[string]bool
}

const (
	nodeBudget = 1500
	stmtBudget = 160
	sharedLen  = 64
)

// next returns the next choice byte; 0 past the end of the data.
func (g *gen) next() int {
	if g.pos >= len(g.data) {
		return 0
	}
	b := g.data[g.pos]
	g.pos++
	return int(b)
}

// intn returns a choice in [0, n).
func (g *gen) intn(n int) int { return g.next() % n }

// chance reports a choice that is true about k times in 256 (never past
// the data's end).
func (g *gen) chance(k int) bool { return g.next() >= 256-k }

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(&g.out, format, args...) }

// trickyNames are identifiers that are fine in Go but reserved, builtin
// or meaningful in WGSL or in what the lowerings generate.
var trickyNames = []string{
	"fn", "loop", "let", "array", "vec4", "f32", "i32", "u32", "bitcast", "select_",
	"main", "ptr", "atomic", "workgroup", "storage", "uniform", "override", "enable",
	"sample", "mat2x2", "__x", "_x", "xpu_fault", "gid", "lid", "wid", "params",
	"self", "this", "module", "handle", "target", "lane", "ws", "w", "b", "g", "i",
	"blk", "acc", "out", "in", "res", "tmp", "sum", "state", "local", "group",
}

// name returns a fresh identifier, now and then a tricky one.
func (g *gen) name(prefix string) string {
	g.names++
	if g.chance(12) {
		if n := trickyNames[g.intn(len(trickyNames))]; !g.used[n] {
			if g.used == nil {
				g.used = make(map[string]bool)
			}
			g.used[n] = true
			return n
		}
	}
	if g.chance(24) {
		return fmt.Sprintf("%s%d", trickyNames[g.intn(len(trickyNames))], g.names)
	}
	if g.chance(8) {
		return trickyNames[g.intn(len(trickyNames))] + "_" + fmt.Sprint(g.names)
	}
	return fmt.Sprintf("%s%d", prefix, g.names)
}

// file writes the whole source.
func (g *gen) file() []byte {
	g.sync = g.chance(128)
	g.hasS = g.chance(96)
	g.printf("package k\n\nimport \"github.com/goxpu/xpu\"\n\n")
	if g.hasS {
		g.printf("type S struct {\n\tA float32\n\tB int32\n\tC uint32\n}\n\n")
	}
	for range g.intn(4) {
		g.function()
	}
	g.kernel()
	return []byte(g.out.String())
}

// The kernel's parameters: a buffer of each type (loaded and stored), an
// input, atomic buffers and scalars; then the struct buffer sb or the
// float atomic buffer af. With the fault word that makes eight storage
// buffers, WebGPU's default limit per stage.
const kernelParams = "t xpu.Thread, of []float32, oi []int32, ou []uint32, xf []float32, ai []int32, au []uint32, nf float32, ni int32, nu uint32"

// blocks are the block sizes a kernel may pin.
var (
	blocks       = []string{"64", "1", "32", "256", "8,8", "4,4,4", "1024", "7", "16,2", "96"}
	blockThreads = []int{64, 1, 32, 256, 64, 64, 1024, 7, 32, 96}
)

func (g *gen) kernel() {
	g.inKernel = true
	bi := g.intn(len(blocks))
	block := blocks[bi]
	dir := "//xpu:kernel block=" + block
	g.wave = g.sync && g.chance(128)
	if w := []int{4, 8, 16, 32}[g.intn(4)]; g.wave && g.chance(96) && w <= blockThreads[bi] {
		dir += fmt.Sprintf(" wave=%d", w)
	}
	if g.chance(32) {
		dir += " len(of)=nu"
	}
	params := kernelParams
	if g.hasS {
		params += ", sb []S"
	} else {
		params += ", af []float32"
	}
	g.printf("// K is generated.\n//\n%s\nfunc K(%s) {\n", dir, params)
	g.push()
	if g.sync {
		g.shared = true
		g.printf("\tsf := xpu.Shared[float32](t, %d)\n\tsu := xpu.Shared[uint32](t, %d)\n", sharedLen, sharedLen)
		g.printf("\tsf[t.LocalIndex()%%%d] = xf[t.GlobalX()]\n\tt.Barrier()\n", sharedLen)
	}
	g.block(1, true, g.intn(10)+1)
	if g.sync {
		g.printf("\tt.Barrier()\n\tof[t.GlobalX()] = sf[(t.LocalIndex()+1)%%%d]\n", sharedLen)
		g.printf("\tou[t.GlobalX()] = xpu.AtomicLoad(&su[t.LocalIndex()%%%d])\n", sharedLen)
	}
	g.pop(1)
	g.printf("}\n")
}

// function writes a device function of scalar parameters.
func (g *gen) function() {
	f := fn{name: g.name("dev"), result: typ(g.intn(3))}
	g.push()
	var ps []string
	for range g.intn(4) + 1 {
		t := typ(g.intn(4))
		v := g.declare(g.name("p"), t, false)
		v.read = true // a parameter may stay unused
		f.params = append(f.params, t)
		ps = append(ps, v.name+" "+t.String())
	}
	g.printf("func %s(%s) %s {\n", f.name, strings.Join(ps, ", "), f.result)
	g.block(1, false, g.intn(6))
	ret := g.expr(f.result, 0) // first, so that what it reads needs no sink
	g.pop(1)
	g.printf("\treturn %s\n", ret.s)
	g.printf("}\n\n")
	g.funcs = append(g.funcs, f)
}

func (g *gen) push() { g.scopes = append(g.scopes, nil) }

// pop closes the innermost scope, first storing every variable of it that
// was never read into an output buffer, so that each is used.
func (g *gen) pop(depth int) {
	vs := g.scopes[len(g.scopes)-1]
	for _, v := range vs {
		if !v.read {
			g.indent(depth)
			g.printf("%s\n", g.sink(v))
		}
	}
	g.scopes = g.scopes[:len(g.scopes)-1]
}

// sink is a statement that reads v. In a device function it is a blank
// assignment, elsewhere a store to an output buffer.
func (g *gen) sink(v *local) string {
	v.read = true
	x := v.name
	switch v.kind {
	case localArray:
		x += "[0]"
	case localStruct:
		if g.inKernel {
			return fmt.Sprintf("sb[t.GlobalX()] = %s", v.name)
		}
		return fmt.Sprintf("_ = %s", v.name)
	}
	if !g.inKernel {
		return "_ = " + x
	}
	switch v.t {
	case tF:
		return fmt.Sprintf("of[t.GlobalX()] = %s", x)
	case tI:
		return fmt.Sprintf("oi[t.GlobalX()] = %s", x)
	case tU:
		return fmt.Sprintf("ou[t.GlobalX()] = %s", x)
	}
	return fmt.Sprintf("if %s {\n\t\tou[0] = 1\n\t}", x)
}

func (g *gen) declare(name string, t typ, uniform bool) *local {
	v := &local{name: name, t: t, uniform: uniform}
	g.scopes[len(g.scopes)-1] = append(g.scopes[len(g.scopes)-1], v)
	return v
}

func (g *gen) indent(depth int) { g.out.WriteString(strings.Repeat("\t", depth)) }

// block writes up to n statements at depth; uniform says whether control
// flow here is workgroup-uniform.
func (g *gen) block(depth int, uniform bool, n int) {
	for range n {
		if g.stmts >= stmtBudget {
			return
		}
		g.stmt(depth, uniform)
	}
}

// stmt writes one statement.
func (g *gen) stmt(depth int, uniform bool) {
	g.stmts++
	sync := g.inKernel && g.sync && uniform
	switch c := g.intn(20); {
	case c < 5: // a declaration
		t := typ(g.intn(4))
		x := g.expr(t, 0)
		v := g.declare(g.name("v"), t, x.uniform && uniform)
		g.indent(depth)
		if x.c && g.chance(128) {
			g.printf("var %s %s = %s\n", v.name, t, x.s)
		} else if x.c {
			g.printf("%s := %s(%s)\n", v.name, t, x.s)
		} else {
			g.printf("%s := %s\n", v.name, x.s)
		}
	case c < 8: // an assignment
		g.assign(depth, uniform)
	case c < 10: // a store to a buffer
		if !g.inKernel {
			g.assign(depth, uniform)
			return
		}
		t := typ(g.intn(3))
		g.indent(depth)
		g.printf("%s[%s] = %s\n", [...]string{"of", "oi", "ou"}[t], g.index(), g.expr(t, 0).s)
	case c < 12: // if
		cond := g.expr(tB, 0)
		g.indent(depth)
		g.printf("if %s {\n", cond.s)
		g.nested(depth, uniform && cond.uniform)
		if g.chance(96) {
			g.indent(depth)
			g.printf("} else {\n")
			g.nested(depth, uniform && cond.uniform)
		}
		g.indent(depth)
		g.printf("}\n")
	case c < 14: // for
		g.forLoop(depth, uniform)
	case c == 14: // switch
		t := typ(g.intn(2) + 1)
		x := g.nonConst(t)
		g.indent(depth)
		g.printf("switch %s %% 3 {\n", x.s)
		g.switches++
		defer func() { g.switches-- }()
		for _, k := range []string{"case 0:", "case 1, 2:", "default:"} {
			if k == "default:" && !g.chance(128) {
				continue
			}
			g.indent(depth)
			g.printf("%s\n", k)
			g.nested(depth, uniform && x.uniform)
		}
		g.indent(depth)
		g.printf("}\n")
	case c == 15 && sync: // a barrier
		g.indent(depth)
		g.printf("t.Barrier()\n")
	case c == 15: // a private array or a struct
		g.aggregate(depth)
	case c == 16 && g.inKernel: // an atomic
		g.atomic(depth)
	case c == 16 && sync && g.shared: // shared memory
		g.indent(depth)
		g.printf("sf[%s] = %s\n", g.sharedIndex(), g.expr(tF, 0).s)
	case c == 17 && sync && g.wave: // a wave verb
		g.waveVerb(depth)
	case c == 17:
		g.aggregate(depth)
	case c == 18 && (uniform || !g.sync): // an early exit
		g.exit(depth)
	case c == 19: // a deep nest of ifs
		g.deepIf(depth, uniform, 4+g.intn(28))
	default:
		g.assign(depth, uniform)
	}
}

// nested writes a block in a new scope.
func (g *gen) nested(depth int, uniform bool) {
	g.push()
	g.block(depth+1, uniform, g.intn(4)+1)
	g.pop(depth + 1)
}

// deepIf writes n nested ifs around a statement.
func (g *gen) deepIf(depth int, uniform bool, n int) {
	conds := make([]expr, n)
	for i := range conds {
		conds[i] = g.expr(tB, 3)
		g.indent(depth + i)
		g.printf("if %s {\n", conds[i].s)
		uniform = uniform && conds[i].uniform
	}
	g.push()
	g.block(depth+n, uniform, 1)
	g.pop(depth + n)
	for i := n - 1; i >= 0; i-- {
		g.indent(depth + i)
		g.printf("}\n")
	}
}

// exit writes an early return, break or continue under a condition (a
// uniform one in a kernel that synchronizes).
func (g *gen) exit(depth int) {
	if !g.inKernel && g.loop == 0 {
		return // a device function's return needs its value
	}
	var cond expr
	for range 4 {
		undo := g.unread()
		if cond = g.expr(tB, 1); cond.uniform || !g.sync {
			break
		}
		undo()
	}
	if g.sync && !cond.uniform {
		cond = expr{s: "(nu > 3)", uniform: true}
	}
	word := "return"
	if g.loop > 0 && (g.chance(192) || !g.inKernel) {
		word = "continue"
		if g.switches == 0 && g.chance(128) {
			word = "break" // a break in a switch would leave the switch
		}
	}
	g.indent(depth)
	g.printf("if %s {\n", cond.s)
	g.indent(depth + 1)
	g.printf("%s\n", word)
	g.indent(depth)
	g.printf("}\n")
}

// assign writes an assignment to a variable in scope, when one fits.
func (g *gen) assign(depth int, uniform bool) {
	v := g.pick(func(v *local) bool {
		return !v.fixed && v.kind != localStruct && (!v.uniform || uniform)
	})
	if v == nil {
		return
	}
	ops := map[typ][]string{tF: {"+=", "-=", "*=", "/="}, tI: {"+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>="}, tU: {"+=", "-=", "*=", "&=", "|=", "^=", ">>="}}[v.t]
	op := "="
	switch {
	case len(ops) > 0 && g.chance(64):
		op = ops[g.intn(len(ops))]
	case v.t == tI || v.t == tU:
		if g.chance(32) {
			op = "++"
		}
	}
	undo := g.unread()
	var x expr
	switch op {
	case "++":
		x.uniform = true
	case "<<=", ">>=":
		x = g.expr(tU, 1)
	default:
		x = g.expr(v.t, 0)
	}
	if op == "/=" && x.c {
		x = g.nonConst(v.t) // a constant divisor may be zero
	}
	if v.uniform && !x.uniform {
		undo()
		return
	}
	dst := v.name
	if v.kind == localArray {
		dst += "[" + g.arrayIndex(v.n) + "]"
	}
	g.indent(depth)
	if op == "++" {
		g.printf("%s++\n", dst)
		return
	}
	g.printf("%s %s %s\n", dst, op, x.s)
}

// aggregate declares and uses a private array or a struct local.
func (g *gen) aggregate(depth int) {
	if g.hasS && g.chance(128) {
		var init string
		switch g.intn(3) {
		case 0:
			init = "S{}"
		case 1:
			init = fmt.Sprintf("S{A: %s, C: %s}", g.expr(tF, 1).s, g.expr(tU, 1).s)
		default:
			init = "S{B: 1}"
			if g.inKernel {
				init = "sb[" + g.index() + "]"
			}
		}
		v := g.declare(g.name("s"), tF, false)
		v.kind = localStruct
		g.indent(depth)
		g.printf("%s := %s\n", v.name, init)
		g.indent(depth)
		g.printf("%s.%s = %s\n", v.name, "B", g.expr(tI, 1).s)
		return
	}
	n := []int{1, 2, 4, 8, 16}[g.intn(5)]
	t := typ(g.intn(4))
	v := g.declare(g.name("a"), t, false)
	v.kind, v.n = localArray, n
	g.indent(depth)
	g.printf("var %s [%d]%s\n", v.name, n, t)
	g.indent(depth)
	g.printf("%s[%s] = %s\n", v.name, g.arrayIndex(n), g.expr(t, 1).s)
}

// atomic writes an atomic on an atomic buffer or the atomic shared array.
func (g *gen) atomic(depth int) {
	place := "&ai[" + g.index() + "]"
	t := tI
	switch {
	case g.shared && g.chance(96):
		place, t = "&su["+g.sharedIndex()+"]", tU
	case g.chance(96):
		place, t = "&au["+g.index()+"]", tU
	case !g.hasS && g.chance(64):
		g.indent(depth)
		g.printf("_ = xpu.AtomicAddFloat32(&af[%s], %s)\n", g.index(), g.expr(tF, 1).s)
		return
	}
	ops := []string{"AtomicAdd", "AtomicSub", "AtomicMin", "AtomicMax", "AtomicAnd", "AtomicOr", "AtomicXor", "AtomicExchange"}
	var call string
	switch c := g.intn(4); c {
	case 0:
		g.indent(depth)
		g.printf("xpu.AtomicStore(%s, %s)\n", place, g.expr(t, 1).s)
		return
	case 1:
		call = fmt.Sprintf("xpu.AtomicCompareExchange(%s, %s, %s)", place, g.expr(t, 1).s, g.expr(t, 1).s)
	default:
		call = fmt.Sprintf("xpu.%s(%s, %s)", ops[g.intn(len(ops))], place, g.expr(t, 1).s)
	}
	v := g.declare(g.name("o"), t, false)
	g.indent(depth)
	g.printf("%s := %s\n", v.name, call)
}

// waveVerb declares the result of a wave verb.
func (g *gen) waveVerb(depth int) {
	var call string
	var t typ
	switch c := g.intn(6); c {
	case 0, 1, 2:
		t = typ(g.intn(3))
		verb := []string{"WaveSum", "WaveMin", "WaveMax", "WavePrefixSum", "WaveExclusivePrefixSum"}[g.intn(5)]
		call = fmt.Sprintf("xpu.%s(t, %s)", verb, g.asType(t, g.expr(t, 1)))
	case 3:
		t = tU
		call = fmt.Sprintf("xpu.WaveBallot(t, %s)", g.expr(tB, 1).s)
	case 4:
		t = tB
		call = fmt.Sprintf("xpu.%s(t, %s)", []string{"WaveAny", "WaveAll"}[g.intn(2)], g.expr(tB, 1).s)
	default:
		t = typ(g.intn(3))
		verb := []string{"WaveBroadcast", "WaveShuffle", "WaveShuffleXor", "WaveShuffleUp", "WaveShuffleDown"}[g.intn(5)]
		call = fmt.Sprintf("xpu.%s(t, %s, %d)", verb, g.asType(t, g.expr(t, 1)), g.intn(40))
	}
	v := g.declare(g.name("w"), t, false)
	g.indent(depth)
	g.printf("%s := %s\n", v.name, call)
}

// asType spells x so that a generic verb infers t from it.
func (g *gen) asType(t typ, x expr) string {
	if x.c {
		return t.String() + "(" + x.s + ")"
	}
	return x.s
}

// forLoop writes a counted loop.
func (g *gen) forLoop(depth int, uniform bool) {
	t := typ(g.intn(2) + 1)
	var bound expr
	if g.chance(128) || g.sync {
		bound = g.uniformExpr(t)
	} else {
		bound = g.nonConst(t)
		bound.s = "(" + bound.s + ")%9"
	}
	g.push() // the body's scope, which holds the loop variable
	v := g.declare(g.name("i"), t, false)
	v.fixed = true
	v.uniform = uniform && bound.uniform
	g.indent(depth)
	switch g.intn(4) {
	case 0:
		if t == tU {
			g.printf("for %s := range %s {\n", v.name, g.asType(t, bound))
			break
		}
		fallthrough
	case 1:
		g.printf("for %s := %s(0); %s < %s; %s++ {\n", v.name, t, v.name, bound.s, v.name)
	case 2:
		g.printf("for %s := %s; %s > 0; %s >>= 1 {\n", v.name, g.asType(t, bound), v.name, v.name)
	default:
		g.printf("for %s := %s(1); %s <= %s; %s += %d {\n", v.name, t, v.name, bound.s, v.name, 1+g.intn(3))
	}
	g.loop++
	g.block(depth+1, uniform && bound.uniform, g.intn(5)+1)
	g.pop(depth + 1) // a range variable left unread is read here
	g.loop--
	g.indent(depth)
	g.printf("}\n")
}

// uniformExpr returns a small uniform bound of type t.
func (g *gen) uniformExpr(t typ) expr {
	switch c := g.intn(3); {
	case c == 1 && g.inKernel:
		return expr{s: map[typ]string{tI: "ni%7", tU: "nu%7"}[t], uniform: true}
	case c == 2 && g.inKernel:
		return expr{s: map[typ]string{tI: "int32(t.GroupX()%5)", tU: "t.NumGroupsX()%6"}[t], uniform: true}
	}
	return expr{s: fmt.Sprint(g.intn(12)), c: true, uniform: true}
}

// unread returns a function that marks unread again the variables in
// scope that are unread now: the undoing of an expression thrown away.
func (g *gen) unread() func() {
	var vs []*local
	for _, s := range g.scopes {
		for _, v := range s {
			if !v.read {
				vs = append(vs, v)
			}
		}
	}
	return func() {
		for _, v := range vs {
			v.read = false
		}
	}
}

// pick returns a variable in scope that ok accepts, chosen by the data.
func (g *gen) pick(ok func(*local) bool) *local {
	var vs []*local
	for _, s := range g.scopes {
		for _, v := range s {
			if ok(v) {
				vs = append(vs, v)
			}
		}
	}
	if len(vs) == 0 {
		return nil
	}
	return vs[len(vs)-1-g.intn(len(vs))]
}

// index is a buffer index: a uint32 expression.
func (g *gen) index() string {
	switch g.intn(4) {
	case 0:
		return "t.GlobalX()"
	case 1:
		return fmt.Sprint(g.intn(16))
	}
	return g.expr(tU, 2).s
}

// sharedIndex is an index into a shared array: a uint32 expression taken
// modulo its length or, rarely, one outside it.
func (g *gen) sharedIndex() string {
	if g.chance(8) {
		return g.outOfRange(sharedLen, true)
	}
	return fmt.Sprintf("(%s)%%%d", g.nonConst(tU).s, sharedLen)
}

// arrayIndex is an index into a private array of n elements: a constant
// in range, a uint32 expression taken modulo n or, rarely in a kernel,
// one outside it.
func (g *gen) arrayIndex(n int) string {
	switch {
	case g.inKernel && g.chance(8):
		return g.outOfRange(n, false)
	case g.chance(96):
		return fmt.Sprint(g.intn(n))
	}
	return fmt.Sprintf("(%s)%%%d", g.nonConst(tU).s, n)
}

// outOfRange is an index outside an array of n elements, legal Go that
// panics only if it runs: a thread query that folds to a constant outside
// the array whatever the block size (1 to 1024 on each axis), or, where a
// constant may index (a slice, not an array), n or the largest uint32.
func (g *gen) outOfRange(n int, constants bool) string {
	ix := []string{fmt.Sprintf("t.BlockX()+%d", n-1), "int32(t.BlockY())-1025"}
	if constants {
		ix = append(ix, fmt.Sprint(n), "4294967295")
	}
	return ix[g.intn(len(ix))]
}

// Literals of each type, extremes included; the non-finite floats come
// from bits, as a kernel writes them.
var literals = map[typ][]string{
	tF: {"1", "0", "0.5", "-2.25", "3.4028235e+38", "-3.4028235e+38", "1e-45", "1.1754944e-38", "16777217", "0.1", "1e30", "-0", "6.2831855"},
	tI: {"1", "0", "-1", "2147483647", "-2147483648", "7", "-100000", "31", "32", "0x7fff0000"},
	tU: {"1", "0", "4294967295", "2147483648", "3", "31", "32", "33", "0xdeadbeef", "255"},
	tB: {"true", "false"},
}

var nonFinite = []string{"0x7f800000", "0xff800000", "0x7fc00000", "0x7f7fffff", "0x00000001", "0x80000000", "0xffffffff"}

// literal returns a constant of type t.
func (g *gen) literal(t typ) expr {
	ls := literals[t]
	s := ls[g.intn(len(ls))]
	if t != tB && g.chance(128) {
		s = t.String() + "(" + s + ")"
	}
	return expr{s: s, c: true, uniform: true}
}

// nonConst returns a leaf of type t that Go does not take for a constant.
func (g *gen) nonConst(t typ) expr {
	if v := g.pick(func(v *local) bool { return v.t == t && v.kind == localScalar }); v != nil && g.chance(160) {
		v.read = true
		return expr{s: v.name, uniform: v.uniform}
	}
	if g.inKernel {
		switch g.intn(3) {
		case 0:
			return expr{s: map[typ]string{tF: "nf", tI: "ni", tU: "nu", tB: "(nu > 2)"}[t], uniform: true}
		case 1:
			if t != tB {
				return expr{s: map[typ]string{tF: "xf", tI: "oi", tU: "ou"}[t] + "[" + g.index() + "]"}
			}
		}
		return map[typ]expr{
			tF: {s: "float32(t.LocalX())"},
			tI: {s: "int32(t.GroupX())", uniform: true},
			tU: {s: "t.GlobalX()"},
			tB: {s: "(t.LocalIndex() < 3)"},
		}[t]
	}
	if v := g.pick(func(v *local) bool { return v.t == t && v.kind == localScalar }); v != nil {
		v.read = true
		return expr{s: v.name, uniform: v.uniform}
	}
	// A device function without a variable of type t: a call of a math
	// function is no constant.
	return map[typ]expr{
		tF: {s: "xpu.Sqrt(2)"},
		tI: {s: "xpu.Abs(int32(-3))"},
		tU: {s: "xpu.Float32Bits(1)"},
		tB: {s: "(xpu.Sqrt(2) > 1)"},
	}[t]
}

// leaf returns a leaf expression of type t.
func (g *gen) leaf(t typ) expr {
	switch c := g.intn(8); {
	case c < 2:
		return g.literal(t)
	case c == 2 && t == tF:
		return expr{s: "xpu.Float32FromBits(" + nonFinite[g.intn(len(nonFinite))] + ")", uniform: true}
	case c == 3 && t == tF && g.shared && g.inKernel && g.chance(64):
		return expr{s: "sf[" + g.sharedIndex() + "]"}
	case c == 3:
		if v := g.pick(func(v *local) bool { return v.t == t && v.kind == localArray }); v != nil {
			v.read = true
			return expr{s: v.name + "[" + g.arrayIndex(v.n) + "]"}
		}
	case c == 4 && t != tB:
		if v := g.pick(func(v *local) bool { return v.kind == localStruct }); v != nil {
			v.read = true
			return expr{s: v.name + "." + map[typ]string{tF: "A", tI: "B", tU: "C"}[t]}
		}
		if g.hasS && g.inKernel {
			return expr{s: "sb[" + g.index() + "]." + map[typ]string{tF: "A", tI: "B", tU: "C"}[t]}
		}
	case c == 5 && t == tU && g.inKernel:
		q := []string{"t.GlobalX()", "t.GlobalY()", "t.LocalX()", "t.LocalY()", "t.LocalIndex()", "t.GroupX()", "t.GroupZ()", "t.NumGroupsX()", "t.BlockX()", "t.BlockY()"}[g.intn(10)]
		return expr{s: q, uniform: strings.Contains(q, "Group") || strings.Contains(q, "Block")}
	case c == 6 && t == tU && g.inKernel && g.wave:
		return expr{s: []string{"t.WaveWidth()", "t.LaneIndex()"}[g.intn(2)]}
	}
	return g.nonConst(t)
}

// expr returns an expression of type t at nesting depth d.
func (g *gen) expr(t typ, d int) expr {
	g.nodes++
	limit := 4
	if g.chance(8) {
		limit = 40 // now and then, a deep one
	}
	if d >= limit || g.nodes > nodeBudget || g.chance(80) {
		return g.leaf(t)
	}
	switch t {
	case tB:
		return g.boolExpr(d)
	}
	switch c := g.intn(10); {
	case c < 4:
		return g.binary(t, d)
	case c == 4:
		x := g.expr(t, d+1)
		if x.c {
			x = g.nonConst(t)
		}
		op := map[typ][]string{tF: {"-"}, tI: {"-", "^"}, tU: {"^"}}[t]
		return expr{s: op[g.intn(len(op))] + "(" + x.s + ")", uniform: x.uniform}
	case c == 5:
		return g.convert(t, d)
	case c == 6:
		return g.call(t, d)
	case c == 7 && len(g.funcs) > 0:
		return g.callFunc(t, d)
	case c == 8:
		return g.longSum(t, d)
	}
	return g.binary(t, d)
}

// binary returns x op y for an arithmetic type t.
func (g *gen) binary(t typ, d int) expr {
	ops := map[typ][]string{
		tF: {"+", "-", "*", "/"},
		tI: {"+", "-", "*", "/", "%", "&", "|", "^", "&^", "<<", ">>"},
		tU: {"+", "-", "*", "/", "%", "&", "|", "^", "&^", "<<", ">>"},
	}[t]
	op := ops[g.intn(len(ops))]
	x := g.expr(t, d+1)
	var y expr
	if op == "<<" || op == ">>" {
		y = g.expr(tU, d+1)
	} else {
		y = g.expr(t, d+1)
	}
	if x.c && y.c {
		y = g.nonConst(map[bool]typ{true: tU, false: t}[op == "<<" || op == ">>"])
	}
	if (op == "/" || op == "%") && y.c {
		y = g.nonConst(t) // a constant divisor may be zero
	}
	if x.c && (op == "<<" || op == ">>") {
		x = expr{s: t.String() + "(" + x.s + ")", c: true, uniform: true}
	}
	return expr{s: "(" + x.s + " " + op + " " + y.s + ")", uniform: x.uniform && y.uniform}
}

// longSum returns a sum of many terms, each a leaf.
func (g *gen) longSum(t typ, d int) expr {
	n := 2 + g.intn(60)
	if g.chance(8) {
		n = 100 + 2*g.intn(100) // past the nesting depths parsers allow
	}
	terms := make([]string, n)
	uniform := true
	for i := range terms {
		var x expr
		if i > 0 && g.chance(64) {
			x = g.leaf(t)
		}
		if x.s == "" || x.c {
			x = g.nonConst(t)
		}
		terms[i] = x.s
		uniform = uniform && x.uniform
	}
	return expr{s: "(" + strings.Join(terms, " + ") + ")", uniform: uniform}
}

// boolExpr returns a comparison or a logical expression.
func (g *gen) boolExpr(d int) expr {
	switch g.intn(4) {
	case 0, 1:
		t := typ(g.intn(3))
		x, y := g.expr(t, d+1), g.expr(t, d+1)
		op := []string{"==", "!=", "<", "<=", ">", ">="}[g.intn(6)]
		return expr{s: "(" + x.s + " " + op + " " + y.s + ")", c: x.c && y.c, uniform: x.uniform && y.uniform}
	case 2:
		x, y := g.expr(tB, d+1), g.expr(tB, d+1)
		op := []string{"&&", "||", "==", "!="}[g.intn(4)]
		return expr{s: "(" + x.s + " " + op + " " + y.s + ")", c: x.c && y.c, uniform: x.uniform && y.uniform}
	}
	x := g.expr(tB, d+1)
	return expr{s: "!(" + x.s + ")", c: x.c, uniform: x.uniform}
}

// convert returns a conversion to t of a non-constant operand.
func (g *gen) convert(t typ, d int) expr {
	from := typ(g.intn(3))
	x := g.expr(from, d+1)
	if x.c {
		x = g.nonConst(from)
	}
	if t == tU && from == tF && g.chance(96) {
		return expr{s: "xpu.Float32Bits(" + x.s + ")", uniform: x.uniform}
	}
	if t == tF && from == tU && g.chance(96) {
		return expr{s: "xpu.Float32FromBits(" + x.s + ")", uniform: x.uniform}
	}
	return expr{s: t.String() + "(" + x.s + ")", uniform: x.uniform}
}

// call returns a call of a math function of package xpu, or of min/max.
func (g *gen) call(t typ, d int) expr {
	arg := func() expr { return g.expr(t, d+1) }
	typed := func(x expr) string { return g.asType(t, x) }
	var s string
	uniform := true
	args := func(xs ...expr) []string {
		out := make([]string, len(xs))
		for i, x := range xs {
			out[i] = typed(x)
			uniform = uniform && x.uniform
		}
		return out
	}
	switch c := g.intn(6); {
	case c < 3 && t == tF:
		one := []string{"Sqrt", "Exp", "Exp2", "Log", "Log2", "Sin", "Cos", "Tan", "Tanh", "Floor", "Ceil", "Round", "Trunc", "Abs"}
		a := args(arg())
		s = "xpu." + one[g.intn(len(one))] + "(" + a[0] + ")"
	case c == 3 && t == tF:
		a := args(arg(), arg(), arg())
		if g.chance(128) {
			s = "xpu.Fma(" + strings.Join(a, ", ") + ")"
		} else {
			s = "xpu.Pow(" + a[0] + ", " + a[1] + ")"
		}
	case c == 4:
		a := args(arg(), arg(), arg())
		s = "xpu.Clamp(" + strings.Join(a, ", ") + ")"
	case c == 5:
		x, y := arg(), arg()
		a := args(x, y)
		s = []string{"min", "max", "xpu.Min", "xpu.Max"}[g.intn(4)] + "(" + strings.Join(a, ", ") + ")"
		// Go folds the builtins over constants.
		return expr{s: s, c: x.c && y.c && !strings.HasPrefix(s, "xpu."), uniform: uniform}
	default:
		a := args(arg())
		s = "xpu.Abs(" + a[0] + ")"
	}
	return expr{s: s, uniform: uniform}
}

// callFunc returns a call of a device function whose result is t, when
// one exists.
func (g *gen) callFunc(t typ, d int) expr {
	var fs []fn
	for _, f := range g.funcs {
		if f.result == t {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return g.binary(t, d)
	}
	f := fs[g.intn(len(fs))]
	args := make([]string, len(f.params))
	uniform := true
	for i, p := range f.params {
		x := g.expr(p, d+1)
		args[i] = x.s
		if x.c && p != tB {
			args[i] = p.String() + "(" + x.s + ")"
		}
		uniform = uniform && x.uniform
	}
	return expr{s: f.name + "(" + strings.Join(args, ", ") + ")", uniform: uniform}
}
