package llama

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"

	gguf "github.com/gpustack/gguf-parser-go"

	"github.com/goxpu/xpu/gpu"
	"github.com/goxpu/xpu/kernels/quant"
	"github.com/goxpu/xpu/kernels/tensor"
)

// This file reads and writes a layer's GGUF file: one block ("blk.0."),
// llama's metadata keys, tensors as llama.cpp lays them out.

// alignment is where each tensor's data starts: GGUF's default.
const alignment = 32

// GGUF's metadata value types this file writes.
const (
	ggufUint32  = 4
	ggufFloat32 = 6
	ggufString  = 8
)

// A raw is one tensor as a file holds it.
type raw struct {
	format     tensor.Format
	rows, cols int
	data       []byte
}

// Write writes a GGUF file of the layer of config c and weights h to w:
// each matrix in the format format returns for its name ("attn_q.weight"),
// the norms in f32. A block format needs columns that are whole blocks.
func Write(w io.Writer, c Config, h Host, format func(name string) tensor.Format) error {
	if err := c.check(); err != nil {
		return err
	}
	if err := h.check(c); err != nil {
		return err
	}
	var b bytes.Buffer
	u32 := func(v uint32) { binary.Write(&b, binary.LittleEndian, v) }
	u64 := func(v uint64) { binary.Write(&b, binary.LittleEndian, v) }
	str := func(s string) { u64(uint64(len(s))); b.WriteString(s) }
	meta := []struct {
		key string
		typ uint32
		val any
	}{
		{"general.architecture", ggufString, "llama"},
		{"general.alignment", ggufUint32, uint32(alignment)},
		{"llama.block_count", ggufUint32, uint32(1)},
		{"llama.context_length", ggufUint32, uint32(c.Ctx)},
		{"llama.embedding_length", ggufUint32, uint32(c.Dim)},
		{"llama.feed_forward_length", ggufUint32, uint32(c.Hidden)},
		{"llama.attention.head_count", ggufUint32, uint32(c.Heads)},
		{"llama.attention.head_count_kv", ggufUint32, uint32(c.KVHeads)},
		{"llama.attention.layer_norm_rms_epsilon", ggufFloat32, c.Eps},
		{"llama.rope.freq_base", ggufFloat32, c.Theta},
		{"llama.rope.dimension_count", ggufUint32, uint32(c.HeadDim())},
	}
	b.WriteString("GGUF")
	u32(3) // the version
	u64(uint64(len(tensorNames)))
	u64(uint64(len(meta)))
	for _, m := range meta {
		str(m.key)
		u32(m.typ)
		switch v := m.val.(type) {
		case string:
			str(v)
		case uint32:
			u32(v)
		case float32:
			u32(math.Float32bits(v))
		}
	}
	var data []byte
	for _, t := range tensorNames {
		f := tensor.F32
		if !t.norm {
			f = format(t.name)
		}
		enc, err := encode(f, h[t.name])
		if err != nil {
			return fmt.Errorf("llama: %s: %w", t.name, err)
		}
		ggml, ok := f.GGML()
		if !ok {
			return fmt.Errorf("llama: %s: %s has no GGUF type: %w", t.name, f, gpu.ErrType)
		}
		str("blk.0." + t.name)
		if t.norm {
			u32(1)
			u64(uint64(t.cols(c)))
		} else {
			u32(2)
			u64(uint64(t.cols(c))) // GGUF's first dimension is the innermost
			u64(uint64(t.rows(c)))
		}
		u32(ggml)
		u64(uint64(len(data)))
		data = append(data, enc...)
		data = append(data, make([]byte, pad(len(data)))...)
	}
	b.Write(make([]byte, pad(b.Len())))
	b.Write(data)
	_, err := w.Write(b.Bytes())
	return err
}

// pad returns the bytes that bring n to a multiple of alignment.
func pad(n int) int { return (alignment - n%alignment) % alignment }

// encode returns v's bytes in format f.
func encode(f tensor.Format, v []float32) ([]byte, error) {
	if f == tensor.F32 {
		b := make([]byte, 0, 4*len(v))
		for _, x := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
		}
		return b, nil
	}
	return quant.Encode(f, v)
}

