// Package k is the package of the module the emit tests write
// (module.golden): TestFileBuilds builds it with that file.
package k

// Particle is the struct the module's kernel Step reads.
type Particle struct {
	X    float32
	Hits uint32
}
