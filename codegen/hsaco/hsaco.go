// Package hsaco reads AMDGPU code objects: the ELF shared objects of the
// amdgcn-amd-amdhsa triple that the HSACO tier builds (schema/hsaco.go)
// and the HIP runtime loads. Read checks that an object is one, and
// decodes its metadata note (NT_AMDGPU_METADATA, MessagePack) into
// typed facts per kernel: registers, spills, segment sizes, wave size;
// and the object's target (its processor and features). Spill states the
// tier's spill gate over those facts.
//
// Layering: this package knows no IR, no lowering and no driver; it
// imports only the standard library and a MessagePack decoder
// (github.com/vmihailenco/msgpack/v5).
package hsaco

// This file reads an object: its ELF header, its metadata note, and the
// kernels' descriptor symbols.

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/vmihailenco/msgpack/v5"
)

// Object is what an AMDGPU code object says of itself.
type Object struct {
	Target Target
	// Version is the metadata's amdhsa.version (major, minor): 1.2 is
	// code object version 5.
	Version [2]int
	Kernels []Kernel
}

// Kernel is one kernel's entry of amdhsa.kernels. A fact the note does
// not state is nil, never zero.
type Kernel struct {
	// Name is the kernel's name (.name), the entry a runtime looks up;
	// Symbol its kernel descriptor's symbol (.symbol, "name.kd").
	Name   string `msgpack:".name"`
	Symbol string `msgpack:".symbol"`

	// VGPRs is the vector registers per work-item; on a processor of
	// one file for VGPRs and AGPRs (gfx90a), both, as allocated.
	VGPRs *int `msgpack:".vgpr_count"`
	SGPRs *int `msgpack:".sgpr_count"` // scalar registers per wave
	// AGPRs is the accumulation registers per work-item, on processors
	// that have them (gfx90a: .agpr_count).
	AGPRs      *int `msgpack:".agpr_count"`
	VGPRSpills *int `msgpack:".vgpr_spill_count"`
	SGPRSpills *int `msgpack:".sgpr_spill_count"`
	// PrivateSegmentBytes is the fixed scratch a work-item needs
	// (spills, private arrays, a stack); GroupSegmentBytes the static
	// LDS a workgroup needs; KernargSegmentBytes the kernel arguments',
	// the hidden ones included.
	PrivateSegmentBytes *int  `msgpack:".private_segment_fixed_size"`
	GroupSegmentBytes   *int  `msgpack:".group_segment_fixed_size"`
	KernargSegmentBytes *int  `msgpack:".kernarg_segment_size"`
	WavefrontSize       *int  `msgpack:".wavefront_size"`
	MaxFlatWorkgroup    *int  `msgpack:".max_flat_workgroup_size"`
	DynamicStack        *bool `msgpack:".uses_dynamic_stack"`
}

// metadata is the note's map, of which Read keeps what Object holds.
type metadata struct {
	Kernels []Kernel `msgpack:"amdhsa.kernels"`
	Target  *string  `msgpack:"amdhsa.target"`
	Version []int    `msgpack:"amdhsa.version"`
}

// The ELF facts of an AMDGPU code object (LLVM's AMDGPUUsage).
const (
	osabiAMDGPUHSA = 64 // ELFOSABI_AMDGPU_HSA
	abiV4          = 2  // ELFABIVERSION_AMDGPU_HSA_V4; V5 is 3
	ntAMDGPUMeta   = 32 // NT_AMDGPU_METADATA
	efMachMask     = 0xff
)

// maxNote bounds the metadata note Read decodes: a package's kernels
// take some kilobytes each; more is not a code object of ours.
const maxNote = 64 << 20