// decode returns the values of r's bytes.
func decode(r raw) ([]float32, error) {
	if r.format == tensor.F32 {
		v := make([]float32, len(r.data)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(r.data[4*i:]))
		}
		return v, nil
	}
	return quant.Decode(r.format, r.data)
}

// read returns the config of the GGUF file at path and its layer's
// tensors, by name suffix.
func read(path string) (Config, map[string]raw, error) {
	gf, err := gguf.ParseGGUFFile(path)
	if err != nil {
		return Config{}, nil, fmt.Errorf("llama: %w", err)
	}
	kv := gf.Header.MetadataKV
	u := func(key string) (int, error) {
		v, ok := kv.Get(key)
		if !ok {
			return 0, fmt.Errorf("llama: %s: no %s: %w", path, key, gpu.ErrArgs)
		}
		return int(v.ValueUint32()), nil
	}
	var c Config
	for _, f := range []struct {
		key string
		to  *int
	}{{"llama.embedding_length", &c.Dim}, {"llama.attention.head_count", &c.Heads}, {"llama.attention.head_count_kv", &c.KVHeads},
		{"llama.feed_forward_length", &c.Hidden}, {"llama.context_length", &c.Ctx}} {
		if *f.to, err = u(f.key); err != nil {
			return Config{}, nil, err
		}
	}
	for _, f := range []struct {
		key string
		to  *float32
	}{{"llama.attention.layer_norm_rms_epsilon", &c.Eps}, {"llama.rope.freq_base", &c.Theta}} {
		v, ok := kv.Get(f.key)
		if !ok {
			return Config{}, nil, fmt.Errorf("llama: %s: no %s: %w", path, f.key, gpu.ErrArgs)
		}
		*f.to = v.ValueFloat32()
	}
	if err := c.check(); err != nil {
		return Config{}, nil, err
	}
	file, err := os.Open(path)
	if err != nil {
		return Config{}, nil, fmt.Errorf("llama: %w", err)
	}
	defer file.Close()
	ts := map[string]raw{}
	for _, t := range tensorNames {
		name := "blk.0." + t.name
		ti, ok := gf.TensorInfos.Get(name)
		if !ok {
			return Config{}, nil, fmt.Errorf("llama: %s: no tensor %s: %w", path, name, gpu.ErrArgs)
		}
		f, ok := formatOf(uint32(ti.Type))
		if !ok || t.norm && f != tensor.F32 {
			return Config{}, nil, fmt.Errorf("llama: %s: tensor %s is of GGML type %v, which this layer does not take: %w", path, name, ti.Type, gpu.ErrType)
		}
		rows, cols := t.rows(c), t.cols(c)
		want := []uint64{uint64(cols), uint64(rows)}
		if t.norm {
			want = want[:1]
		}
		if fmt.Sprint(ti.Dimensions) != fmt.Sprint(want) {
			return Config{}, nil, fmt.Errorf("llama: %s: tensor %s has dimensions %v; the config's are %v: %w", path, name, ti.Dimensions, want, gpu.ErrSize)
		}
		n, ok := f.Bytes(rows * cols)
		if !ok {
			return Config{}, nil, fmt.Errorf("llama: %s: tensor %s: %d columns are not whole %s blocks: %w", path, name, cols, f, gpu.ErrSize)
		}
		data := make([]byte, n)
		if _, err := file.ReadAt(data, gf.TensorDataStartOffset+int64(ti.Offset)); err != nil {
			return Config{}, nil, fmt.Errorf("llama: %s: tensor %s: %w", path, name, err)
		}
		ts[t.name] = raw{format: f, rows: rows, cols: cols, data: data}
	}
	return c, ts, nil
}

// formatOf returns the format of GGML type ggml.
func formatOf(ggml uint32) (tensor.Format, bool) {
	for _, f := range tensor.Formats() {
		if g, ok := f.GGML(); ok && g == ggml {
			return f, true
		}
	}
	return 0, false
}

// ReadHost returns the config of the GGUF file at path and its weights,
// decoded to float32 on the host: what [Reference] runs.
func ReadHost(path string) (Config, Host, error) {
	c, ts, err := read(path)
	if err != nil {
		return Config{}, nil, err
	}
	h := Host{}
	for name, r := range ts {
		if h[name], err = decode(r); err != nil {
			return Config{}, nil, fmt.Errorf("llama: %s: %w", name, err)
		}
	}
	return c, h, nil
}
