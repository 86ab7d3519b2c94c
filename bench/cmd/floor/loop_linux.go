package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"syscall"
	"time"
	"unsafe"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fastjson"
)

// conn is one keep-alive connection and the request it has out, if any.
type conn struct {
	fd     int
	busy   bool
	intent int64 // the request's intended time, ns since the start (monotonic)
	got    []byte
}

// loop is the whole tester: one goroutine, raw system calls only.
type loop struct {
	o     options
	req   []byte
	conns []conn
	free  []int
	ep    int // epoll of the sockets and the timerfd (eager)
	tfd   int
	buf   []byte
	oob   []byte
	start time.Time
	// wall is the kernel's receive clock (CLOCK_REALTIME) at start, for lazy's timestamps.
	wall int64

	// -work: what rpcstress does with each answer.
	resp   fasthttp.Response
	br     *bufio.Reader
	brSrc  *bytes.Reader
	parser fastjson.Parser
	hist   *hdr.Histogram

	res    result
	latSum int64
	// the even schedule, ns since start: next is the first send not yet out, released the time
	// up to which sends are due (the last tick's: like rpcstress, nothing goes out before its tick)
	next, released, interval, end int64
}

const soTimestampNS = 35 // SO_TIMESTAMPNS, SCM_TIMESTAMPNS

func newLoop(o options, req []byte) (*loop, error) {
	ap, err := net.ResolveTCPAddr("tcp4", o.addr)
	if err != nil {
		return nil, fmt.Errorf("-addr: %w", err)
	}
	sa := &syscall.SockaddrInet4{Port: ap.Port}
	copy(sa.Addr[:], ap.IP.To4())
	l := &loop{o: o, req: req, buf: make([]byte, 64<<10), oob: make([]byte, 128), ep: -1, tfd: -1}
	if l.ep, err = syscall.EpollCreate1(syscall.EPOLL_CLOEXEC); err != nil {
		return nil, fmt.Errorf("epoll: %w", err)
	}
	for i := 0; i < o.conns; i++ {
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			l.close()
			return nil, fmt.Errorf("socket: %w", err)
		}
		l.conns = append(l.conns, conn{fd: fd})
		if err := syscall.Connect(fd, sa); err != nil { // blocking: before the run starts
			l.close()
			return nil, fmt.Errorf("connect %s: %w", o.addr, err)
		}
		_ = syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
		if o.mode == "lazy" {
			_ = syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, soTimestampNS, 1)
		}
		if err := syscall.SetNonblock(fd, true); err != nil {
			l.close()
			return nil, err
		}
		// Lazy's epoll holds the timerfd alone: an answer must not wake it.
		if o.mode != "lazy" {
			if err := syscall.EpollCtl(l.ep, syscall.EPOLL_CTL_ADD, fd, &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(i)}); err != nil {
				l.close()
				return nil, err
			}
		}
		l.free = append(l.free, i)
	}
	tfd, _, e := syscall.RawSyscall(syscall.SYS_TIMERFD_CREATE, 1 /* CLOCK_MONOTONIC */, syscall.O_CLOEXEC, 0)
	if e != 0 {
		l.close()
		return nil, fmt.Errorf("timerfd: %w", e)
	}
	l.tfd = int(tfd)
	if err := syscall.EpollCtl(l.ep, syscall.EPOLL_CTL_ADD, l.tfd, &syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: -1}); err != nil {
		l.close()
		return nil, err
	}
	if o.work {
		l.br, l.brSrc = newReader()
		l.hist = hdr.New(1, 60_000_000, 3)
		l.res.latency = l.hist
	}
	return l, nil
}

func (l *loop) close() {
	for _, c := range l.conns {
		syscall.Close(c.fd)
	}
	if l.ep >= 0 {
		syscall.Close(l.ep)
	}
	if l.tfd >= 0 {
		syscall.Close(l.tfd)
	}
}

