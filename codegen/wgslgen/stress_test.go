package wgslgen_test

// The tests in this file generate kernels from Go source at the edges
// of what the front end accepts (long and deep expressions, deep and
// long chains of statements, float constants at every edge) and hand
// their WGSL to both WGSL compilers, naga (wgpu-native) and Tint (Dawn),
// each in a child process: a compiler that crashes on a shader (naga
// overflows its stack on deep expressions) fails the test instead of
// killing it. The child also runs the kernel, and the parent compares
// what it wrote with the value Go computes for the same source.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/ir"
	"github.com/goxpu/xpu/codegen/wgslgen"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/webgpu"
	"github.com/goxpu/xpu/gpu/webgpu/dawn"
	"github.com/goxpu/xpu/schema"
)

// stressN is the number of work-items of a stress kernel (one block);
// its input x holds stressN+stressPad values.
const stressN, stressPad = 64, 64

// stressKernel is a kernel K(t, y, x []float32) written in Go source,
// with what Go computes for it: y[i] for each work-item i, given x.
type stressKernel struct {
	name  string
	body  string // the statements of K; i is t.GlobalX()
	funcs string // device functions K calls
	ref   func(x []float32, i int) float32
	in    func(r *rand.Rand) []float32 // x; nil: uniform in [-1, 1)
	same  func(got, want float32) bool // nil: the same bits
}

// source returns the package source of the kernel.
func (s *stressKernel) source() string {
	return "package k\n\nimport \"github.com/goxpu/xpu\"\n\nvar _ = xpu.Sqrt\n\n" + s.funcs + "\n//xpu:kernel block=64\nfunc K(t xpu.Thread, y, x []float32) {\n\ti := t.GlobalX()\n" + s.body + "\n}\n"
}

// source checking shares one importer: it type-checks package xpu once.
var sourceCheck struct {
	sync.Mutex
	fset *token.FileSet
	imp  types.Importer
}

