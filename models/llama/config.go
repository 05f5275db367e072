package llama

import (
	"fmt"

	"github.com/goxpu/xpu/gpu"
)

// A Config is a layer's sizes and constants.
type Config struct {
	Dim     int     // the model's width: the token's vector
	Heads   int     // query heads; Dim is a multiple of them
	KVHeads int     // key and value heads; Heads is a multiple of them
	Hidden  int     // the MLP's width
	Ctx     int     // the positions the KV cache holds
	Eps     float32 // the norms' epsilon
	Theta   float32 // RoPE's base
}

// HeadDim returns the dimension of a head.
func (c Config) HeadDim() int { return c.Dim / c.Heads }

// KVDim returns the width of a position's keys (and values).
func (c Config) KVDim() int { return c.KVHeads * c.HeadDim() }

// check returns what is wrong with c, naming the rule.
func (c Config) check() error {
	switch {
	case c.Dim < 1 || c.Heads < 1 || c.KVHeads < 1 || c.Hidden < 1 || c.Ctx < 1:
		return fmt.Errorf("llama: config %+v: every size is at least 1: %w", c, gpu.ErrSize)
	case c.Dim%c.Heads != 0 || c.Heads%c.KVHeads != 0:
		return fmt.Errorf("llama: config %+v: Dim is a multiple of Heads, Heads of KVHeads: %w", c, gpu.ErrSize)
	case c.HeadDim()%2 != 0:
		return fmt.Errorf("llama: config %+v: RoPE turns pairs, so a head's dimension, %d, is even: %w", c, c.HeadDim(), gpu.ErrSize)
	case c.Theta <= 0 || c.Eps < 0:
		return fmt.Errorf("llama: config %+v: Theta is positive and Eps not negative: %w", c, gpu.ErrSize)
	}
	return nil
}
