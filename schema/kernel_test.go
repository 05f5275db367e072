package schema

import (
	"reflect"
	"testing"

	"github.com/goxpu/xpu"
)

// TestCompleteManifests checks that the kernel's facts reach every
// manifest, that the facts of the code stay each artifact's, and that no
// two manifests share their buffers or length bounds.
func TestCompleteManifests(t *testing.T) {
	k := &Kernel{
		Name: "example.com/k.Step", Codegen: "xpu-gen/1", Block: xpu.Dim3{X: 64, Y: 2, Z: 1}, Wave: 32, WaveOps: true,
		Params: []Param{
			{Name: "out", Kind: ParamBuffer, Access: AccessWrite, MinLen: []string{"n", "n"}, Binding: 0},
			{Name: "n", Kind: ParamScalar, Binding: 0},
			{Name: "in", Kind: ParamBuffer, Access: AccessRead, Binding: 1},
		},
		SharedBytes: 256, UniformSize: 16,
		Artifacts: []Artifact{
			{Manifest: Manifest{Backend: BackendWebGPU, Target: TargetWGSL, Hash: "sha256:a", WaveTier: TierNative, Fault: true}},
			{Manifest: Manifest{Backend: BackendCPU, Target: TargetGo, Hash: "sha256:b", WaveTier: TierEmulated,
				Kernel: "stale", Buffers: []Usage{{Name: "stale"}}}},
		},
	}
	k.CompleteManifests()
	for i, want := range []Manifest{
		{Kernel: k.Name, Backend: BackendWebGPU, Target: TargetWGSL, Hash: "sha256:a", Codegen: "xpu-gen/1",
			Block: k.Block, SharedBytes: 256, StorageBindings: 2, UniformBytes: 16,
			Buffers: []Usage{{Name: "out", Access: AccessWrite, MinLen: []string{"n", "n"}}, {Name: "in", Access: AccessRead}},
			Wave:    32, WaveOps: true, WaveTier: TierNative, Fault: true},
		{Kernel: k.Name, Backend: BackendCPU, Target: TargetGo, Hash: "sha256:b", Codegen: "xpu-gen/1",
			Block: k.Block, SharedBytes: 256, StorageBindings: 2, UniformBytes: 16,
			Buffers: []Usage{{Name: "out", Access: AccessWrite, MinLen: []string{"n", "n"}}, {Name: "in", Access: AccessRead}},
			Wave:    32, WaveOps: true, WaveTier: TierEmulated},
	} {
		if got := k.Artifacts[i].Manifest; !reflect.DeepEqual(got, want) {
			t.Errorf("manifest %d:\n got %+v\nwant %+v", i, got, want)
		}
	}
	k.Artifacts[0].Buffers[0].Name = "changed"
	if k.Artifacts[1].Buffers[0].Name != "out" {
		t.Error("two manifests share their buffers")
	}
	k.Artifacts[0].Buffers[0].MinLen[0] = "changed"
	if k.Artifacts[1].Buffers[0].MinLen[0] != "n" || k.Params[0].MinLen[0] != "n" {
		t.Error("a manifest shares its length bound")
	}
}
