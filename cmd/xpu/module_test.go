package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestOwnModule follows the README's "Use xpu in your module" in a module
// of its own outside the repository, its go.mod replacing the module by
// this checkout: `go get -tool`, the README's kernel.go and main.go,
// `go mod tidy`, `go generate` through `go tool xpu gen`, `go run .`, and
// a test of the kernel on every backend present against the reference
// runner (XPU_REQUIRE applies there as here). It runs offline when the
// module cache holds the module's requirements (its go.sum starts as the
// checkout's), and shares the build cache with the enclosing `go test`.
func TestOwnModule(t *testing.T) {
	files := readmeFiles(t, "Use xpu in your module")
	files["saxpy_test.go"] = []byte(ownModuleTest)
	m := newModule(t)
	// The checkout stands for the module: go get's query for the path
	// as a module of its own (github.com/goxpu/xpu/cmd/xpu) stays off
	// the proxy, which knows no such module, and the requirements come
	// from the module cache, which holds them once the checkout builds.
	m.gotool("GOPROXY=off", "get", "-tool", "github.com/goxpu/xpu/cmd/xpu")
	m.write(files)
	m.gotool("mod", "tidy")
	m.gotool("generate", "./...")
	if _, err := os.Stat(filepath.Join(m.dir, "xpu_gen.go")); err != nil {
		t.Fatalf("go generate wrote no xpu_gen.go: %v", err)
	}
	if out := m.gotool("run", "."); !strings.Contains(out, "matches the reference runner") {
		t.Errorf("go run . printed %q, want the README program's verdict", out)
	}
	out := m.gotool("test", "-count=1", "-v", "./...")
	t.Logf("go test in the module:\n%s", out)
	for _, want := range []string{"--- PASS: TestSaxpy/cpu", "ok "} {
		if !strings.Contains(out, want) {
			t.Errorf("go test in the module: no %q in its output:\n%s", want, out)
		}
	}
}

// TestLanguageExamples generates each kernel example of docs/language.md
// (a Go code block with an //xpu:kernel line) as a package of its own in a
// module outside the repository, through `go tool xpu gen`, and vets the
// module: the examples are what a user would write, and must compile as
// written.
func TestLanguageExamples(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "docs", "language.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := newModule(t)
	m.gotool("GOPROXY=off", "get", "-tool", "github.com/goxpu/xpu/cmd/xpu")
	n := 0
	for _, b := range goBlock.FindAllStringSubmatch(string(src), -1) {
		if !strings.Contains(b[2], "//xpu:kernel") {
			continue // not a kernel: generated code, a fragment
		}
		n++
		pkg := fmt.Sprintf("example%d", n)
		if err := os.Mkdir(filepath.Join(m.dir, pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		m.write(map[string][]byte{filepath.Join(pkg, "kernel.go"): []byte("package " + pkg +
			"\n\n//go:generate go tool xpu gen\n\nimport \"github.com/goxpu/xpu\"\n\n" + b[2])})
	}
	if n < 3 {
		t.Fatalf("docs/language.md: %d kernel examples found, want the kernel's, the template's and the wave template's at least", n)
	}
	m.gotool("mod", "tidy")
	m.gotool("generate", "./...")
	m.gotool("vet", "./...")
}

// ownModuleTest is the module's test of its kernel: fresh random inputs on
// every backend present, against the reference runner.
const ownModuleTest = `package main

import (
	"math/rand/v2"
	"testing"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/gpu/gputest"
)

func TestSaxpy(t *testing.T) {
	cases := []*gputest.Case{{
		Kernel: SaxpyKernel,
		Tol:    gputest.Tolerance{Name: "a*x+y may be fused: 1 ulp on positive operands", ULP: 1},
		Setup: func(r *rand.Rand) gputest.Inputs {
			const n = 3000
			return gputest.Inputs{Groups: xpu.Dim3{X: xpu.GroupsFor(n, 256)}, Args: []gputest.Arg{
				gputest.Buffer(gputest.Floats(r, n, 0, 1)), gputest.Buffer(gputest.Floats(r, n, 0, 1)),
				gputest.Scalar(r.Float32() * 4), gputest.Scalar(uint32(n)),
			}}
		},
		Launch: func(s *gpu.Stream, g xpu.Dim3, a []any) error {
			return LaunchSaxpy(s, g, gputest.At[*gpu.Buffer[float32]](a, 0), gputest.At[*gpu.Buffer[float32]](a, 1),
				gputest.At[float32](a, 2), gputest.At[uint32](a, 3))
		},
	}}
	gputest.ForEach(t, func(t *testing.T, d *gpu.Device) { gputest.Check(t, d, cases) })
}
`

// module is a Go module in a temporary folder outside the repository
// whose go.mod replaces xpu by this checkout.
type module struct {
	t   *testing.T
	dir string
	env []string
}

// newModule makes the module. Its go commands see this process's
// environment (GOPROXY, GOFLAGS, the caches, XPU_REQUIRE), with the
// workspace off and go.mod updatable.
func newModule(t *testing.T) *module {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("the go command is needed: %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	m := &module{t: t, dir: t.TempDir()}
	m.env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	m.gotool("mod", "init", "example.com/first")
	m.gotool("mod", "edit", "-replace", "github.com/goxpu/xpu="+root)
	// The checkout's go.sum holds the hashes of the requirements the
	// module takes from it, checked when they were added: with it, go get
	// verifies them without asking the checksum database, which a machine
	// offline cannot reach.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	m.write(map[string][]byte{"go.sum": sum})
	return m
}

// gotool runs the go command in the module and returns its output; a
// failure fails the test with it.
// Leading NAME=value arguments are set in its environment.
func (m *module) gotool(args ...string) string {
	m.t.Helper()
	env := m.env
	for len(args) > 0 && strings.Contains(args[0], "=") {
		env, args = append(env[:len(env):len(env)], args[0]), args[1:]
	}
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = m.dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	m.t.Logf("go %s (%v)", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
	if err != nil {
		m.t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

func (m *module) write(files map[string][]byte) {
	m.t.Helper()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(m.dir, name), src, 0o644); err != nil {
			m.t.Fatal(err)
		}
	}
}

// goBlock is a Go code block of a markdown file, with the text before it.
var goBlock = regexp.MustCompile("(?s)([^\n]*)\n\n```go\n(.*?)```\n")

// fileName is a Go file's name in backticks, ending a paragraph.
var fileName = regexp.MustCompile("`([a-z_]+\\.go)`:$")

// readmeFiles returns the Go files of the README's section heading: each
// Go code block whose paragraph before it ends by naming a file.
func readmeFiles(t *testing.T, heading string) map[string][]byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(src), "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no section %q", heading)
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	files := map[string][]byte{}
	for _, b := range goBlock.FindAllStringSubmatch(sec, -1) {
		if n := fileName.FindStringSubmatch(b[1]); n != nil {
			files[n[1]] = []byte(b[2])
		}
	}
	if files["kernel.go"] == nil || files["main.go"] == nil {
		t.Fatalf("README.md's section %q names no kernel.go and main.go blocks (found %d)", heading, len(files))
	}
	return files
}
