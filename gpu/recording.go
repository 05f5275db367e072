package gpu

// This file records launches (Device.SetRecord, XPU_RECORD): each launch
// of a device, with the contents of its buffers before and after it, to a
// file of package gpu/launchfile, for package gpu/corpus to replay
// through the reference runner. A device that records nothing pays one
// atomic load a launch.

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/goxpu/xpu/gpu/driver"
	"github.com/goxpu/xpu/gpu/launchfile"
	"github.com/goxpu/xpu/schema"
)

// RecordEnv names the environment variable that makes every device a
// program opens record its launches into the folder it names, as
// [Device.SetRecord] does.
const RecordEnv = "XPU_RECORD"

// recorder writes one device's launches into its folder.
type recorder struct {
	dir string
	// mu holds one recorded launch at a time, so that what is read
	// before it and after it is that launch's.
	mu sync.Mutex
	n  int // launches written, under mu
}

// SetRecord makes the device record each launch from now on, on every
// stream, into a new folder in dir (made if missing, named after the
// backend), one file a launch: the kernel and the hash of the code the
// device ran, the grid, the scalars, and the contents of every buffer
// before the launch and of those it writes after it (the format is
// package gpu/launchfile's). "" stops recording. [Device.Recording]
// names the folder.
//
// A recorded launch waits: it flushes the device's streams and reads its
// buffers before it runs, and waits for it to finish to read what it
// wrote, so launches run one at a time, and a fault of a launch (or of
// one before it) is reported by the launch itself. A launch that is
// refused, or whose buffers cannot be read, writes no file.
func (d *Device) SetRecord(dir string) error {
	if err := d.usable("Device.SetRecord"); err != nil {
		return err
	}
	if dir == "" {
		d.recorder.Store(nil)
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gpu: Device.SetRecord: %w", err)
	}
	sub, err := os.MkdirTemp(dir, string(d.backend)+"-")
	if err != nil {
		return fmt.Errorf("gpu: Device.SetRecord: %w", err)
	}
	d.recorder.Store(&recorder{dir: sub})
	return nil
}

// Recording returns the folder the device records its launches into,
// "" when it records none.
func (d *Device) Recording() string {
	if d == nil {
		return ""
	}
	if r := d.recorder.Load(); r != nil {
		return r.dir
	}
	return ""
}

// recordFromEnv has a device that opened record its launches where
// XPU_RECORD says; a folder it cannot make fails the open.
func recordFromEnv(d *Device, err error) (*Device, error) {
	dir := os.Getenv(RecordEnv)
	if err != nil || dir == "" {
		return d, err
	}
	if err := d.SetRecord(dir); err != nil {
		d.Close()
		return nil, fmt.Errorf("gpu: %s=%s: %w", RecordEnv, dir, err)
	}
	return d, nil
}

// launch runs l on s as traceLaunch does, and writes it to the
// recorder's folder: the buffers are read before and after it. What a
// launch refuses it refuses here too, and then writes nothing.
func (r *recorder) launch(ctx context.Context, s *Stream, l *launch, args []any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	k, d := l.kernel, s.dev
	s.mu.Lock()
	capturing := s.capture != nil
	s.mu.Unlock()
	if capturing || k.launchable() != nil || len(args) != len(k.spec.Params) {
		// A captured launch does not run: it is recorded when its
		// graph is replayed, launch by launch (Graph.Replay).
		return s.traceLaunch(ctx, l, args)
	}
	ctx, cancel := d.bound(ctx)
	defer cancel()
	h := launchfile.Header{Kernel: k.spec.Name, Device: d.TraceName(), Stream: s.id, Block: dim(k.spec.Block.Norm())}
	var payload []byte
	states := make([]*bufferState, len(args))
	for i := range k.spec.Params {
		p := &k.spec.Params[i]
		lp := launchfile.Param{Name: p.Name, Type: p.Type.String()}
		if p.Kind == schema.ParamScalar {
			var word [4]byte
			if putScalar(word[:], args[i], p) != nil {
				return s.traceLaunch(ctx, l, args)
			}
			lp.Scalar, lp.Bits = true, binary.LittleEndian.Uint32(word[:])
			h.Params = append(h.Params, lp)
			continue
		}
		st, err := bufferOf(args[i], p)
		if err != nil || st.dev != d {
			return s.traceLaunch(ctx, l, args)
		}
		states[i] = st
		lp.Size, lp.Access, lp.Len = p.Size, p.Access.String(), st.bytes/p.Size
		if payload, lp.In, err = appendContents(ctx, payload, st); err != nil {
			return fmt.Errorf("gpu: kernel %s: recording parameter %s before the launch: %w", k.spec.Name, p.Name, err)
		}
		h.Params = append(h.Params, lp)
	}
	if err := s.traceLaunch(ctx, l, args); err != nil {
		return err
	}
	for i, st := range states {
		if st == nil || !written(&k.spec.Params[i]) {
			continue
		}
		var err error
		if payload, h.Params[i].Out, err = appendContents(ctx, payload, st); err != nil {
			return fmt.Errorf("gpu: kernel %s: recording parameter %s after the launch: %w", k.spec.Name, k.spec.Params[i].Name, err)
		}
	}
	h.Backend, h.Target, h.Hash, h.Codegen = string(l.art.Backend), string(l.art.Target), l.art.Hash, l.art.Codegen
	h.Grid, h.Wave = dim(l.grid), d.referenceWave(k, l.art)
	r.n++
	h.Index = r.n
	if err := r.write(&h, payload); err != nil {
		return fmt.Errorf("gpu: kernel %s: the launch ran and its record was not written: %w", k.spec.Name, err)
	}
	return nil
}

// referenceWave is the wave width at which the reference runs k as d
// runs it (see [Device.Reference]): 0 where that is the kernel's
// declared width.
func (d *Device) referenceWave(k *Kernel, a *schema.Artifact) uint32 {
	c, err := d.waveChoice(k, a)
	if err != nil || c.Width == 0 {
		return d.info.Limits.SubgroupMax
	}
	return c.Width
}

// appendContents appends the contents of st, read after the work
// recorded so far on the device, to payload and returns where they lie.
func appendContents(ctx context.Context, payload []byte, st *bufferState) ([]byte, *launchfile.Range, error) {
	at := &launchfile.Range{Offset: len(payload), Bytes: st.bytes}
	payload = slices.Grow(payload, st.bytes)[:at.Offset+st.bytes]
	dst := payload[at.Offset:]
	err := st.access(ctx, afterCompleted, "record", func(drv driver.Buffer, offset int) error {
		return drv.Read(ctx, offset, dst)
	})
	return payload, at, err
}

// write writes h and payload to the launch's file in r's folder.
func (r *recorder) write(h *launchfile.Header, payload []byte) error {
	f, err := os.Create(filepath.Join(r.dir, fmt.Sprintf("%06d%s", h.Index, launchfile.Ext)))
	if err != nil {
		return err
	}
	if err := launchfile.Write(f, h, payload); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
