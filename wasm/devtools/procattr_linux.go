package devtools

import "syscall"

// procAttr makes the kernel end the browser when the process that
// launched it dies without closing it (a test binary killed on timeout).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