func (l *loop) run(ctx context.Context) (result, error) {
	tick := int64(l.o.tick)
	its := [4]int64{0, tick, 0, tick} // struct itimerspec: every tick, from one tick on
	if _, _, e := syscall.RawSyscall6(syscall.SYS_TIMERFD_SETTIME, uintptr(l.tfd), 0, uintptr(unsafe.Pointer(&its[0])), 0, 0, 0); e != 0 {
		return result{}, fmt.Errorf("timerfd_settime: %w", e)
	}
	var ts syscall.Timespec
	syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, 0 /* CLOCK_REALTIME */, uintptr(unsafe.Pointer(&ts)), 0)
	l.start, l.wall = time.Now(), ts.Nano()
	l.interval, l.end = int64(time.Second)/int64(l.o.rate), int64(l.o.dur)
	events := make([]syscall.EpollEvent, 256)
	for ctx.Err() == nil {
		// Wait for the tick; eager reads answers while it waits, lazy reads them after.
		ticked := false
		for !ticked {
			n, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(l.ep), uintptr(unsafe.Pointer(&events[0])),
				uintptr(len(events)), ^uintptr(0), 0, 0)
			if e != 0 {
				continue // EINTR
			}
			for _, ev := range events[:n] {
				if ev.Fd == -1 {
					var x [8]byte
					syscall.RawSyscall(syscall.SYS_READ, uintptr(l.tfd), uintptr(unsafe.Pointer(&x[0])), 8)
					ticked = true
				} else if l.o.mode != "lazy" {
					l.read(int(ev.Fd), false)
				}
			}
		}
		now := int64(time.Since(l.start))
		if l.o.mode == "lazy" {
			// Every connection with a request out is read, answered or not: at the floor's
			// rates nearly all are. A real loop would ask an epoll of its own (timeout 0),
			// so that slow answers cost no read per tick.
			for i := range l.conns {
				if l.conns[i].busy {
					l.read(i, true)
				}
			}
		}
		if l.o.mode != "closed" {
			l.released = now
			l.sendDue()
		} else if l.next == 0 { // the first tick: every connection starts
			for l.send(now) {
			}
			l.next = l.end
		}
		if l.next >= l.end && len(l.free) == len(l.conns) || now > l.end+int64(5*time.Second) {
			break
		}
	}
	l.res.elapsed = time.Since(l.start)
	if l.res.answered > 0 {
		l.res.meanLatency = time.Duration(l.latSum / l.res.answered)
	}
	return l.res, nil
}

// read takes what connection i has received; an answer complete ends its request.
func (l *loop) read(i int, stamped bool) {
	c := &l.conns[i]
	var n uintptr
	var e syscall.Errno
	at := int64(-1)
	if stamped {
		iov := syscall.Iovec{Base: &l.buf[0]}
		iov.SetLen(len(l.buf))
		msg := syscall.Msghdr{Iov: &iov, Iovlen: 1, Control: &l.oob[0]}
		msg.SetControllen(len(l.oob))
		n, _, e = syscall.RawSyscall(syscall.SYS_RECVMSG, uintptr(c.fd), uintptr(unsafe.Pointer(&msg)), syscall.MSG_DONTWAIT)
		if e == 0 && msg.Controllen >= syscall.SizeofCmsghdr+16 {
			h := (*syscall.Cmsghdr)(unsafe.Pointer(&l.oob[0]))
			if h.Level == syscall.SOL_SOCKET && h.Type == soTimestampNS {
				t := (*syscall.Timespec)(unsafe.Pointer(&l.oob[syscall.SizeofCmsghdr]))
				at = t.Nano() - l.wall
			}
		}
	} else {
		n, _, e = syscall.RawSyscall6(syscall.SYS_RECVFROM, uintptr(c.fd), uintptr(unsafe.Pointer(&l.buf[0])), uintptr(len(l.buf)),
			syscall.MSG_DONTWAIT, 0, 0)
	}
	if e != 0 || n == 0 || !c.busy {
		return
	}
	c.got = append(c.got, l.buf[:n]...)
	if !complete(c.got) {
		return
	}
	if at < 0 {
		at = int64(time.Since(l.start))
	}
	lat := at - c.intent
	if l.o.work {
		l.brSrc.Reset(c.got)
		l.br.Reset(l.brSrc)
		if err := l.resp.Read(l.br); err == nil {
			if v, err := l.parser.ParseBytes(l.resp.Body()); err == nil && v.Get("result") != nil {
				_ = l.hist.RecordValue(lat / 1000)
			}
		}
	}
	c.busy = false
	l.free = append(l.free, i)
	l.res.answered++
	l.latSum += lat
	switch l.o.mode {
	case "closed":
		if now := int64(time.Since(l.start)); now < l.end {
			l.send(now) // back to back: intended the moment the last one ended
		}
	case "eager":
		l.sendDue() // a send held for a connection goes as soon as one is free, as rpcstress's do
	}
}

// sendDue sends what the even schedule has due by the last tick, as far as connections are
// free; the rest stays due, keeping its intended time.
func (l *loop) sendDue() {
	for ; l.next <= l.released && l.next < l.end; l.next += l.interval {
		if !l.send(l.next) {
			l.res.held++ // every connection busy
			return
		}
	}
}

// send writes the request on a free connection, intended at intent; false if none is free.
func (l *loop) send(intent int64) bool {
	if len(l.free) == 0 {
		return false
	}
	i := l.free[len(l.free)-1]
	l.free = l.free[:len(l.free)-1]
	c := &l.conns[i]
	_, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(c.fd), uintptr(unsafe.Pointer(&l.req[0])), uintptr(len(l.req)))
	if e != 0 {
		l.res.failed++
		l.free = append(l.free, i)
		return true
	}
	c.busy, c.intent, c.got = true, intent, c.got[:0]
	l.res.sent++
	return true
}
