package core

// This file implements reads through a map-read staging buffer.

import (
	"context"
	"fmt"
)

// keepStaging is the largest staging buffer kept between reads.
const keepStaging = 16 << 20

// readback copies len(dst) bytes of src at offset into dst, and returns
// the errors the device reported meanwhile.
func (d *Device) readback(ctx context.Context, src Buffer, offset int, dst []byte) error {
	if err := d.loss(); err != nil {
		return err
	}
	n := (len(dst) + 3) &^ 3
	d.readMu.Lock()
	defer d.readMu.Unlock()
	staging, err := d.stagingFor(n)
	if err != nil {
		return err
	}
	if n > keepStaging {
		defer staging.Release()
	}
	err = d.wait(ctx, func(ctx context.Context) error {
		return d.api.ReadBuffer(ctx, src, offset, staging, n, dst)
	})
	if err != nil {
		return fmt.Errorf("%s: read back: %w", d.name, err)
	}
	return nil
}

// stagingFor returns a map-read buffer of at least n bytes: the device's
// own, grown as needed, or a new one when n exceeds keepStaging. The
// caller holds d.readMu.
func (d *Device) stagingFor(n int) (Buffer, error) {
	if n <= d.stagingSize {
		return d.staging, nil
	}
	size := n
	if n <= keepStaging {
		size = 64 << 10
		for size < n {
			size *= 2
		}
	}
	b, err := d.api.CreateBuffer(UsageMapRead|UsageCopyDst, size)
	if err != nil {
		return nil, fmt.Errorf("%s: staging buffer: %w", d.name, err)
	}
	if n > keepStaging {
		return b, nil
	}
	if d.staging != nil {
		d.staging.Release()
	}
	d.staging, d.stagingSize = b, size
	return b, nil
}
