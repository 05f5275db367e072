//go:build (linux || darwin) && (amd64 || arm64)

//lint:file-ignore U1000 the structures mirror webgpu.h field by field; unset fields keep the layout.

package dawn

import "unsafe"

// The structures of webgpu.h that the driver passes to the library, with
// their padding spelled out. Sizes are checked by a test against those of
// the ABI. A field the driver never sets is padding or reserved space.

type stringView struct {
	data *byte
	len  uintptr
}

// strlen is WGPU_STRLEN: a NUL-terminated string.
const strlen = ^uintptr(0)

func str(s string) stringView {
	if s == "" {
		return stringView{}
	}
	return stringView{data: unsafe.StringData(s), len: uintptr(len(s))}
}

func (v stringView) String() string {
	if v.data == nil || v.len == 0 {
		return ""
	}
	n := v.len
	if n == strlen {
		n = 0
		for *(*byte)(unsafe.Add(unsafe.Pointer(v.data), n)) != 0 {
			n++
		}
	}
	return string(unsafe.Slice(v.data, n))
}

type chainedStruct struct {
	next  uintptr
	sType uint32
	_     uint32
}

type instanceDescriptor struct {
	next uintptr
	// capabilities (WGPUInstanceCapabilities)
	capNext              uintptr
	timedWaitAnyEnable   uint32
	_                    uint32
	timedWaitAnyMaxCount uintptr
}

type requestAdapterOptions struct {
	next                 uintptr
	featureLevel         uint32
	powerPreference      uint32
	forceFallbackAdapter uint32
	backendType          uint32
	compatibleSurface    uintptr
}

// callbackInfo is every WGPU*CallbackInfo but the uncaptured error one.
type callbackInfo struct {
	next      uintptr
	mode      uint32
	_         uint32
	callback  uintptr
	userdata1 uintptr
	userdata2 uintptr
}

type uncapturedErrorCallbackInfo struct {
	next      uintptr
	callback  uintptr
	userdata1 uintptr
	userdata2 uintptr
}

// loggingCallbackInfo is WGPULoggingCallbackInfo, a Dawn extension's.
type loggingCallbackInfo struct {
	next      uintptr
	callback  uintptr
	userdata1 uintptr
	userdata2 uintptr
}

type adapterInfo struct {
	next            uintptr
	vendor          stringView
	architecture    stringView
	device          stringView
	description     stringView
	backendType     uint32
	adapterType     uint32
	vendorID        uint32
	deviceID        uint32
	subgroupMinSize uint32
	subgroupMaxSize uint32
}

type limits struct {
	next                                      uintptr
	MaxTextureDimension1D                     uint32
	MaxTextureDimension2D                     uint32
	MaxTextureDimension3D                     uint32
	MaxTextureArrayLayers                     uint32
	MaxBindGroups                             uint32
	MaxBindGroupsPlusVertexBuffers            uint32
	MaxBindingsPerBindGroup                   uint32
	MaxDynamicUniformBuffersPerPipelineLayout uint32
	MaxDynamicStorageBuffersPerPipelineLayout uint32
	MaxSampledTexturesPerShaderStage          uint32
	MaxSamplersPerShaderStage                 uint32
	MaxStorageBuffersPerShaderStage           uint32
	MaxStorageTexturesPerShaderStage          uint32
	MaxUniformBuffersPerShaderStage           uint32
	MaxUniformBufferBindingSize               uint64
	MaxStorageBufferBindingSize               uint64
	MinUniformBufferOffsetAlignment           uint32
	MinStorageBufferOffsetAlignment           uint32
	MaxVertexBuffers                          uint32
	_                                         uint32
	MaxBufferSize                             uint64
	MaxVertexAttributes                       uint32
	MaxVertexBufferArrayStride                uint32
	MaxInterStageShaderVariables              uint32
	MaxColorAttachments                       uint32
	MaxColorAttachmentBytesPerSample          uint32
	MaxComputeWorkgroupStorageSize            uint32
	MaxComputeInvocationsPerWorkgroup         uint32
	MaxComputeWorkgroupSizeX                  uint32
	MaxComputeWorkgroupSizeY                  uint32
	MaxComputeWorkgroupSizeZ                  uint32
	MaxComputeWorkgroupsPerDimension          uint32
	MaxImmediateSize                          uint32
}

type supportedFeatures struct {
	count    uintptr
	features *uint32
}

type deviceDescriptor struct {
	next                 uintptr
	label                stringView
	requiredFeatureCount uintptr
	requiredFeatures     *uint32
	requiredLimits       *limits
	queueNext            uintptr
	queueLabel           stringView
	deviceLost           callbackInfo
	uncapturedError      uncapturedErrorCallbackInfo
}

