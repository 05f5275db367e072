//go:build !linux

package devtools

import "syscall"

// procAttr has nothing to add where the kernel cannot end a child with
// its parent.
func procAttr() *syscall.SysProcAttr { return nil }
