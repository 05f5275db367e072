// Package drivertest is the conformance suite of the driver contract
// (gpu/driver): one set of cases that drives a device through the
// contract alone, run against each driver by a test of the driver's own
// package through [Run], in the way gonum's testblas is run by each BLAS.
//
// The suite's kernels are defined here by their signature and meaning;
// the driver under test supplies their code in its own form (WGSL, a Go
// lowering; see [Code]), and the kernels its Compile must refuse. What
// only some drivers have (an asynchronous error channel, a cache of
// bindings, a device clock, a ring of uniforms) is asked of the driver
// through Config, so that a case checks every driver it applies to and
// says why it does not apply to the others.
//
// Layering: it imports the contract, xpu and the standard library, never
// a driver, the runtime or codegen.
package drivertest

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/schema"
)

// Config describes a driver to the suite.
type Config struct {
	// Open opens a device of the driver.
	Open func() (driver.Device, error)
	// Required: an unavailable device fails the suite instead of
	// skipping it.
	Required bool
	// Backend is the backend the driver's devices name in their Info.
	Backend schema.Backend
	// Code gives the suite's kernels the driver's code.
	Code Code
	// Refusals returns kernels the driver's Compile must refuse, made
	// from add (the suite's Add kernel with its code): the device keeps
	// working after each.
	Refusals func(add *driver.Kernel) []Refusal
	// CheckInfo, when not nil, checks what the driver alone promises of a
	// device's Info (its limits against its adapter's, its facts).
	CheckInfo func(t *testing.T, d driver.Device)
	// NoType: the driver does not report the device's type; NoName: nor
	// its name (a processor's model under wasm).
	NoType, NoName bool
	// Errors, when not nil, returns the errors the device reported that
	// no call has returned yet; a device keeps none after the suite's
	// refusals and reads. Nil: the driver keeps no such errors.
	Errors func(d driver.Device) error
	// Bindings, when not nil, returns how many bindings (bind groups) the
	// driver holds for the device: the suite checks that a binding's
	// buffers or views, once released, take it with them. Nil: the driver
	// holds none.
	Bindings func(d driver.Device) int
	// RingLaunches returns how many launches the ring case records before
	// it syncs: more than the driver's ring of uniforms holds, where it
	// has one; nil means 1,000.
	RingLaunches func(d driver.Device) int
	// ReadAlign is the alignment of a read's offset: a read at another
	// offset is refused. 0 or 1: a read at any offset reads.
	ReadAlign int
	// WriteAlign is the alignment of a write's end before the buffer's
	// own end: a write that ends elsewhere is refused, since the driver
	// cannot write part of a word without touching the bytes after it.
	// 0 or 1: a write of any length writes only its bytes.
	WriteAlign int
	// RunsOnRecord: the driver runs a launch while it records it (the
	// CPU), so the launch's context bounds the run, which stops without
	// losing the device; otherwise the driver defers launches and a wait
	// that outlives its context loses the device (Queue.Sync).
	RunsOnRecord bool
	// CannotStop, when not empty, says why a driver that runs launches as
	// it records them cannot stop one on this platform; the runaway case
	// is then left out.
	CannotStop string
	// LeakCycles is how many alloc/launch/free cycles the leak case
	// measures; 0 leaves it out (a host that reports no resident memory).
	LeakCycles int
	// AsyncErrors: the device reports a dispatch over more groups than it
	// allows from Sync, and survives it.
	AsyncErrors bool
	// AsyncErrorSays, when not empty, is a word that error holds.
	AsyncErrorSays string
	// LongWork is how long the work is that the case SyncWaitsForWork
	// waits for (at least three quarters of it is required); 0 leaves
	// the case out.
	LongWork time.Duration

	// The suite's kernels with the driver's code, set by Run.
	addKernel, spinKernel *driver.Kernel
}

// Code gives each of the suite's kernels the driver's code: each
// function sets, on a kernel whose name, block, parameters and uniform
// size the suite has set, the code that does what the kernel's doc says
// (the WGSL, the Go lowering).
type Code struct {
	// Add: out[i] = in[i] + k for every i below in's length (a window's
	// length for a view), a block of 64 work-items; unused is a buffer
	// the code never touches, which the driver must keep bound.
	Add func(k *driver.Kernel)
	// Spin: one work-item steps the generator x = 1664525*x + 1013904223
	// from x = 12345, rounds*inner times, checking between rounds whether
	// its launch is to stop (CPUBlock.Stopping), and writes out[0] = x,
	// out[1] = the rounds it ran: work whose length the scalars set and
	// whose result says that it ran to the end.
	Spin func(k *driver.Kernel)
}

