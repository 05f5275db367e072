//go:build noasm || !amd64

package simd

import "testing"

// forEachPath runs f on the one path there is, pure Go.
func forEachPath(t *testing.T, f func(t *testing.T)) { t.Run("go", f) }
