//go:build noasm || !amd64

package simd

// pathNames is the one path there is, pure Go.
func pathNames() []string { return []string{"go"} }

// usePath has nothing to switch.
func usePath(string) (restore func()) { return func() {} }
