package codegen

import (
	"github.com/goxpu/xpu/codegen/emit"
	"github.com/goxpu/xpu/codegen/frontend"
	"github.com/goxpu/xpu/codegen/ir"
)

// load loads the kernel package in dir with the front end, tolerating the
// type errors that the generated file it is about to write will resolve.
func load(dir string) (*ir.Module, error) {
	return frontend.Load(dir, frontend.Generated{Files: emit.GeneratedFiles, Declares: emit.Declares})
}
