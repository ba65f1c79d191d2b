package delayline

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// The loop's own system calls on its non-blocking descriptors, made
// without telling the Go runtime (RawSyscall): none of them blocks but
// the wait for events, bounded (see Line.wait), and the runtime's
// bookkeeping around a syscall it is told of (handing the processor off
// when one lasts, sysmon waking every 20 µs to check) cost more than the
// calls themselves. While the loop waits, the other goroutines (the
// control reader) run on another processor; should the runtime preempt
// the loop (a signal), the wait ends with EINTR.

func rawRead(fd int, b []byte) (int, unix.Errno) {
	n, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(n), e
}

func rawWrite(fd int, b []byte) (int, unix.Errno) {
	n, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(n), e
}

func rawEpollWait(ep int, events []unix.EpollEvent, msec int) (int, unix.Errno) {
	n, _, e := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT, uintptr(ep), uintptr(unsafe.Pointer(unsafe.SliceData(events))), uintptr(len(events)), uintptr(msec), 0, 0)
	return int(n), e
}
