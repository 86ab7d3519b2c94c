//go:build linux

package engine

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// fdTimer is a waker on a timerfd read through Go's netpoller: the timer expiring makes the fd
// readable, which wakes the runtime's epoll_wait at once, whatever its millisecond timeout.
type fdTimer struct {
	f    *os.File
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
	t := &fdTimer{f: os.NewFile(uintptr(fd), "timerfd"), fd: fd, ch: make(chan struct{}, 1), done: make(chan struct{})}
	go t.loop()
	return t
}

// loop turns expirations into channel sends until the fd is closed.
func (t *fdTimer) loop() {
	defer close(t.done)
	var buf [8]byte // the number of expirations, which we do not need
	for {
		if _, err := t.f.Read(buf[:]); err != nil {
			if errors.Is(err, os.ErrClosed) {
				return
			}
			// Cannot happen for a timerfd we own; do not spin on it either way.
			time.Sleep(time.Millisecond)
			continue
		}
		select {
		case t.ch <- struct{}{}:
		default:
		}
	}
}

func (t *fdTimer) C() <-chan struct{} { return t.ch }

func (t *fdTimer) Reset(d time.Duration) {
	if d <= 0 {
		d = 1 // a zero it_value would disarm the timer instead of firing it
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	if err := unix.TimerfdSettime(t.fd, 0, &spec, nil); err != nil {
		// Only on a closed or invalid fd: fire now so the scheduler never sleeps forever.
		select {
		case t.ch <- struct{}{}:
		default:
		}
	}
}

func (t *fdTimer) Stop() {
	_ = t.f.Close()
	<-t.done
}