// dawnTogglesDescriptor chains toggles to a device descriptor.
type dawnTogglesDescriptor struct {
	chain         chainedStruct
	enabledCount  uintptr
	enabled       **byte
	disabledCount uintptr
	disabled      **byte
}

type bufferDescriptor struct {
	next             uintptr
	label            stringView
	usage            uint64
	size             uint64
	mappedAtCreation uint32
	_                uint32
}

type shaderSourceWGSL struct {
	chain chainedStruct
	code  stringView
}

type shaderModuleDescriptor struct {
	next  *shaderSourceWGSL
	label stringView
}

// bindGroupLayoutEntry holds a buffer binding; the sampler, texture and
// storage texture layouts that follow it stay zero (not used).
type bindGroupLayoutEntry struct {
	next             uintptr
	binding          uint32
	_                uint32
	visibility       uint64
	bindingArraySize uint32
	_                uint32
	// buffer (WGPUBufferBindingLayout)
	bufferNext       uintptr
	bufferType       uint32
	hasDynamicOffset uint32
	minBindingSize   uint64
	_                [64]byte // sampler, texture, storage texture
}

type bindGroupLayoutDescriptor struct {
	next       uintptr
	label      stringView
	entryCount uintptr
	entries    *bindGroupLayoutEntry
}

type pipelineLayoutDescriptor struct {
	next                 uintptr
	label                stringView
	bindGroupLayoutCount uintptr
	bindGroupLayouts     *uintptr
	immediateSize        uint32
	_                    uint32
}

type computePipelineDescriptor struct {
	next   uintptr
	label  stringView
	layout uintptr
	// compute (WGPUComputeState)
	computeNext   uintptr
	module        uintptr
	entryPoint    stringView
	constantCount uintptr
	constants     uintptr
}

type bindGroupEntry struct {
	next        uintptr
	binding     uint32
	_           uint32
	buffer      uintptr
	offset      uint64
	size        uint64
	sampler     uintptr
	textureView uintptr
}

type bindGroupDescriptor struct {
	next       uintptr
	label      stringView
	layout     uintptr
	entryCount uintptr
	entries    *bindGroupEntry
}

type computePassDescriptor struct {
	next            uintptr
	label           stringView
	timestampWrites *passTimestampWrites
}

type passTimestampWrites struct {
	next       uintptr
	querySet   uintptr
	beginIndex uint32
	endIndex   uint32
}

type querySetDescriptor struct {
	next  uintptr
	label stringView
	typ   uint32
	count uint32
}

type futureWaitInfo struct {
	future    uint64
	completed uint32
	_         uint32
}

// Enumerations and flags.
const (
	sTypeShaderSourceWGSL      = 0x2
	sTypeDawnTogglesDescriptor = 0x0005000A

	backendNull   = 1
	backendVulkan = 6

	featureTimestampQuery = 0x3
	featureShaderF16      = 0xA
	featureSubgroups      = 0x11

	callbackWaitAnyOnly        = 1
	callbackAllowProcessEvents = 2

	statusSuccess = 1 // every *Status enumeration
	waitSuccess   = 1
	waitTimedOut  = 2

	powerHighPerformance = 2

	errorFilterValidation  = 1
	errorFilterOutOfMemory = 2
	errorFilterInternal    = 3
	errorTypeNoError       = 1

	bufferUsageMapRead      = 0x1
	bufferUsageCopySrc      = 0x4
	bufferUsageCopyDst      = 0x8
	bufferUsageUniform      = 0x40
	bufferUsageStorage      = 0x80
	bufferUsageQueryResolve = 0x200
	mapModeRead             = 0x1

	bufferBindingUniform         = 2
	bufferBindingStorage         = 3
	bufferBindingReadOnlyStorage = 4
	shaderStageCompute           = 0x4

	queryTypeTimestamp = 2
	wholeSize          = ^uint64(0)
	limitU32Undefined  = ^uint32(0)
	limitU64Undefined  = ^uint64(0)
)

// Names of enumerations, for Info and errors.
var (
	backendNames = map[uint32]string{1: "null", 2: "webgpu", 3: "d3d11", 4: "d3d12", 5: "metal", 6: "vulkan", 7: "opengl", 8: "opengles"}
	adapterTypes = map[uint32]string{1: "discrete-gpu", 2: "integrated-gpu", 3: "cpu", 4: "unknown"}
	errorTypes   = map[uint32]string{1: "no error", 2: "validation error", 3: "out of memory", 4: "internal error", 5: "unknown error"}
	lostReasons  = map[uint32]string{1: "unknown", 2: "destroyed", 3: "instance dropped", 4: "failed creation"}
	featureNames = map[uint32]string{featureTimestampQuery: "timestamp-query", featureShaderF16: "shader-f16", featureSubgroups: "subgroups"}
)
