//go:build linux

package engine

import (
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// rawConn is a TCP connection whose reads and writes are raw system calls on its non-blocking
// socket, waiting on Go's netpoller (syscall.RawConn) when the socket is not ready, exactly as
// net.TCPConn does. The one difference is what the runtime does around a call: net.TCPConn's
// read and write tell the scheduler a system call begins and ends, and the first such call
// after the process went idle wakes the runtime's system monitor, which then polls every
// 20 µs until the process is idle again (bench/README, "The cost of a wake-up": the futex and
// nanosleep columns, a thread woken and put to sleep on every tick of the schedule). A read or
// write of a non-blocking socket never blocks, so it needs none of that: raw, the monitor
// sleeps on. Deadlines, closing and the errors a caller sees are net.TCPConn's.
type rawConn struct {
	net.Conn // the *net.TCPConn: addresses, deadlines, Close
	rc       syscall.RawConn

	rmu     sync.Mutex // one read at a time: rbuf, rn and rerr are the read in progress
	rbuf    []byte
	rn      int
	rerr    syscall.Errno
	readFn  func(fd uintptr) bool // r.read, made once: a method value per call would allocate
	wmu     sync.Mutex
	wbuf    []byte
	wn      int
	werr    syscall.Errno
	writeFn func(fd uintptr) bool
}

// RawTCP wraps a TCP connection as a rawConn; any other connection (a test's in-memory one)
// is returned as it is. It is exported for bench/cmd/floor, which measures this design
// without the rest of rpcstress.
func RawTCP(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	r := &rawConn{Conn: tc, rc: rc}
	r.readFn, r.writeFn = r.read, r.write
	return r
}

// read is one attempt to read into rbuf; false when nothing is there yet (wait and retry).
func (r *rawConn) read(fd uintptr) bool {
	n, e := rawRead(fd, r.rbuf)
	if e == syscall.EAGAIN {
		return false
	}
	r.rn, r.rerr = n, e
	return true
}

// rawRead reads fd into p with a raw system call, again when a signal interrupted it; EAGAIN
// says nothing is there yet. The send tick's timerfd is read with it too (waker_linux.go).
func rawRead(fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		if e != syscall.EINTR {
			return int(n), e
		}
	}
}

// write writes what is left of wbuf; false when the socket's buffer is full (wait and retry).
func (r *rawConn) write(fd uintptr) bool {
	for r.wn < len(r.wbuf) {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&r.wbuf[r.wn])), uintptr(len(r.wbuf)-r.wn))
		switch e {
		case 0:
			r.wn += int(n)
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return false
		default:
			r.werr = e
			return true
		}
	}
	return true
}

func (r *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.rmu.Lock()
	defer r.rmu.Unlock()
	r.rbuf, r.rn, r.rerr = p, 0, 0
	err := r.rc.Read(r.readFn)
	n, errno := r.rn, r.rerr
	r.rbuf = nil // keep no caller's buffer
	switch {
	case err != nil:
		return 0, r.opError("read", err)
	case errno != 0:
		return 0, r.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (r *rawConn) Write(p []byte) (int, error) {
	r.wmu.Lock()
	defer r.wmu.Unlock()
	r.wbuf, r.wn, r.werr = p, 0, 0
	err := r.rc.Write(r.writeFn)
	n, errno := r.wn, r.werr
	r.wbuf = nil
	switch {
	case err != nil:
		return n, r.opError("write", err)
	case errno != 0:
		return n, r.opError("write", os.NewSyscallError("write", errno))
	}
	return n, nil
}

// opError is err as net.TCPConn reports it: a *net.OpError naming the operation and the
// addresses, around the cause (a deadline, a closed connection, an errno). RawConn's own
// errors are already OpErrors ("raw-read"): their cause is kept, under this operation.
func (r *rawConn) opError(op string, err error) error {
	if oe, ok := err.(*net.OpError); ok {
		err = oe.Err
	}
	return &net.OpError{Op: op, Net: "tcp", Source: r.LocalAddr(), Addr: r.RemoteAddr(), Err: err}
}
