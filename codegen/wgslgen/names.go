package wgslgen

import (
	"fmt"
	"strings"
)

// The prefixes of mangled kernel names, one per kind. A prefix ending in
// '_' keeps every mangled name clear of WGSL's keywords, reserved words
// and builtins, and of the names the lowering introduces (xpu_...).
const (
	prefixBuffer  = "b_"
	prefixShared  = "s_"
	prefixVar     = "v_"
	prefixParam   = "a_"
	prefixFunc    = "f_"
	prefixStruct  = "S_"
	prefixField   = "m_"
	prefixUniform = "p_"
)

// mangle returns the WGSL name of the kernel name name of a kind: the
// prefix, then name with every character outside [A-Za-z0-9_] spelled as
// _uXXXX_ (Go allows Unicode letters, this package's output does not).
func mangle(prefix, name string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, r := range name {
		switch {
		case r == '_', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "_u%04x_", r)
		}
	}
	return b.String()
}
