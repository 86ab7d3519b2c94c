//go:build linux

package engine

import (
	"os"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// fdTimer is a waker on a timerfd read through Go's netpoller: the timer expiring makes the fd
// readable, which wakes the runtime's epoll_wait at once, whatever its millisecond timeout.
type fdTimer struct {
	f    *os.File
	rc   syscall.RawConn // f's, to read it raw
	fd   int
	ch   chan struct{}
	done chan struct{}
}

// newWaker returns a timerfd waker, or a time.Timer one when no timerfd can be had (an old
// kernel, a seccomp filter, no fds left): coarser, still correct.
func newWaker() waker {
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return newGoTimer()
	}
	// A non-blocking fd given to os.NewFile is registered with the netpoller, so a Read parks
	// the goroutine instead of blocking a thread.
	f := os.NewFile(uintptr(fd), "timerfd")
	rc, err := f.SyscallConn()
	if err != nil {
		_ = f.Close()
		return newGoTimer()
	}
	t := &fdTimer{f: f, rc: rc, fd: fd, ch: make(chan struct{}, 1), done: make(chan struct{})}
	go t.loop()
	return t
}

// loop turns expirations into channel sends until the fd is closed. The timerfd is read with
// a raw system call (rawconn_linux.go says why: the runtime's monitor sleeps on), waiting on
// the netpoller until it fires.
func (t *fdTimer) loop() {
	defer close(t.done)
	var buf [8]byte // the number of expirations, which we do not need
	var failed syscall.Errno
	read := func(fd uintptr) bool {
		_, e := rawRead(fd, buf[:])
		if e == syscall.EAGAIN {
			return false // not yet fired: wait on the netpoller
		}
		failed = e
		return true
	}
	for {
		if err := t.rc.Read(read); err != nil {
			return // closed: Stop
		}
		if failed != 0 {
			// Cannot happen for a timerfd we own; do not spin on it either way.
			failed = 0
			time.Sleep(time.Millisecond)
			continue
		}
		t.fire()
	}
}

// fire wakes the scheduler, unless a wake-up is already waiting for it.
func (t *fdTimer) fire() {
	select {
	case t.ch <- struct{}{}:
	default:
	}
}

func (t *fdTimer) C() <-chan struct{} { return t.ch }

// Reset arms the timer to fire once in d. timerfd_settime is a raw system call too: it never
// blocks.
func (t *fdTimer) Reset(d time.Duration) {
	if d <= 0 {
		d = 1 // a zero it_value would disarm the timer instead of firing it
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	_, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(t.fd), 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
	if e != 0 {
		// Only on a closed or invalid fd: fire now so the scheduler never sleeps forever.
		t.fire()
	}
}

func (t *fdTimer) Stop() {
	_ = t.f.Close()
	<-t.done
}
