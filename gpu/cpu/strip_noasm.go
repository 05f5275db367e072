//go:build noasm || !amd64

package cpu

// dotStrip is the pure-Go strip where no assembly is built.
func dotStrip(s *DotStrip) { dotStripGo(s) }
