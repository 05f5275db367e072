//go:build !race

package gpu_test

const underRace = false