// kernelOf type-checks src and returns its one kernel, analyzed, or the
// front end's refusal.
func kernelOf(t *testing.T, src string) (*ir.Kernel, error) {
	t.Helper()
	sourceCheck.Lock()
	defer sourceCheck.Unlock()
	if sourceCheck.fset == nil {
		sourceCheck.fset = token.NewFileSet()
		sourceCheck.imp = importer.ForCompiler(sourceCheck.fset, "source", nil)
	}
	fset := sourceCheck.fset
	f, err := parser.ParseFile(fset, "k.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Instances: map[*ast.Ident]types.Instance{},
	}
	conf := types.Config{Importer: sourceCheck.imp}
	pkg, err := conf.Check("example.com/k", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	m, err := frontend.Check(fset, []*ast.File{f}, pkg, info)
	if err != nil {
		return nil, err
	}
	k := m.Kernels[0]
	if err := ir.Analyze(k); err != nil {
		t.Fatal(err)
	}
	return k, nil
}

// childJob is what the parent hands a child: a kernel to compile and run
// (the fields of driver.Kernel it needs), and the input x.
type childJob struct {
	Name   string
	WGSL   string
	Fault  bool
	Words  []schema.Word
	Params []schema.Param
	X      []float32
}

// TestMain runs a child's job instead of the tests when the
// environment names one.
func TestMain(m *testing.M) {
	if job := os.Getenv("XPU_STRESS_JOB"); job != "" {
		os.Exit(runChild(job, os.Getenv("XPU_STRESS_DRIVER")))
	}
	os.Exit(m.Run())
}

// The exit statuses of a child whose driver this build lacks (wgpu-native
// without cgo), and of one whose driver finds no device.
const childNotBuilt, childUnavailable = 4, 3

// runChild compiles and runs the job in file path on the named driver,
// writing y to path+".out".
func runChild(path, name string) int {
	var job childJob
	src, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(src, &job)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	open := map[string]driver.Opener{"wgpu": webgpu.Opener(), "dawn": dawn.Opener()}[name]
	if open == nil {
		fmt.Fprintf(os.Stderr, "driver %s is not built here\n", name)
		return childNotBuilt
	}
	d, err := open()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return childUnavailable
	}
	y, err := compileAndRun(d, &job)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.WriteFile(path+".out", y, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// compileAndRun compiles and runs the job on d. It releases nothing: the
// child exits next, and wgpu-native on lavapipe sometimes crashes while
// releasing, which is not what this test is about.
func compileAndRun(d driver.Device, job *childJob) ([]byte, error) {
	p, err := d.Compile(&driver.Kernel{Name: job.Name, Block: xpu.Dim3{X: stressN, Y: 1, Z: 1}, Params: job.Params, Artifacts: []schema.Artifact{
		{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL, Fault: job.Fault, Words: job.Words}, Code: job.WGSL},
	}})
	if err != nil {
		return nil, err
	}
	y, err := d.NewBuffer(4 * stressN)
	if err != nil {
		return nil, err
	}
	x, err := d.NewBuffer(4 * len(job.X))
	if err != nil {
		return nil, err
	}
	poison := make([]byte, 4*stressN)
	for i := range stressN {
		binary.LittleEndian.PutUint32(poison[4*i:], 0x7fbadbad)
	}
	if err := y.Write(0, poison); err != nil {
		return nil, err
	}
	if err := x.Write(0, f32Bytes(job.X)); err != nil {
		return nil, err
	}
	bufs := []driver.Buffer{y, x}
	if job.Fault {
		f, err := d.NewBuffer(4)
		if err != nil {
			return nil, err
		}
		bufs = append(bufs, f)
	}
	q, err := d.NewQueue()
	if err != nil {
		return nil, err
	}
	if err := q.Launch(context.Background(), p, xpu.Dim3{X: 1, Y: 1, Z: 1}, bufs, nil); err != nil {
		return nil, err
	}
	if err := q.Sync(context.Background()); err != nil {
		return nil, err
	}
	out := make([]byte, 4*stressN)
	return out, y.Read(context.Background(), 0, out)
}

func f32Bytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// errNotBuilt reports a driver this build lacks; errUnavailable one that
// finds no device, which fails the test when XPU_REQUIRE names webgpu.
var (
	errNotBuilt    = errors.New("driver not built")
	errUnavailable = errors.New("driver unavailable")
)

// inChild compiles and runs the WGSL of k on the named driver in a child
// process and returns y.
func inChild(t *testing.T, name string, k *ir.Kernel, src string, fault bool, words []schema.Word, x []float32) ([]float32, error) {
	t.Helper()
	job := childJob{Name: k.Name, WGSL: src, Fault: fault, Words: words, X: x}
	for _, p := range k.Params {
		acc := schema.AccessReadWrite
		if p.Access == schema.AccessRead {
			acc = schema.AccessRead
		}
		job.Params = append(job.Params, schema.Param{Name: p.Name, Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "float32"}, Size: 4, Access: acc, Binding: p.Binding})
	}
	b, err := json.Marshal(&job)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "job.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// A child killed by a signal runs twice more: wgpu-native on lavapipe
	// crashes now and then on any shader when the machine is loaded,
	// while a shader that crashes the compiler (naga's stack overflow)
	// crashes it every time.
	var out []byte
	var exit *exec.ExitError
	for range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "XPU_STRESS_JOB="+path, "XPU_STRESS_DRIVER="+name)
		out, err = cmd.CombinedOutput()
		if !errors.As(err, &exit) || exit.ExitCode() != -1 {
			break
		}
		t.Logf("%s: child died (%v); again", name, err)
	}
	if errors.As(err, &exit) && exit.ExitCode() == childNotBuilt {
		return nil, fmt.Errorf("%w: %s", errNotBuilt, lastLines(out))
	}
	if errors.As(err, &exit) && exit.ExitCode() == childUnavailable {
		return nil, fmt.Errorf("%w: %s", errUnavailable, lastLines(out))
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, lastLines(out))
	}
	yb, err := os.ReadFile(path + ".out")
	if err != nil {
		t.Fatal(err)
	}
	y := make([]float32, stressN)
	for i := range y {
		y[i] = math.Float32frombits(binary.LittleEndian.Uint32(yb[4*i:]))
	}
	return y, nil
}

// lastLines returns the end of a child's output, without the drivers'
// chatter.
func lastLines(out []byte) string {
	var keep []string
	for l := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		if !strings.HasPrefix(l, "[wgpu]") && !strings.Contains(l, "XDG_RUNTIME_DIR") {
			keep = append(keep, l)
		}
	}
	s := strings.Join(keep, "\n")
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}

// requireWebGPU reports whether a missing driver fails the test.
func requireWebGPU() bool {
	return slices.Contains(strings.Split(os.Getenv("XPU_REQUIRE"), ","), "webgpu")
}

