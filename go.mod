module github.com/goxpu/xpu

go 1.26.0

require (
	github.com/cogentcore/webgpu v0.23.0
	github.com/ebitengine/purego v0.11.3
	github.com/gpustack/gguf-parser-go v0.28.1
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/vmihailenco/msgpack/v5 v5.4.1
	golang.org/x/tools v0.52.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/henvic/httpretty v0.1.4 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/smallnest/ringbuffer v0.0.0-20241116012123-461381446e3d // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	golang.org/x/crypto v0.29.0 // indirect
	golang.org/x/exp v0.0.0-20241108190413-2d47ceb2692f // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
