package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/gputest"
	"github.com/goxpu/xpu/gpu/webgpu"
	"github.com/goxpu/xpu/gpu/webgpu/dawn"
	"github.com/goxpu/xpu/schema"
)

// The WGSL compilers run in child processes: this test binary, started
// again with serveEnv naming the compiler (see TestMain). A child opens its
// driver once and compiles the modules it is sent, one at a time, over
// the pipes at file descriptors 3 (requests) and 4 (answers); it never
// writes the protocol to stdout, where a driver may log. A child that
// dies or stops answering is a compiler crash or hang, reported with its
// stderr; the next module starts a fresh one.

// serveEnv names the compiler a child serves.
const serveEnv = "XPU_FUZZ_SERVE"

// compileTimeout bounds one module's compilation; past it the compiler
// is taken to hang.
const compileTimeout = 60 * time.Second

// The compilers: a name, and the driver opener of the runtime that
// drives it.
var compilerOpeners = map[string]func() driver.Opener{
	"naga": webgpu.Opener, // wgpu-native, through cgo
	"tint": dawn.Opener,   // Dawn, through purego
}

// compilerNames is the order the compilers are tried in.
var compilerNames = []string{"naga", "tint"}

// hello is a child's first answer.
type hello struct {
	Device      string // the adapter, for the log
	Unavailable string // why the driver cannot open, when it cannot
	Subgroups   bool   // whether the device offers subgroups (wave tiers)
}

// request is one module to compile, with what the pipeline layout needs.
type request struct {
	Name        string
	WGSL        string
	Params      []schema.Param
	UniformSize int
	Words       []schema.Word // the launch words after the scalars
	Fault       bool
}

// answer is the compilation's outcome.
type answer struct {
	Err string // the driver's error; "" when the pipeline was built
}

// serve is a child's body: it opens the compiler named by serveEnv and
// compiles requests until its input closes.
func serve(name string) int {
	in, out := os.NewFile(3, "requests"), os.NewFile(4, "answers")
	dec, enc := json.NewDecoder(in), json.NewEncoder(out)
	open := compilerOpeners[name]
	var dev driver.Device
	var h hello
	switch {
	case open == nil:
		h.Unavailable = fmt.Sprintf("no compiler %q", name)
	case open() == nil:
		h.Unavailable = "its driver is not built in this build"
	default:
		d, err := open()()
		if err != nil {
			h.Unavailable = err.Error()
			break
		}
		dev = d
		info := d.Info()
		h.Device = info.Name + " (" + info.Driver + ")"
		h.Subgroups = info.Limits.SubgroupMax > 0
	}
	if err := enc.Encode(h); err != nil || dev == nil {
		return 0
	}
	defer dev.Close()
	for {
		var r request
		if err := dec.Decode(&r); err != nil {
			return 0
		}
		if r.WGSL == crashProbe {
			panic("the crash probe")
		}
		var a answer
		p, err := dev.Compile(&driver.Kernel{Name: r.Name, Params: r.Params, UniformSize: r.UniformSize, Artifacts: []schema.Artifact{
			{Manifest: schema.Manifest{Backend: schema.BackendWebGPU, Target: schema.TargetWGSL, Fault: r.Fault, Words: r.Words}, Code: r.WGSL},
		}})
		if err != nil {
			a.Err = err.Error()
		} else {
			p.Release()
		}
		if err := enc.Encode(a); err != nil {
			return 0
		}
	}
}

// crashProbe is a module on which a server crashes, for the test of
// crash reports.
const crashProbe = "crash"

// compiler is the parent's end of one child.
type compiler struct {
	name   string
	cmd    *exec.Cmd
	reqW   *os.File
	enc    *json.Encoder
	dec    *json.Decoder
	stderr *tail
	hello  hello
	dead   error // why the child ended, once it has
}

// errCrash is wrapped by the error of a compiler that died or hung.
var errCrash = errors.New("WGSL compiler crashed")

// compilers holds the running children of this process, by name.
var compilers struct {
	sync.Mutex
	m map[string]*compiler
}

// compilerFor returns the running child of name, starting one if needed.
func compilerFor(name string) (*compiler, error) {
	compilers.Lock()
	defer compilers.Unlock()
	if c := compilers.m[name]; c != nil {
		return c, nil
	}
	c, err := start(name)
	if err != nil {
		return nil, err
	}
	if compilers.m == nil {
		compilers.m = make(map[string]*compiler)
	}
	compilers.m[name] = c
	return c, nil
}

// start starts a child serving name and reads its hello.
func start(name string) (*compiler, error) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ansR, ansW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	c := &compiler{name: name, reqW: reqW, enc: json.NewEncoder(reqW), dec: json.NewDecoder(ansR), stderr: &tail{}}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(os.Environ(), serveEnv+"="+name)
	c.cmd.ExtraFiles = []*os.File{reqR, ansW}
	c.cmd.Stderr = c.stderr
	err = c.cmd.Start()
	reqR.Close()
	ansW.Close()
	if err != nil {
		reqW.Close()
		ansR.Close()
		return nil, fmt.Errorf("starting the %s compiler: %w", name, err)
	}
	if err := c.receive(&c.hello); err != nil {
		return nil, err
	}
	if c.hello.Unavailable != "" {
		c.reqW.Close()
		c.cmd.Wait() // it has said why and ends
	}
	return c, nil
}

