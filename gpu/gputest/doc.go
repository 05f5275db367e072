// Package gputest tests kernels on the devices of the xpu runtime
// against the reference runner: it opens every compiled-in backend that
// has a device on this machine ([ForEach]), runs a kernel's [Case] on a
// device and on the reference runner with the same fresh random inputs,
// outputs poisoned and guarded, and compares every buffer within a named
// [Tolerance] ([Run], [Check]), and takes the kernel census of a package
// after its tests ([RunWithCensus]). It is the harness every suite runs
// (the conformance and wave suites, any kernel package's own cases) and
// links no kernels of its own, as gonum's blas/testblas serves every
// implementation of blas.
//
// The environment variable XPU_REQUIRE (a comma-separated list of backend
// names, e.g. "webgpu,cpu") names backends whose absence fails the test
// instead of skipping it. It may also name requirements that are not
// backends (see [NotBackends]), which the tests that need them read with
// [Requires]. XPU_SEED ([SeedEnv]) fixes the inputs of a run.
//
// Layering: it imports the runtime (gpu) and the kernel vocabulary (xpu)
// only; kernel packages, backends and programs that run suites import it.
package gputest