// checkOnCompilers generates each kernel's WGSL, bounds its nesting, and
// compiles and runs it on both WGSL compilers, comparing y with Go's.
func checkOnCompilers(t *testing.T, ks []*stressKernel) {
	for _, s := range ks {
		t.Run(s.name, func(t *testing.T) {
			k, err := kernelOf(t, s.source())
			if err != nil {
				t.Fatal(err)
			}
			arts, err := wgslgen.Artifacts(k)
			if err != nil {
				t.Fatal(err)
			}
			src, fault, words := arts[0].Code, arts[0].Fault, arts[0].Words
			if d := os.Getenv("XPU_STRESS_DUMP"); d != "" {
				os.WriteFile(filepath.Join(d, s.name+".wgsl"), []byte(src), 0o644)
			}
			if d := parenDepth(src); d > 80 {
				t.Errorf("WGSL nests %d deep", d)
			}
			r := rand.New(rand.NewPCG(7, uint64(len(s.body))))
			x := make([]float32, stressN+stressPad)
			if s.in != nil {
				x = s.in(r)
			} else {
				for i := range x {
					x[i] = 2*r.Float32() - 1
				}
			}
			same := s.same
			if same == nil {
				same = func(g, w float32) bool { return math.Float32bits(g) == math.Float32bits(w) }
			}
			for _, drv := range []string{"wgpu", "dawn"} {
				y, err := inChild(t, drv, k, src, fault, words, x)
				if errors.Is(err, errNotBuilt) || errors.Is(err, errUnavailable) && !requireWebGPU() {
					t.Logf("\n\n*** SKIPPED %s: %v ***\n", drv, err)
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", drv, err)
					continue
				}
				for i := range y {
					if want := s.ref(x, i); !same(y[i], want) {
						t.Errorf("%s: y[%d] = %v (%#x), want %v (%#x)", drv, i, y[i], math.Float32bits(y[i]), want, math.Float32bits(want))
						break
					}
				}
			}
		})
	}
}

// parenDepth returns how deep parentheses and braces nest in src.
func parenDepth(src string) int {
	d, m := 0, 0
	for _, c := range src {
		switch c {
		case '(', '{', '[':
			d++
			m = max(m, d)
		case ')', '}', ']':
			d--
		}
	}
	return m
}

// TestExpressionDepthBounded: long sums (left-associated, so as deep as
// they are long) and deeply parenthesized expressions compile on both
// WGSL compilers. Tint refused a sum of 130 terms (its parser's depth
// limit), naga crashed the process on 5,000.
func TestExpressionDepthBounded(t *testing.T) {
	sum := func(n int) *stressKernel {
		var b strings.Builder
		for j := range n {
			fmt.Fprintf(&b, " + x[i+%d]", j%stressPad)
		}
		return &stressKernel{
			name: fmt.Sprintf("sum%d", n),
			body: "\ty[i] = 0" + b.String(),
			ref: func(x []float32, i int) float32 {
				s := float32(0)
				for j := range n {
					s += x[i+j%stressPad]
				}
				return s
			},
		}
	}
	// x[i] - (x[i+1] - (x[i+2] - ...)), evaluated from the inside out.
	nested := func(n int) *stressKernel {
		var b strings.Builder
		for j := range n - 1 {
			fmt.Fprintf(&b, "x[i+%d] - (", j%stressPad)
		}
		fmt.Fprintf(&b, "x[i+%d]", (n-1)%stressPad)
		b.WriteString(strings.Repeat(")", n-1))
		return &stressKernel{
			name: fmt.Sprintf("nested%d", n),
			body: "\ty[i] = " + b.String(),
			ref: func(x []float32, i int) float32 {
				s := x[i+(n-1)%stressPad]
				for j := n - 2; j >= 0; j-- {
					s = x[i+j%stressPad] - s
				}
				return s
			},
		}
	}
	// A deep chain of calls and conversions, and of && whose operands
	// have statements of their own (a short circuit lowered to ifs).
	calls := &stressKernel{
		name: "calls300",
		body: "\ty[i] = " + strings.Repeat("xpu.Abs(", 300) + "x[i]" + strings.Repeat(")", 300),
		ref:  func(x []float32, i int) float32 { return float32(math.Abs(float64(x[i]))) },
	}
	var and strings.Builder
	for j := range 300 {
		fmt.Fprintf(&and, " && x[i+%d] < 2", j%stressPad)
	}
	logical := &stressKernel{
		name: "and300",
		body: "\tif x[i] > -2" + and.String() + " {\n\t\ty[i] = 1\n\t} else {\n\t\ty[i] = 2\n\t}",
		ref:  func(x []float32, i int) float32 { return 1 },
	}
	checkOnCompilers(t, []*stressKernel{sum(130), sum(5000), nested(200), nested(3000), calls, logical})
}