// receive reads the child's next answer into v, within compileTimeout.
// A child that dies or hangs is stopped and forgotten, and the error wraps
// errCrash with the child's stderr.
func (c *compiler) receive(v any) error {
	done := make(chan error, 1)
	go func() { done <- c.dec.Decode(v) }()
	select {
	case err := <-done:
		if err == nil {
			return nil
		}
		return c.died(fmt.Sprintf("stopped answering (%v)", err))
	case <-time.After(compileTimeout):
		c.cmd.Process.Kill()
		return c.died(fmt.Sprintf("took more than %v", compileTimeout))
	}
}

// died reaps the child and forgets it; the error says how it ended.
func (c *compiler) died(how string) error {
	if c.dead != nil {
		return c.dead
	}
	c.reqW.Close()
	werr := c.cmd.Wait()
	compilers.Lock()
	if compilers.m[c.name] == c {
		delete(compilers.m, c.name)
	}
	compilers.Unlock()
	c.dead = fmt.Errorf("%w: %s %s: %v; its stderr ends:\n%s", errCrash, c.name, how, werr, c.stderr.String())
	return c.dead
}

// compile compiles r. It returns the driver's refusal, or an error
// wrapping errCrash when the compiler died or hung on r.
func (c *compiler) compile(r request) error {
	if c.dead != nil {
		return c.dead
	}
	if err := c.enc.Encode(r); err != nil {
		return c.died(fmt.Sprintf("took no request (%v)", err))
	}
	var a answer
	if err := c.receive(&a); err != nil {
		return err
	}
	if a.Err != "" {
		return errors.New(a.Err)
	}
	return nil
}

// available returns the compilers this machine has, and an error when
// XPU_REQUIRE names webgpu and one of them cannot open (a cgo-less build
// has no wgpu-native: then only Tint is required).
func available() ([]*compiler, []string, error) {
	var cs []*compiler
	var notes []string
	for _, name := range compilerNames {
		c, err := compilerFor(name)
		if err != nil {
			return nil, nil, err
		}
		if c.hello.Unavailable == "" {
			cs = append(cs, c)
			continue
		}
		built := compilerOpeners[name]() != nil
		if gputest.Requires("webgpu") && built {
			return nil, nil, fmt.Errorf("XPU_REQUIRE names webgpu but the %s compiler cannot open: %s", name, c.hello.Unavailable)
		}
		notes = append(notes, fmt.Sprintf("*** the %s compiler is NOT checked: %s ***", name, c.hello.Unavailable))
	}
	return cs, notes, nil
}

// tail keeps the last bytes written to it: a child's stderr.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 4 << 10

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if n := len(t.buf); n > tailBytes {
		t.buf = bytes.Clone(t.buf[n-tailBytes:])
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

// TestCompilers checks the compilers' servers both ways: each accepts a
// valid module and refuses, with an error and alive, an invalid one.
func TestCompilers(t *testing.T) {
	cs, notes, err := available()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range notes {
		t.Log(n)
	}
	params := []schema.Param{{Name: "y", Kind: schema.ParamBuffer, Access: schema.AccessWrite}}
	good := "@group(0) @binding(0) var<storage, read_write> y: array<f32>;\n" +
		"@compute @workgroup_size(1) fn main() { y[0] = 1.0; }\n"
	bad := strings.Replace(good, "1.0", "true", 1)
	for _, c := range cs {
		t.Logf("%s: %s", c.name, c.hello.Device)
		if err := c.compile(request{Name: "good", WGSL: good, Params: params}); err != nil {
			t.Errorf("%s refuses a valid module: %v", c.name, err)
		}
		err := c.compile(request{Name: "bad", WGSL: bad, Params: params})
		if err == nil || errors.Is(err, errCrash) {
			t.Errorf("%s on an invalid module: got %v, want its refusal", c.name, err)
		}
		if err := c.compile(request{Name: "good", WGSL: good, Params: params}); err != nil {
			t.Errorf("%s after a refusal: %v", c.name, err)
		}
	}
}

// TestCompilerCrash checks that a compiler's crash is an error wrapping
// errCrash with what the child wrote, and that the next module gets a
// fresh compiler.
func TestCompilerCrash(t *testing.T) {
	cs, _, err := available()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Skip("no WGSL compiler on this machine")
	}
	c := cs[0]
	err = c.compile(request{Name: "probe", WGSL: crashProbe})
	if !errors.Is(err, errCrash) || !strings.Contains(err.Error(), "the crash probe") {
		t.Fatalf("a crash: got %v, want errCrash with the child's panic", err)
	}
	t.Logf("the report: %.300s", err)
	c2, err := compilerFor(c.name)
	if err != nil || c2 == c {
		t.Fatalf("no fresh compiler after a crash (%v)", err)
	}
	params := []schema.Param{{Name: "y", Kind: schema.ParamBuffer, Access: schema.AccessWrite}}
	good := "@group(0) @binding(0) var<storage, read_write> y: array<f32>;\n" +
		"@compute @workgroup_size(1) fn main() { y[0] = 1.0; }\n"
	if err := c2.compile(request{Name: "good", WGSL: good, Params: params}); err != nil {
		t.Errorf("the fresh %s: %v", c.name, err)
	}
}