// Read parses obj as an AMDGPU code object. Its errors name the rule the
// bytes break; no input makes it panic.
func Read(obj []byte) (*Object, error) {
	f, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		return nil, fmt.Errorf("hsaco: not an ELF file: %w", err)
	}
	if f.Class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB || f.Machine != elf.EM_AMDGPU {
		return nil, fmt.Errorf("hsaco: an ELF %v %v for %v, not an AMDGPU code object (ELFCLASS64, little-endian, EM_AMDGPU)", f.Class, f.Data, f.Machine)
	}
	if f.OSABI != osabiAMDGPUHSA {
		return nil, fmt.Errorf("hsaco: OS ABI %d, not AMDGPU HSA (%d)", f.OSABI, osabiAMDGPUHSA)
	}
	if f.ABIVersion < abiV4 {
		// Version 3's e_flags state xnack and sramecc otherwise.
		return nil, fmt.Errorf("hsaco: ELF ABI version %d: a code object of version 3 or older; want version 4 or later (ABI version %d or more)", f.ABIVersion, abiV4)
	}
	if f.Type != elf.ET_DYN {
		return nil, fmt.Errorf("hsaco: an ELF %v; a code object is a shared object (ET_DYN: link with ld.lld -shared)", f.Type)
	}
	flags, err := eflags(obj)
	if err != nil {
		return nil, err
	}
	note, err := metadataNote(f)
	if err != nil {
		return nil, err
	}
	if err := checkSizes(note); err != nil {
		return nil, err
	}
	var md metadata
	if err := msgpack.Unmarshal(note, &md); err != nil {
		return nil, fmt.Errorf("hsaco: the metadata note is not the MessagePack map of amdhsa.kernels: %w", err)
	}
	o := &Object{Kernels: md.Kernels}
	if len(md.Version) != 2 || md.Version[0] != 1 {
		return nil, fmt.Errorf("hsaco: amdhsa.version %v; want [1 minor]", md.Version)
	}
	o.Version = [2]int{md.Version[0], md.Version[1]}
	if md.Target == nil {
		return nil, errors.New("hsaco: the metadata names no amdhsa.target")
	}
	if o.Target, err = ParseTarget(*md.Target); err != nil {
		return nil, err
	}
	if err := o.Target.agrees(flags); err != nil {
		return nil, err
	}
	syms, err := descriptors(f)
	if err != nil {
		return nil, err
	}
	for i := range o.Kernels {
		if err := check(&o.Kernels[i], syms); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// Kernel returns the kernel named name.
func (o *Object) Kernel(name string) (*Kernel, bool) {
	for i := range o.Kernels {
		if o.Kernels[i].Name == name {
			return &o.Kernels[i], true
		}
	}
	return nil, false
}

// eflags reads e_flags, which debug/elf does not expose, from the
// 64-bit header Read has checked (its offset 48).
func eflags(obj []byte) (uint32, error) {
	if len(obj) < 52 {
		return 0, errors.New("hsaco: an ELF header cut short")
	}
	flags := binary.LittleEndian.Uint32(obj[48:])
	if flags&efMachMask == 0 {
		return 0, errors.New("hsaco: e_flags names no processor (EF_AMDGPU_MACH 0)")
	}
	return flags, nil
}

// metadataNote returns the description of the object's one
// NT_AMDGPU_METADATA note of owner "AMDGPU", from its note sections.
func metadataNote(f *elf.File) ([]byte, error) {
	var found []byte
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		if s.Size > maxNote {
			return nil, fmt.Errorf("hsaco: note section %s of %d bytes; at most %d", s.Name, s.Size, maxNote)
		}
		data, err := s.Data()
		if err != nil {
			return nil, fmt.Errorf("hsaco: note section %s: %w", s.Name, err)
		}
		for len(data) > 0 {
			name, typ, desc, rest, err := nextNote(data)
			if err != nil {
				return nil, fmt.Errorf("hsaco: note section %s: %w", s.Name, err)
			}
			data = rest
			if name != "AMDGPU" || typ != ntAMDGPUMeta {
				continue
			}
			if found != nil {
				return nil, errors.New("hsaco: two NT_AMDGPU_METADATA notes")
			}
			found = desc
		}
	}
	if found == nil {
		return nil, errors.New("hsaco: no NT_AMDGPU_METADATA note (owner AMDGPU): not a code object of version 3 or later")
	}
	return found, nil
}

// nextNote splits the first note off data: its owner (without the NUL),
// type and description; name and description are each padded to 4
// bytes.
func nextNote(data []byte) (name string, typ uint32, desc, rest []byte, err error) {
	if len(data) < 12 {
		return "", 0, nil, nil, errors.New("a note header cut short")
	}
	nsz, dsz := uint64(binary.LittleEndian.Uint32(data)), uint64(binary.LittleEndian.Uint32(data[4:]))
	typ = binary.LittleEndian.Uint32(data[8:])
	data = data[12:]
	pn, pd := (nsz+3)&^3, (dsz+3)&^3
	if pn > uint64(len(data)) || pd > uint64(len(data))-pn {
		return "", 0, nil, nil, fmt.Errorf("a note of %d name and %d description bytes in %d", nsz, dsz, len(data))
	}
	name = string(bytes.TrimRight(data[:nsz], "\x00"))
	return name, typ, data[pn : pn+dsz], data[pn+pd:], nil
}

// descriptors returns the names of the object's defined data symbols of
// 64 bytes, its kernel descriptors' candidates.
func descriptors(f *elf.File) ([]string, error) {
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, fmt.Errorf("hsaco: the dynamic symbol table: %w", err)
	}
	var names []string
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_OBJECT && s.Section != elf.SHN_UNDEF && s.Size == 64 {
			names = append(names, s.Name)
		}
	}
	return names, nil
}

// check validates a kernel's entry: named, its descriptor a symbol of
// the object, no fact negative, a wave of 32 or 64.
func check(k *Kernel, syms []string) error {
	if k.Name == "" {
		return errors.New("hsaco: a kernel of amdhsa.kernels without .name")
	}
	if k.Symbol == "" {
		return fmt.Errorf("hsaco: kernel %s: no .symbol", k.Name)
	}
	if !slices.Contains(syms, k.Symbol) {
		return fmt.Errorf("hsaco: kernel %s: its descriptor %s is no 64-byte data symbol of the object", k.Name, k.Symbol)
	}
	for _, f := range []struct {
		v    *int
		what string
	}{
		{k.VGPRs, ".vgpr_count"}, {k.SGPRs, ".sgpr_count"}, {k.AGPRs, ".agpr_count"},
		{k.VGPRSpills, ".vgpr_spill_count"}, {k.SGPRSpills, ".sgpr_spill_count"},
		{k.PrivateSegmentBytes, ".private_segment_fixed_size"}, {k.GroupSegmentBytes, ".group_segment_fixed_size"},
		{k.KernargSegmentBytes, ".kernarg_segment_size"}, {k.WavefrontSize, ".wavefront_size"},
		{k.MaxFlatWorkgroup, ".max_flat_workgroup_size"},
	} {
		if f.v != nil && *f.v < 0 {
			return fmt.Errorf("hsaco: kernel %s: %s %d", k.Name, f.what, *f.v)
		}
	}
	if w := k.WavefrontSize; w != nil && *w != 32 && *w != 64 {
		return fmt.Errorf("hsaco: kernel %s: .wavefront_size %d; want 32 or 64", k.Name, *w)
	}
	return nil
}
