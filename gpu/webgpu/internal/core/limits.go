package core

// This file reads and raises WebGPU limits by their names, whatever
// structure a binding keeps them in.

import (
	"math"
	"reflect"
	"strings"

	"github.com/goxpu/xpu"
	"github.com/goxpu/xpu/gpu/driver"
)

// ComputeLimits are the limits a driver requests at its adapter's values,
// by their names in the WebGPU API; the others stay at WebGPU's defaults
// (asking for every adapter limit fails on some devices).
var ComputeLimits = []string{
	"maxComputeWorkgroupStorageSize",
	"maxComputeInvocationsPerWorkgroup",
	"maxComputeWorkgroupSizeX",
	"maxComputeWorkgroupSizeY",
	"maxComputeWorkgroupSizeZ",
	"maxComputeWorkgroupsPerDimension",
	"maxStorageBuffersPerShaderStage",
	"maxStorageBufferBindingSize",
	"maxBufferSize",
}

// LimitsOf returns a device's compute limits from get, which returns a
// WebGPU limit by its name (0 when absent), and its subgroup sizes.
func LimitsOf(get func(name string) uint64, subgroupMin, subgroupMax uint32) driver.Limits {
	u32 := func(name string) uint32 { return uint32(min(get(name), math.MaxUint32)) }
	return driver.Limits{
		MaxInvocationsPerBlock: u32("maxComputeInvocationsPerWorkgroup"),
		MaxBlockSize:           xpu.Dim3{X: u32("maxComputeWorkgroupSizeX"), Y: u32("maxComputeWorkgroupSizeY"), Z: u32("maxComputeWorkgroupSizeZ")},
		MaxGroups:              u32("maxComputeWorkgroupsPerDimension"),
		MaxSharedBytes:         u32("maxComputeWorkgroupStorageSize"),
		MaxStorageBuffers:      u32("maxStorageBuffersPerShaderStage"),
		MaxStorageBufferBytes:  get("maxStorageBufferBindingSize"),
		MaxBufferBytes:         get("maxBufferSize"),
		MaxUniformBytes:        u32("maxUniformBufferBindingSize"),
		StorageOffsetAlignment: u32("minStorageBufferOffsetAlignment"),
		UniformOffsetAlignment: u32("minUniformBufferOffsetAlignment"),
		SubgroupMin:            subgroupMin,
		SubgroupMax:            subgroupMax,
	}
}

// Fields returns the getter, for LimitsOf, of the limits in *s: a struct
// whose unsigned integer fields are named as WebGPU's limits, the case of
// the first letter aside.
func Fields(s any) func(name string) uint64 {
	v := reflect.ValueOf(s).Elem()
	return func(name string) uint64 {
		if f := field(v, name); f.IsValid() {
			return f.Uint()
		}
		return 0
	}
}

// RaiseCompute sets the ComputeLimits fields of *dst, a struct as Fields
// takes with exported fields, to those of *src.
func RaiseCompute(dst, src any) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for _, name := range ComputeLimits {
		if df, sf := field(d, name), field(s, name); df.CanSet() && sf.IsValid() {
			df.SetUint(sf.Uint())
		}
	}
}

// field returns the unsigned field of v named name, the case of its first
// letter aside, or the zero Value.
func field(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(strings.ToUpper(name[:1]) + name[1:])
	if !f.IsValid() {
		f = v.FieldByName(name)
	}
	switch f.Kind() {
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uint, reflect.Uintptr:
		return f
	}
	return reflect.Value{}
}
