package delayline

import "syscall"

// sysProcAttr: its own process group (a terminal's Ctrl-C reaches the
// parent, which then closes the line) and a parent-death signal.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
