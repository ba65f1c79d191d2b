//go:build !linux

package delayline

import "syscall"

// sysProcAttr: its own process group; without a parent-death signal the
// end of its input ends the line.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