// Refusal is a kernel a driver's Compile refuses, and the words its error
// holds.
type Refusal struct {
	Why    string // what is wrong with it, for the test's messages
	Kernel *driver.Kernel
	Says   []string
}

// Run runs every case of the suite against the driver c describes, each
// as a subtest.
func Run(t *testing.T, c Config) {
	c.addKernel, c.spinKernel = AddKernel(), SpinKernel()
	if c.Code.Add == nil || c.Code.Spin == nil {
		t.Fatal("drivertest: Config.Code gives no code for the suite's kernels")
	}
	c.Code.Add(c.addKernel)
	c.Code.Spin(c.spinKernel)
	cases := []struct {
		name string
		run  func(*testing.T, Config)
	}{
		{"Info", testInfo},
		{"CompileErrors", testCompileErrors},
		{"Launch", testLaunch},
		{"Ring", testRing},
		{"Repeat", testRepeat},
		{"Timer", testTimer},
		{"NoLeaks", testNoLeaks},
		{"ReleaseRecorded", testReleaseRecorded},
		{"AsyncErrors", testAsyncErrors},
		{"WriteRead", testWriteRead},
		{"Views", testViews},
		{"Replay", testReplay},
		{"SyncWaitsForWork", testSyncWaitsForWork},
		{"RunawayKernel", testRunawayKernel},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, c) })
	}
}

// AddKernel returns the suite's Add kernel (see Code.Add) without code.
func AddKernel() *driver.Kernel {
	return &driver.Kernel{
		Name:  "drivertest.add",
		Block: xpu.Dim3{X: 64, Y: 1, Z: 1},
		Params: []schema.Param{
			{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
			{Name: "in", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessRead, Binding: 1},
			{Name: "unused", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessNone, Binding: 2},
			{Name: "k", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
		},
		UniformSize: 16,
	}
}

// SpinKernel returns the suite's Spin kernel (see Code.Spin) without
// code.
func SpinKernel() *driver.Kernel {
	return &driver.Kernel{
		Name:  "drivertest.spin",
		Block: xpu.Dim3{X: 1, Y: 1, Z: 1},
		Params: []schema.Param{
			{Name: "out", Kind: schema.ParamBuffer, Type: schema.TypeName{Name: "uint32"}, Size: 4, Access: schema.AccessWrite, Binding: 0},
			{Name: "rounds", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 0},
			{Name: "inner", Kind: schema.ParamScalar, Type: schema.TypeName{Name: "uint32"}, Size: 4, Binding: 4},
		},
		UniformSize: 16,
	}
}

// open opens a device for t and closes it when t ends (Open).
func (c Config) open(t testing.TB) driver.Device {
	t.Helper()
	return Open(t, c.Open, c.Required)
}

// Open opens a device by open for t and closes it when t ends, failing t
// when Close reports an error. Where the device is unavailable it skips
// t, unless required.
func Open(t testing.TB, open func() (driver.Device, error), required bool) driver.Device {
	t.Helper()
	d, err := open()
	if errors.Is(err, driver.ErrUnavailable) && !required {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// setup compiles the Add kernel and makes a queue, both released when t
// ends.
func (c Config) setup(t testing.TB, d driver.Device) (driver.Program, driver.Queue) {
	t.Helper()
	p, err := d.Compile(c.addKernel)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Release)
	q, err := d.NewQueue()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Release)
	return p, q
}

// leftErrors fails t when the device kept errors no call returned.
func (c Config) leftErrors(t testing.TB, d driver.Device) {
	t.Helper()
	if c.Errors == nil {
		return
	}
	if err := c.Errors(d); err != nil {
		t.Errorf("errors left over: %v", err)
	}
}

// bindings returns how many bindings the driver holds for d; 0 for a
// driver that holds none.
func (c Config) bindings(d driver.Device) int {
	if c.Bindings == nil {
		return 0
	}
	return c.Bindings(d)
}

func u32Bytes(v []uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func uniforms(k uint32) []byte { return u32Bytes([]uint32{k, 0, 0, 0}) }

func readU32(t testing.TB, b driver.Buffer) []uint32 {
	t.Helper()
	raw := make([]byte, b.Size())
	if err := b.Read(bg, 0, raw); err != nil {
		t.Fatal(err)
	}
	out := make([]uint32, len(raw)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

func mustBuffer(t testing.TB, d driver.Device, size int) driver.Buffer {
	t.Helper()
	b, err := d.NewBuffer(size)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bg is the context of the waits that need no bound.
var bg = context.Background()