// TestStatementNesting: deeply nested ifs compile on both compilers up
// to the documented bound and are refused by name beyond it, and a switch
// of a thousand cases (an else-if chain as long, which Tint refused past
// about 125) compiles and picks its case.
func TestStatementNesting(t *testing.T) {
	nested := func(n int) *stressKernel {
		var b strings.Builder
		b.WriteString("\tc := float32(0)\n")
		for j := range n {
			fmt.Fprintf(&b, "\tif x[i+%d] > -0.5 {\n\t\tc += 1\n", j%stressPad)
		}
		b.WriteString(strings.Repeat("\t}\n", n))
		b.WriteString("\ty[i] = c")
		return &stressKernel{
			name: fmt.Sprintf("if%d", n),
			body: b.String(),
			ref: func(x []float32, i int) float32 {
				c := float32(0)
				for j := range n {
					if !(x[i+j%stressPad] > -0.5) {
						break
					}
					c++
				}
				return c
			},
		}
	}
	const cases = 1000
	var sw strings.Builder
	sw.WriteString("\tswitch int32(x[i]) {\n")
	for j := range cases {
		fmt.Fprintf(&sw, "\tcase %d:\n\t\ty[i] = %d.5\n", j, j)
	}
	sw.WriteString("\tdefault:\n\t\ty[i] = -1\n\t}")
	switchK := &stressKernel{
		name: fmt.Sprintf("switch%d", cases),
		body: sw.String(),
		in: func(r *rand.Rand) []float32 {
			x := make([]float32, stressN+stressPad)
			for i := range x {
				x[i] = float32(r.IntN(cases + cases/5))
			}
			return x
		},
		ref: func(x []float32, i int) float32 {
			if j := int32(x[i]); j < cases {
				return float32(j) + 0.5
			}
			return -1
		},
	}
	checkOnCompilers(t, []*stressKernel{nested(40), switchK})

	// pos(0) && (pos(1) && (pos(2) && ...)): each right operand calls a
	// function, so it becomes the body of an if in the one before.
	and := &stressKernel{
		body:  "\tif " + strings.Repeat("pos(x, i) && (", 99) + "pos(x, i)" + strings.Repeat(")", 99) + " {\n\t\ty[i] = 1\n\t}",
		funcs: "func pos(x []float32, i uint32) bool { return x[i] > 0 }\n",
	}
	for name, s := range map[string]*stressKernel{"400 nested ifs": nested(400), "100 nested && of calls": and} {
		k, err := kernelOf(t, s.source())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := wgslgen.Generate(k); err == nil || !strings.Contains(err.Error(), "[xpu-nesting]") || !strings.Contains(err.Error(), "k.go:") {
			t.Errorf("%s: err = %v, want [xpu-nesting] at a place in k.go", name, err)
		}
	}
}

// TestNonFiniteConstants: float constants at every edge (the largest and
// smallest, infinities and NaNs written as bits or produced by folding
// constants, negative zero) compile on both compilers and hold their
// values. Tint refused MaxFloat32 (printed above FLT_MAX) and every
// infinity (a bitcast it evaluates as a const-expression), so a softmax
// that starts its maximum at -Inf did not compile on Dawn.
func TestNonFiniteConstants(t *testing.T) {
	values := []struct {
		expr string
		want func(x float32) float32
	}{
		{"xpu.Float32FromBits(0xff800000)", func(float32) float32 { return float32(math.Inf(-1)) }},
		{"maxF", func(float32) float32 { return math.MaxFloat32 }},
		{"-maxF", func(float32) float32 { return -math.MaxFloat32 }},
		{"1e-45", func(float32) float32 { return math.SmallestNonzeroFloat32 }},
		{"xpu.Float32FromBits(0x7f000000) * 4", func(float32) float32 { return float32(math.Inf(1)) }},
		{"xpu.Sqrt(-1)", func(float32) float32 { return float32(math.NaN()) }},
		{"xpu.Exp(100)", func(float32) float32 { return float32(math.Inf(1)) }},
		{"xpu.Log(0)", func(float32) float32 { return float32(math.Inf(-1)) }},
		{"xpu.Max(xpu.Float32FromBits(0xff800000), x[i])", func(x float32) float32 { return x }},
		{"xpu.Float32FromBits(0x80000000)", func(float32) float32 { return float32(math.Copysign(0, -1)) }},
		{"xpu.Float32FromBits(0x7fc00000) + x[i]", func(float32) float32 { return float32(math.NaN()) }},
		{"0.1", func(float32) float32 { return 0.1 }},
		{"x[i] * 0x1.fffffep127 * 0x1p-149", func(x float32) float32 { return x * math.MaxFloat32 * math.SmallestNonzeroFloat32 }},
	}
	var b strings.Builder
	b.WriteString("\tconst maxF = 0x1.fffffep127\n\tswitch i % " + fmt.Sprint(len(values)) + " {\n")
	for j, v := range values {
		fmt.Fprintf(&b, "\tcase %d:\n\t\ty[i] = %s\n", j, v.expr)
	}
	b.WriteString("\t}")
	checkOnCompilers(t, []*stressKernel{{
		name: "constants",
		body: b.String(),
		ref:  func(x []float32, i int) float32 { return values[i%len(values)].want(x[i]) },
		same: func(got, want float32) bool {
			g, w := math.Float32bits(got), math.Float32bits(want)
			switch {
			case want != want:
				return got != got
			case w&0x7f800000 == 0 && w&0x7fffff != 0:
				return g == w || g == w&0x80000000 // a subnormal may flush to zero
			}
			return g == w
		},
	}})
}

