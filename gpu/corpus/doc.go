// Package corpus replays recorded launches through the reference runner.
//
// A corpus is a folder of launch files (package gpu/launchfile), at any
// depth: a program records one by running with XPU_RECORD=dir, or by
// [gpu.Device.SetRecord]. [Replay] runs each recorded launch's kernel on
// the reference runner ([gpu.Kernel.ReferenceWith], at the wave width
// the device ran it at) from the recorded contents of its buffers, and
// compares what the reference writes with what the device wrote:
// integers bit for bit, floats bit for bit too unless the corpus holds
// the kernel to a bound in units in the last place (a [Hold], read from
// the corpus's holds.json). A NaN equals any NaN.
//
// A launch is refused by name when its kernel is not linked into the
// program that replays it (a binary replays only the kernels it links:
// `xpu replay` links the library's and the suites', `xpu replay dir
// packages...` those of the packages too, and a program or test replays
// its own kernels by calling Replay), or when the
// code the device ran is no longer the kernel's (its hash changed). A
// hold that the corpus no longer needs, because every launch of its
// kernel agrees exactly or within a tighter bound, or because none is
// in the corpus, is stale, and fails the replay as a mismatch does, so
// that a bound is removed when the code it excused is fixed.
//
// Layering: corpus imports the runtime (gpu) and the launch files'
// format (gpu/launchfile); nothing in gpu imports it.
package corpus
