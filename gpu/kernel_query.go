package gpu

// This file answers questions about one kernel on one device before any
// launch of it: whether it can run there, and at which wave tier and
// width. The kernel is named by its handle, never by a string.

import "fmt"

// KernelAvailable reports whether k can be launched on d: whether d's
// backend holds code for it and whether it fits the device (threads and
// block size, shared memory, storage bindings, uniform bytes, wave
// width). When it cannot, the error says why and wraps the reason's
// sentinel ([ErrRefused], [ErrNoCode], [ErrLimits], [ErrWaveWidth],
// [ErrScalarTwin] or [ErrClosed]).
func (d *Device) KernelAvailable(k *Kernel) (bool, error) {
	if err := d.usable("Device.KernelAvailable"); err != nil {
		return false, err
	}
	if err := k.launchable(); err != nil {
		return false, err
	}
	d.life.RLock()
	defer d.life.RUnlock()
	if d.closed {
		return false, d.errClosed()
	}
	if _, err := d.fits(k); err != nil {
		return false, err
	}
	return true, nil
}

// KernelWave returns the wave tier and width k runs at on d. The error
// wraps [ErrArgs] for a nil kernel, [ErrNoCode] for one without code
// for d, and [ErrWaveWidth] when d cannot supply the kernel's declared
// width.
func (d *Device) KernelWave(k *Kernel) (WaveChoice, error) {
	if err := d.usable("Device.KernelWave"); err != nil {
		return WaveChoice{}, err
	}
	if k == nil {
		return WaveChoice{}, fmt.Errorf("gpu: Device.KernelWave of a nil *gpu.Kernel: %w", ErrArgs)
	}
	a, err := d.artifact(k)
	if err != nil {
		return WaveChoice{}, err
	}
	return d.waveChoice(k, a)
}
