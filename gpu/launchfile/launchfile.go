// Package launchfile defines the file one recorded launch is written to
// (package gpu records them, [gpu.Device.SetRecord]; package gpu/corpus
// replays them): which kernel ran, which code, over which grid, with
// which scalars, and the contents of its buffers before and after.
//
// A file is three parts, in order:
//
//	xpu-launch 1\n        the format and its version (Magic)
//	{...}\n               the Header, as one line of JSON
//	payload               the buffers' bytes, raw, little endian
//
// Each buffer's In and Out name a range of the payload (offsets from
// its first byte): In holds the buffer as the launch found it, Out as
// the launch left it (only for a buffer the kernel writes). A reader
// reads the header line and then takes the ranges it wants; nothing is
// decoded but the header.
//
// Layering: launchfile imports only the standard library; gpu writes
// the files and gpu/corpus reads them, so that the format is spelled
// once.
package launchfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Magic is the first line of a launch file: the format and its version.
// A reader refuses another version by name.
const Magic = "xpu-launch 1"

// Ext is the name ending of a launch file.
const Ext = ".launch"

// ErrFormat is wrapped by the errors of a file that is not a launch file
// of this version, or whose header does not describe its payload.
var ErrFormat = errors.New("not a launch file")

// Header is what a launch file says of its launch.
type Header struct {
	// Index is the launch's number in its recording: 1, 2, ... in the
	// order the device's launches ran.
	Index int `json:"index"`

	// Kernel is the kernel's name, "importpath.Name".
	Kernel string `json:"kernel"`
	// Backend, Target and Hash identify the code that ran: the artifact
	// the device picked, by its manifest's Backend, Target and Hash
	// (schema.Manifest.Hash, "sha256:..."). Codegen is its generator's
	// version.
	Backend string `json:"backend"`
	Target  string `json:"target"`
	Hash    string `json:"hash"`
	Codegen string `json:"codegen,omitempty"`

	// Device names the device (its backend and name) and Stream the
	// stream's number on it (gpu.Stream.ID).
	Device string `json:"device"`
	Stream int    `json:"stream"`

	// Grid is the launch's groups (Y and Z at least 1), Block the
	// kernel's pinned block, Wave the wave width the device ran the
	// kernel's waves at (0: the kernel's declared width).
	Grid  [3]uint32 `json:"grid"`
	Block [3]uint32 `json:"block"`
	Wave  uint32    `json:"wave"`

	// Params are the kernel's parameters after its Thread, in order.
	Params []Param `json:"params"`
}

// Param is one parameter of a recorded launch: a scalar's value or a
// buffer's contents.
type Param struct {
	Name string `json:"name"`
	// Type is the Go type of the scalar or of the buffer's element,
	// qualified by its import path ("float32", "example.com/k.Particle").
	Type string `json:"type"`

	// A scalar: Bits is its 32 bits as the uniform block holds them.
	Scalar bool   `json:"scalar,omitempty"`
	Bits   uint32 `json:"bits,omitempty"`

	// A buffer: the size of one element, the kernel's access mode
	// ("read", "write", "read-write", "atomic"), its length in elements,
	// and where its contents lie in the payload. Out is nil for a buffer
	// the kernel only reads.
	Size   int    `json:"size,omitempty"`
	Access string `json:"access,omitempty"`
	Len    int    `json:"len,omitempty"`
	In     *Range `json:"in,omitempty"`
	Out    *Range `json:"out,omitempty"`
}

// Range is a range of a file's payload, in bytes.
type Range struct {
	Offset int `json:"offset"`
	Bytes  int `json:"bytes"`
}

// Write writes a launch file of h and payload to w.
func Write(w io.Writer, h *Header, payload []byte) error {
	if err := h.check(len(payload)); err != nil {
		return err
	}
	line, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(Magic + "\n")
	bw.Write(line)
	bw.WriteByte('\n')
	bw.Write(payload)
	return bw.Flush()
}

// Read reads the launch file at path: its header and its payload.
func Read(path string) (*Header, []byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	h, payload, err := Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, payload, nil
}

// Parse splits the bytes of a launch file into its header and its
// payload, which shares data's memory.
func Parse(data []byte) (*Header, []byte, error) {
	magic, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(magic) != Magic {
		first := magic[:min(len(magic), 40)]
		return nil, nil, fmt.Errorf("first line %q, want %q: %w", first, Magic, ErrFormat)
	}
	line, payload, ok := bytes.Cut(rest, []byte("\n"))
	if !ok {
		return nil, nil, fmt.Errorf("no end to the header line: %w", ErrFormat)
	}
	var h Header
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, nil, fmt.Errorf("header: %w: %w", ErrFormat, err)
	}
	if err := h.check(len(payload)); err != nil {
		return nil, nil, err
	}
	return &h, payload, nil
}

// Slice returns the bytes of r in payload.
func (r *Range) Slice(payload []byte) []byte {
	return payload[r.Offset : r.Offset+r.Bytes]
}

// check reports a header that does not describe a payload of n bytes:
// a buffer's range outside it, or not its length's bytes.
func (h *Header) check(n int) error {
	if h.Kernel == "" {
		return fmt.Errorf("no kernel named: %w", ErrFormat)
	}
	for _, p := range h.Params {
		if p.Scalar {
			continue
		}
		if p.Size <= 0 || p.Len < 0 || p.Len > n/p.Size {
			return fmt.Errorf("buffer %s: %d elements of %d bytes: %w", p.Name, p.Len, p.Size, ErrFormat)
		}
		for _, r := range []*Range{p.In, p.Out} {
			if r == nil {
				continue
			}
			if r.Bytes != p.Len*p.Size || r.Offset < 0 || r.Offset > n-r.Bytes {
				return fmt.Errorf("buffer %s: range [%d, +%d) of a %d-byte payload for %d elements of %d bytes: %w",
					p.Name, r.Offset, r.Bytes, n, p.Len, p.Size, ErrFormat)
			}
		}
		if p.In == nil {
			return fmt.Errorf("buffer %s: no contents before the launch: %w", p.Name, ErrFormat)
		}
	}
	return nil
}
