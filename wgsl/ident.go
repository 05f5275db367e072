package wgsl

import "fmt"

// checkIdent reports whether name can be a WGSL identifier: ASCII letters,
// digits and underscores, not starting with a digit or "__", not "_", and
// not a keyword or reserved word.
func checkIdent(name string) error {
	if name == "" {
		return fmt.Errorf("empty identifier")
	}
	if name == "_" || len(name) >= 2 && name[:2] == "__" {
		return fmt.Errorf("identifier %q is reserved", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return fmt.Errorf("identifier %q: character %q not allowed", name, c)
		}
	}
	if reserved[name] {
		return fmt.Errorf("identifier %q is a WGSL keyword or reserved word", name)
	}
	return nil
}

// reserved holds WGSL's keywords and reserved words.
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		// keywords
		"alias", "break", "case", "const", "const_assert", "continue", "continuing",
		"default", "diagnostic", "discard", "else", "enable", "false", "fn", "for", "if",
		"let", "loop", "override", "requires", "return", "struct", "switch", "true", "var",
		"while",
		// reserved words
		"NULL", "Self", "abstract", "active", "alignas", "alignof", "as", "asm",
		"asm_fragment", "async", "attribute", "auto", "await", "become", "binding_array",
		"cast", "catch", "class", "co_await", "co_return", "co_yield", "coherent",
		"column_major", "common", "compile", "compile_fragment", "concept", "const_cast",
		"consteval", "constexpr", "constinit", "crate", "debugger", "decltype", "delete",
		"demote", "demote_to_helper", "do", "dynamic_cast", "enum", "explicit", "export",
		"extends", "extern", "external", "fallthrough", "filter", "final", "finally",
		"friend", "from", "fxgroup", "get", "goto", "groupshared", "highp", "impl",
		"implements", "import", "inline", "instanceof", "interface", "layout", "lowp",
		"macro", "macro_rules", "match", "mediump", "meta", "mod", "module", "move", "mut",
		"mutable", "namespace", "new", "nil", "noexcept", "noinline", "nointerpolation",
		"noperspective", "null", "nullptr", "of", "operator", "package", "packoffset",
		"partition", "pass", "patch", "pixelfragment", "precise", "precision", "premerge",
		"priv", "protected", "pub", "public", "readonly", "ref", "regardless", "register",
		"reinterpret_cast", "require", "resource", "restrict", "self", "set", "shared",
		"sizeof", "smooth", "snorm", "static", "static_assert", "static_cast", "std",
		"subroutine", "super", "target", "template", "this", "thread_local", "throw",
		"trait", "try", "type", "typedef", "typeid", "typename", "typeof", "union",
		"unless", "unorm", "unsafe", "unsized", "use", "using", "varying", "virtual",
		"volatile", "wgsl", "where", "with", "writeonly", "yield",
	} {
		m[w] = true
	}
	return m
}()
