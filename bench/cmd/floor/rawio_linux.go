package main

import (
	"errors"
	"net"
	"syscall"
	"unsafe"
)

// rawIO reads and writes a connection of Go's netpoller with raw system calls, parking on the
// netpoller only when the socket is not ready: no scheduler notice per call (rpcstress's
// engine/rawconn_linux.go does the same, bench/README "Levers kept, first round").
type rawIO struct {
	rc      syscall.RawConn
	buf     []byte
	n       int
	errno   syscall.Errno
	readFn  func(uintptr) bool
	writeFn func(uintptr) bool
}

func newRawIO(c net.Conn) (*rawIO, error) {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil, errors.New("not a TCP connection")
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil, err
	}
	r := &rawIO{rc: rc}
	r.readFn = func(fd uintptr) bool {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&r.buf[0])), uintptr(len(r.buf)))
		if e == syscall.EAGAIN {
			return false
		}
		r.n, r.errno = int(n), e
		return true
	}
	r.writeFn = func(fd uintptr) bool {
		for r.n < len(r.buf) {
			n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&r.buf[r.n])), uintptr(len(r.buf)-r.n))
			if e == syscall.EAGAIN {
				return false
			}
			if e != 0 {
				r.errno = e
				return true
			}
			r.n += int(n)
		}
		return true
	}
	return r, nil
}

func (r *rawIO) read(p []byte) (int, error) {
	r.buf, r.n, r.errno = p, 0, 0
	if err := r.rc.Read(r.readFn); err != nil {
		return 0, err
	}
	if r.errno != 0 {
		return 0, r.errno
	}
	if r.n == 0 {
		return 0, errors.New("connection closed")
	}
	return r.n, nil
}

func (r *rawIO) write(p []byte) error {
	r.buf, r.n, r.errno = p, 0, 0
	if err := r.rc.Write(r.writeFn); err != nil {
		return err
	}
	if r.errno != 0 {
		return r.errno
	}
	return nil
}
