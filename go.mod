module github.com/goxpu/xpu

go 1.26.0

require (
	github.com/cogentcore/webgpu v0.23.0
	github.com/ebitengine/purego v0.11.3
	github.com/klauspost/cpuid/v2 v2.4.2
	github.com/vmihailenco/msgpack/v5 v5.4.1
	golang.org/x/tools v0.52.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