// TestPrivateArraySize: a private array literal compiles on both
// compilers and holds its elements up to the documented size; a larger
// one (2,000 elements took lavapipe two minutes to compile, and crashed
// it with a cold shader cache) is refused by name.
func TestPrivateArraySize(t *testing.T) {
	literal := func(n int) *stressKernel {
		var b strings.Builder
		for j := range n {
			fmt.Fprintf(&b, "%d, ", j)
		}
		return &stressKernel{
			name: fmt.Sprintf("array%d", n),
			body: fmt.Sprintf("\ta := [%d]float32{%s}\n\ty[i] = a[(i*7)%%%d] + x[i]", n, b.String(), n),
			ref:  func(x []float32, i int) float32 { return float32((i*7)%n) + x[i] },
		}
	}
	checkOnCompilers(t, []*stressKernel{literal(256)})
	k, err := kernelOf(t, literal(2000).source())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wgslgen.Generate(k); err == nil || !strings.Contains(err.Error(), "[xpu-private-size]") {
		t.Errorf("2,000-element private array: err = %v, want [xpu-private-size]", err)
	}
}

// TestConstantIndexOutOfRange: an index that is a constant, or folds to
// one, outside its array (0xFFFFFFFF or a negative int32 into a buffer;
// the length, the largest uint32 or a negative int32 into a shared or
// private array; loads, stores and atomics) compiles on both compilers;
// Go panics only if the access runs, and here it never does. naga refused
// 0xFFFFFFFF into a buffer, and both compilers every such index into a
// shared or private array.
func TestConstantIndexOutOfRange(t *testing.T) {
	// Each kernel writes x[i] to y[i] and touches the out-of-range
	// elements only when x[i] > 2, which never holds: x is in [-1, 1).
	never := func(name, pre, bad, post string) *stressKernel {
		return &stressKernel{
			name: name,
			body: pre + "\tif x[i] > 2 {\n" + bad + "\t}\n" + post,
			ref:  func(x []float32, i int) float32 { return x[i] },
		}
	}
	checkOnCompilers(t, []*stressKernel{
		never("buffer", "\ty[i] = x[i]\n",
			"\t\ty[i] = x[4294967295] + x[t.BlockX()-65] + x[int32(t.BlockX())-65]\n\t\ty[4294967295] = 1\n\t\ty[int32(t.BlockX())-65] = 1\n", ""),
		never("shared", "\ts := xpu.Shared[float32](t, 64)\n\ts[t.LocalX()] = x[i]\n\tt.Barrier()\n",
			"\t\ts[64] = s[4294967295] + s[int32(t.BlockX())-65] + s[t.BlockX()]\n", "\ty[i] = s[t.LocalX()]\n"),
		never("private", "\ta := [4][2]float32{{x[i], 1}, {2, 3}}\n",
			"\t\ta[t.BlockX()-60][1] = a[1][int32(t.BlockX())-65] + a[t.BlockX()-65][0]\n", "\ty[i] = a[0][0]\n"),
		never("atomic", "\th := xpu.Shared[uint32](t, 64)\n\th[t.LocalX()] = 0\n\ty[i] = 0\n\tt.Barrier()\n",
			"\t\txpu.AtomicAdd(&h[64], 1)\n\t\txpu.AtomicStore(&h[t.BlockX()], 1)\n\t\txpu.AtomicAddFloat32(&y[4294967295], float32(xpu.AtomicLoad(&h[int32(t.BlockX())-65])))\n",
			"\txpu.AtomicAddFloat32(&y[i], x[i]+float32(xpu.AtomicLoad(&h[t.LocalX()])))\n"),
	})
}
