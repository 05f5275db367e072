package schema

// This file defines the calling contract of the HSACO tier: how the HIP
// driver launches a kernel that a lowering compiled to an AMDGPU code
// object (TargetHSACO).
//
// An artifact of TargetHSACO carries in Code the bytes of an AMDGPU code
// object (an ELF shared object for the amdgcn-amd-amdhsa triple, code
// object version 5) that holds the entries of every kernel of the
// package built for one architecture and wave width, in Symbol the name
// of this kernel's entry (a kernel symbol of the object, "name.kd" its
// descriptor), and in Selector.ISA that architecture as the object's
// processor spells it ("gfx90a", "gfx1100"). Each architecture is built
// at one wave size, which its kernel descriptors state and the device
// runs it at (the target feature wavefrontsize64 or wavefrontsize32: 64
// for CDNA, 32 for RDNA); Selector.Width is, as for every artifact, the
// width the kernel's wave verbs run at. A code object runs only on a
// device of its exact architecture; the HIP driver refuses any other by
// name.
//
// An entry's explicit kernel arguments are those of a PTX entry
// (schema/ptx.go), in the same order, each a u64 at its natural
// alignment in the kernarg segment: per buffer parameter its device
// address and its length in bytes, then the uniform block's address when
// the kernel has scalars, then the fault word's address when the
// manifest sets Fault. The faults, the bounds of accesses, the grid and
// the block are as for PTX; shared arrays are the object's static group
// segment (no dynamic LDS).
//
// The code object's metadata note (NT_AMDGPU_METADATA, amdhsa.kernels)
// gives per kernel its registers (.vgpr_count, .sgpr_count), its spills
// (.vgpr_spill_count, .sgpr_spill_count), its private and group segment
// sizes; the generator reads it into the artifact's manifest (Registers:
// VGPRs per work-item; SpillBytes: the private segment's fixed size) and
// fails a kernel that spills ([xpu-kernel-spill]).

// HSACOTriple is the target triple of a code object.
const HSACOTriple = "amdgcn-amd-amdhsa"
