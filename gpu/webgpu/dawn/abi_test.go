//go:build (linux || darwin) && (amd64 || arm64)

package dawn

import (
	"testing"
	"unsafe"
)

// TestABISizes checks the structures against the sizes of Dawn's webgpu.h.
func TestABISizes(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"StringView", unsafe.Sizeof(stringView{}), 16},
		{"ChainedStruct", unsafe.Sizeof(chainedStruct{}), 16},
		{"InstanceDescriptor", unsafe.Sizeof(instanceDescriptor{}), 32},
		{"RequestAdapterOptions", unsafe.Sizeof(requestAdapterOptions{}), 32},
		{"CallbackInfo", unsafe.Sizeof(callbackInfo{}), 40},
		{"UncapturedErrorCallbackInfo", unsafe.Sizeof(uncapturedErrorCallbackInfo{}), 32},
		{"LoggingCallbackInfo", unsafe.Sizeof(loggingCallbackInfo{}), 32},
		{"AdapterInfo", unsafe.Sizeof(adapterInfo{}), 96},
		{"AdapterInfo.backendType", unsafe.Offsetof(adapterInfo{}.backendType), 72},
		{"AdapterInfo.subgroupMinSize", unsafe.Offsetof(adapterInfo{}.subgroupMinSize), 88},
		{"Limits", unsafe.Sizeof(limits{}), 152},
		{"Limits.MaxBufferSize", unsafe.Offsetof(limits{}.MaxBufferSize), 96},
		{"Limits.MaxImmediateSize", unsafe.Offsetof(limits{}.MaxImmediateSize), 148},
		{"SupportedFeatures", unsafe.Sizeof(supportedFeatures{}), 16},
		{"DeviceDescriptor", unsafe.Sizeof(deviceDescriptor{}), 144},
		{"DeviceDescriptor.deviceLost", unsafe.Offsetof(deviceDescriptor{}.deviceLost), 72},
		{"DeviceDescriptor.uncapturedError", unsafe.Offsetof(deviceDescriptor{}.uncapturedError), 112},
		{"BufferDescriptor", unsafe.Sizeof(bufferDescriptor{}), 48},
		{"ShaderSourceWGSL", unsafe.Sizeof(shaderSourceWGSL{}), 32},
		{"ShaderModuleDescriptor", unsafe.Sizeof(shaderModuleDescriptor{}), 24},
		{"ComputePipelineDescriptor", unsafe.Sizeof(computePipelineDescriptor{}), 80},
		{"BindGroupEntry", unsafe.Sizeof(bindGroupEntry{}), 56},
		{"BindGroupDescriptor", unsafe.Sizeof(bindGroupDescriptor{}), 48},
		{"FutureWaitInfo", unsafe.Sizeof(futureWaitInfo{}), 16},
		{"ComputePassDescriptor", unsafe.Sizeof(computePassDescriptor{}), 32},
		{"PassTimestampWrites", unsafe.Sizeof(passTimestampWrites{}), 24},
		{"QuerySetDescriptor", unsafe.Sizeof(querySetDescriptor{}), 32},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, c.got, c.want)
		}
	}
}
