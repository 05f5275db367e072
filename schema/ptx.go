package schema

// This file defines the calling contract of the PTX tier: how the CUDA
// driver launches a kernel that a lowering compiled to NVIDIA PTX
// (TargetPTX). The lowering writes its entries' parameters in this order
// and the driver passes them so; both take it from here.
//
// An artifact of TargetPTX carries in Code the PTX text of a module that
// holds the entries of every kernel of the package built for one
// baseline, in Symbol the name of this kernel's entry (a .visible .entry
// of the module), and in Selector.ISA that baseline, the module's
// .target: "sm_70" is compute capability 7.0. The CUDA driver compiles
// the module for its device (the driver's JIT), and runs it on a device
// of that compute capability or above; it refuses, by name, a device
// below it.
//
// An entry's parameters are all .u64, in this order:
//
//   - per buffer parameter, in order of the kernel's parameters, two:
//     the device address of its first byte (a view's first byte,
//     aligned to PTXBufferAlign), then its length in bytes (a view's),
//     from which the code takes len(): HostBuffer's pair, as values;
//   - when the kernel has scalars (Kernel.UniformSize > 0), the device
//     address of its uniform block: UniformSize bytes, each scalar at its
//     Binding offset, aligned to PTXUniformAlign;
//   - when the artifact's manifest sets Fault, the device address of the
//     fault word: one u32 into which the kernel ORs (atom.global.or.b32)
//     the bits FaultDivZero, FaultNegativeShift and FaultIndex where Go
//     would panic, the faulting thread then ending.
//
// The launch's grid is the launch's groups (gridDim), its block the
// kernel's Block (blockDim), with no dynamic shared memory: a kernel's
// shared arrays are the module's static .shared data.
//
// The fault word is the one WGSL code sets (Manifest.Fault), not a
// HostFault: a grid's threads run at once and cannot stop at the first
// fault to report its place as the host tier's entry does, and with the
// same word the runtime binds it as the last of a launch's buffers and
// reads it at the flush point, so that one path reports the faults of
// every GPU tier. An index out of range of a buffer, shared or private
// array sets FaultIndex and the access is not made (WGSL code keeps it
// in bounds instead, with no fault).

import (
	"fmt"
	"strconv"
	"strings"
)

// PTXBufferAlign is the alignment of a bound buffer's device address: the
// widest vector load the lowering may use on a buffer. A device's
// Limits.StorageOffsetAlignment is it, so that a view's window keeps it.
const PTXBufferAlign = 16

// PTXUniformAlign is the alignment of the uniform block's device address:
// the widest scalar load the lowering may use on it.
const PTXUniformAlign = 16

// PTXTarget names compute capability major.minor as Selector.ISA and a
// PTX module's .target spell it: PTXTarget(8, 6) is "sm_86".
func PTXTarget(major, minor int) string { return fmt.Sprintf("sm_%d%d", major, minor) }

// ParsePTXTarget reads the compute capability a Selector.ISA of a PTX
// artifact names ("sm_70": 7, 0). The minor version is the last digit, as
// in CUDA's spelling. An architecture-specific target ("sm_90a"), which
// runs on one capability only, is no baseline and is refused.
func ParsePTXTarget(isa string) (major, minor int, err error) {
	digits, ok := strings.CutPrefix(isa, "sm_")
	if !ok || len(digits) < 2 {
		return 0, 0, fmt.Errorf("PTX target %q: want sm_ and a compute capability of two or more digits (sm_70)", isa)
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 {
		return 0, 0, fmt.Errorf("PTX target %q: want sm_ and a compute capability of two or more digits (sm_70)", isa)
	}
	return n / 10, n % 10, nil
}
