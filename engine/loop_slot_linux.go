//go:build linux

package engine

// One connection of the event loop (loop_linux.go) and the request it has out: dialing it,
// writing the request, reading and framing the answer, and filing the sample.

import (
	"bytes"
	"io"
	"net"
	"os"
	"syscall"
	"time"
	"unsafe"

	"github.com/valyala/fasthttp"
	"golang.org/x/sys/unix"
)

// connEvents are what the epoll watches a connection for: an answer, and the server's close
// (which hints read to read on to it).
const connEvents = unix.EPOLLIN | unix.EPOLLRDHUP

// A slot's connection.
type slotState uint8

const (
	slotFree    slotState = iota // none: dial one for the next send
	slotDialing                  // its dial is out
	slotIdle                     // open, in the idle list
	slotBusy                     // open, with a request out
)

// maxKeptAnswer is the most room a slot keeps for its answers' bytes between requests.
const maxKeptAnswer = 256 << 10

// loopSlot is one connection and its request. Its Sender and exchange are its own, as a
// worker's are: they hold the request as loaded and the answer until the next send.
type loopSlot struct {
	state      slotState
	fd         int
	prev, next int // the idle list's links
	lastUse    int64

	snd  *Sender
	ex   *http1Exchange
	pend pendingSend // the send in progress (snd.pending)

	out      bool   // a request is out (dialing for it, or sent): smp and j are its
	smp      Sample // its sample until it is filed
	j        job
	head     bool // it is a HEAD: its answer has no body
	deadline int64
	wb       bytes.Buffer // the request as fasthttp wrote it: wbuf
	wbuf     []byte       // what there is to write of it …
	wn       int          // … and how much of it went out
	werr     error        // its write failed: an answer already sent may still stand
	wantOut  bool         // the epoll watches for writability
	in       []byte       // the answer's bytes so far
	stamp    int64        // when the kernel received the last of them (wall clock, ns; 0: unknown)
	frame    answerFrame
}

// start sends j: the Sender loads and stamps it, and it goes out on an idle connection, or on
// one dialed for it.
func (l *evLoop) start(j job) {
	p := l.p
	i, idle := l.idle.pop(l.slots)
	if !idle {
		i = l.free[len(l.free)-1]
		l.free = l.free[:len(l.free)-1]
	}
	s := &l.slots[i]
	s.j, s.out = j, true
	s.smp = Sample{Intended: j.intended, Stage: j.stage}
	stage := int(j.stage)
	fixed := -1 // the mix entry, when its request is the same at every send
	if q := j.req; q != nil {
		p.counters.RequestSent(stage, q.idx)
		s.snd.SendBody(l.ctx, q.idx, q.body, &s.smp, nil, 0, p.start)
	} else {
		idx := p.mix.pick(l.rng)
		p.counters.RequestSent(stage, idx)
		s.snd.Send(l.ctx, idx, &s.smp, nil, 0, p.start)
		if idx < len(l.wire) && p.cfg.Requests[idx].Template == nil {
			fixed = idx
		}
	}
	l.busy++
	s.deadline = int64(s.pend.deadline.Sub(p.start))
	l.due(s.deadline)
	s.head = s.ex.cur.Header.IsHead()
	s.ex.written, s.werr, s.wn = -1, nil, 0
	s.in, s.stamp = s.in[:0], 0
	s.frame.reset(s.head)
	if fixed >= 0 && l.wire[fixed] != nil {
		s.wbuf = l.wire[fixed]
		l.sendWritten(i, idle)
		return
	}
	s.wb.Reset()
	l.bw.Reset(&s.wb)
	err := s.ex.cur.Write(l.bw)
	if err == nil {
		err = l.bw.Flush()
	}
	if err != nil {
		l.fail(i, err, l.now()) // what fasthttp cannot write (a bad header), as on the workers
		if idle {
			l.toIdle(i, l.now())
		} else {
			l.free = append(l.free, i)
		}
		return
	}
	s.wbuf = s.wb.Bytes()
	if fixed >= 0 && len(s.wbuf) <= wiredMax {
		l.wire[fixed] = bytes.Clone(s.wbuf)
	}
	l.sendWritten(i, idle)
}

// sendWritten sends slot i's request, written into wbuf: on its idle connection, or on one
// dialed for it.
func (l *evLoop) sendWritten(i int, idle bool) {
	if !idle {
		l.dial(i, l.slots[i].deadline)
		return
	}
	l.slots[i].state = slotBusy
	l.write(i)
}

// A request of the mix that is the same at every send (no template, not a fan-out's) is
// written by fasthttp once per loop and kept (evLoop.wire): its rendering was 2 % of the
// closed loop's CPU. Only for the first wiredRequests entries, and up to wiredMax bytes, so a
// large targets file or a large body keeps no copy.
const (
	wiredRequests = 64
	wiredMax      = 8 << 10
)

// dial dials slot i's connection on a goroutine of its own, through the Client's counted
// dialer, within the time left to its request's deadline.
func (l *evLoop) dial(i int, deadline int64) {
	l.slots[i].state = slotDialing
	l.dialing++
	timeout := time.Duration(max(deadline-l.now(), 1))
	go func() {
		fd := -1
		c, err := l.h.d.dialConn(l.h.t.addr, timeout)
		if err == nil {
			fd, err = detach(c)
		}
		if err == nil && l.stamping {
			// The kernel's receive times (recv): where it gives none, the loop reads every
			// answer as it comes (mayBeLazy).
			_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
		}
		l.dials <- dialDone{slot: i, fd: fd, err: err} // room for every slot's
		l.kick()
	}()
}

// detach takes c's socket from Go's runtime: a descriptor of its own, non-blocking, that the
// netpoller does not watch, and c closed (closing one of two descriptors of a socket leaves it
// open).
func detach(c net.Conn) (int, error) {
	if r, ok := c.(*rawConn); ok {
		c = r.Conn
	}
	defer c.Close()
	sc, ok := c.(syscall.Conn)
	if !ok {
		return -1, os.ErrInvalid
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var derr error
	if err := rc.Control(func(s uintptr) { fd, derr = unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0) }); err != nil {
		return -1, err
	}
	if derr != nil {
		return -1, derr
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return -1, err
	}
	return fd, nil
}

// takeDials acts on the dials that are back: a connection goes to its request, or to the idle
// list when its request timed out first; a failed dial fails its request.
func (l *evLoop) takeDials(now int64) {
	for {
		var d dialDone
		select {
		case d = <-l.dials:
		default:
			return
		}
		l.dialing--
		s := &l.slots[d.slot]
		switch {
		case d.err != nil:
			s.state = slotFree
			l.free = append(l.free, d.slot)
			if s.out {
				l.fail(d.slot, d.err, now)
			}
		case unix.EpollCtl(l.all, unix.EPOLL_CTL_ADD, d.fd, &unix.EpollEvent{Events: connEvents, Fd: int32(d.slot)}) != nil:
			_ = unix.Close(d.fd)
			s.state = slotFree
			l.free = append(l.free, d.slot)
			if s.out {
				l.fail(d.slot, os.ErrInvalid, now)
			}
		default:
			s.fd = d.fd
			if s.out {
				s.state = slotBusy
				l.write(d.slot)
			} else {
				l.toIdle(d.slot, now)
			}
		}
	}
}

// write writes what is left of slot i's request. A full socket buffer waits for writability;
// a failed write leaves the connection to be read: the server may have answered before it
// took the whole request (see earlyAnswerTransport).
func (l *evLoop) write(i int) {
	s := &l.slots[i]
	for s.wn < len(s.wbuf) {
		n, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(s.fd), uintptr(unsafe.Pointer(&s.wbuf[s.wn])), uintptr(len(s.wbuf)-s.wn))
		switch e {
		case 0:
			s.wn += int(n)
		case syscall.EINTR:
		case syscall.EAGAIN:
			l.watchOut(i, true)
			return
		default:
			s.werr = &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", e)}
			l.watchOut(i, false)
			l.read(i, false, l.now())
			return
		}
	}
	l.watchOut(i, false)
}

// watchOut makes the epoll watch slot i for writability too, or no longer.
func (l *evLoop) watchOut(i int, on bool) {
	s := &l.slots[i]
	if s.wantOut == on {
		return
	}
	ev := uint32(connEvents)
	if on {
		ev |= unix.EPOLLOUT
	}
	_ = unix.EpollCtl(l.all, unix.EPOLL_CTL_MOD, s.fd, &unix.EpollEvent{Events: ev, Fd: int32(i)})
	s.wantOut = on
}

// ready1 acts on slot i's readiness.
func (l *evLoop) ready1(i int, events uint32, now int64) {
	s := &l.slots[i]
	if events&unix.EPOLLOUT != 0 && s.state == slotBusy && s.werr == nil && s.wn < len(s.wbuf) {
		l.write(i)
	}
	if events&(connEvents|unix.EPOLLHUP|unix.EPOLLERR) != 0 && (s.state == slotBusy || s.state == slotIdle) {
		l.read(i, events&unix.EPOLLRDHUP != 0, now)
	}
}

// read takes what slot i's connection has received. An idle connection that is readable was
// closed by the server (or sent what nobody asked for): it is closed. A busy one's answer is
// filed once it is whole, or when the connection ends before.
//
// hup says the server has closed its side: the connection is read to its end, so that an
// answer and the close that follows it are seen together, and the connection is not sent on
// again. (Read as the answers come, the close usually wakes the loop on its own; read at the
// schedule's wakes, it is there by then, unseen unless read for.)
func (l *evLoop) read(i int, hup bool, now int64) {
	s := &l.slots[i]
	eof := false
	var rerr error
	for {
		n, e := l.recv(s)
		if e == syscall.EAGAIN {
			break
		}
		if e != 0 {
			rerr = &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", e)}
			break
		}
		if n == 0 {
			eof = true
			break
		}
		if s.state == slotBusy {
			s.in = append(s.in, l.scratch[:n]...)
		}
		if n < len(l.scratch) && !hup {
			break // the rest, if any, makes the socket ready again
		}
	}
	if s.state != slotBusy {
		l.drop(i) // closed by the server, broken, or sent what nobody asked for
		return
	}
	if !eof && rerr == nil && plainFits(s) {
		// Nearly every answer: the plainest kind, whole in what came. It is read without
		// the framer's pass over it too (http1_plain.go; FuzzPlainAnswer checks the framer
		// would end it there).
		if pa, ok := l.plain.read(s.in, readBufferSize, l.maxBody()); ok {
			l.answered(i, len(s.in), false, now, &pa)
			return
		}
	}
	end := s.frame.scan(s.in, eof, readBufferSize, l.maxBody())
	switch {
	case end == 0 && len(s.in) > l.maxAnswer():
		// Framing without end (a hostile server's one-byte chunks with long extensions): the
		// answer is over any size its body is allowed, as fasthttp would find it.
		l.fail(i, fasthttp.ErrBodyTooLarge, now)
	case end > 0:
		l.answered(i, end, eof || rerr != nil, now, nil)
	case rerr != nil && s.werr == nil:
		l.fail(i, rerr, now)
	case eof || rerr != nil:
		err := s.werr // no answer came before the connection broke: the write's error stands
		if err == nil {
			err = fasthttp.ErrConnectionClosed
		}
		l.fail(i, err, now)
	}
}

func (l *evLoop) maxBody() int { return l.h.hc.MaxResponseBodySize }

// maxAnswer bounds the bytes a slot holds of one answer: its headers, trailers and body at
// their limits, and as much again for chunk framing.
func (l *evLoop) maxAnswer() int { return 2*l.maxBody() + 4*readBufferSize }

// recv reads what slot s's connection has into the loop's scratch, and notes when the kernel
// received it (s.stamp).
func (l *evLoop) recv(s *loopSlot) (int, syscall.Errno) {
	if !l.stamping {
		return l.read2(s)
	}
	l.iov.Base, l.iov.Len = &l.scratch[0], uint64(len(l.scratch))
	l.msg.Iov, l.msg.Iovlen = &l.iov, 1
	l.msg.Control, l.msg.Controllen = &l.oob[0], uint64(len(l.oob))
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_RECVMSG, uintptr(s.fd), uintptr(unsafe.Pointer(&l.msg)), 0)
		if e == syscall.EINTR {
			continue
		}
		if e == 0 && n > 0 {
			// The kernel stamps what it receives only once the first socket that asked has
			// been set up (a deferred switch), and not at all where it cannot: the loop reads
			// lazily only while the answers have their times.
			s.stamp = rxStamp(l.oob[:l.msg.Controllen])
			l.stamps = s.stamp != 0
		}
		return int(n), e
	}
}

// read2 is recv without the kernel's receive time: read(2), which spares recvmsg's message
// header, its control message and the timestamp of every packet the machine receives.
func (l *evLoop) read2(s *loopSlot) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(s.fd), uintptr(unsafe.Pointer(&l.scratch[0])), uintptr(len(l.scratch)))
		if e != syscall.EINTR {
			return int(n), e
		}
	}
}

// rxStamp is the receive time in a recvmsg's control messages (SCM_TIMESTAMPNS, wall clock,
// ns), or 0.
func rxStamp(oob []byte) int64 {
	for len(oob) >= unix.SizeofCmsghdr {
		h := (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
		if uint64(h.Len) < unix.SizeofCmsghdr || uint64(h.Len) > uint64(len(oob)) {
			return 0 // the kernel's are whole: this is not one
		}
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS && int(h.Len) >= unix.CmsgLen(int(unsafe.Sizeof(unix.Timespec{}))) {
			ts := (*unix.Timespec)(unsafe.Pointer(&oob[unix.CmsgLen(0)]))
			return ts.Sec*1e9 + ts.Nsec
		}
		oob = oob[min(unix.CmsgSpace(int(h.Len)-unix.CmsgLen(0)), len(oob)):]
	}
	return 0
}

// doneAt is when slot s's answer came: the kernel's receive time of its last bytes, on the
// run's clock, within its send and now; now when the kernel gave none.
func (l *evLoop) doneAt(s *loopSlot, now int64) int64 {
	if s.stamp == 0 {
		return now
	}
	return min(max(s.stamp-l.wallOff, s.smp.Sent), now)
}

// answered reads slot i's answer, its first end bytes, and files it: pa if read already,
// else with readPlain when it takes the answer, else with fasthttp. The connection stays open
// for the next request unless either side said close, the server sent more than the answer, or
// the connection ended.
func (l *evLoop) answered(i, end int, ended bool, now int64, pa *plainAnswer) {
	s := &l.slots[i]
	s.smp.Done = l.doneAt(s, now)
	// An answer before the whole request went out (its write failed, or is still waiting for
	// room) is an early answer: the rest of the request never leaves, and the connection is
	// done for, as on the workers. Bytes after the answer (or left unread inside it,
	// s.frame.unread) are ones nobody asked for: the connection is not fit for the next
	// request either.
	early := s.werr != nil || s.wn < len(s.wbuf)
	var err error
	var closing bool
	if pa == nil && (ended || end < len(s.in)) && s.frame.outcome() == frameWhole && s.frame.unread() == 0 && plainFits(s) {
		// Bytes read did not try (see read): the answer is not all that came, or the
		// connection ended after it.
		if a, ok := l.plain.read(s.in[:end], readBufferSize, l.maxBody()); ok {
			pa = &a
		}
	}
	if pa != nil {
		s.ex.plain, s.ex.hasPlain, closing = *pa, true, pa.close
		l.plainAnswers++
	} else {
		closing, err = l.parse(s, end)
	}
	keep := err == nil && !early && !ended && end == len(s.in) && s.frame.unread() == 0 &&
		!s.ex.cur.ConnectionClose() && !closing
	if err == nil && early {
		s.ex.written = int64(s.wn)
	}
	l.file(i, err)
	if cap(s.in) > maxKeptAnswer {
		s.in = nil // a rare large answer: its room goes back to the heap, not kept per slot
	}
	if keep {
		l.toIdle(i, now)
	} else {
		l.drop(i)
	}
}

// plainFits reports whether slot s's answer may be read by readPlain: its request went out
// whole (an early answer is fasthttp's, as on the workers), and was not a HEAD.
func plainFits(s *loopSlot) bool { return !s.head && s.werr == nil && s.wn == len(s.wbuf) }

// parse has fasthttp parse slot s's answer, its first end bytes, into the exchange's
// response; closing: the server said it closes the connection.
func (l *evLoop) parse(s *loopSlot, end int) (closing bool, err error) {
	s.ex.hasPlain = false
	resp := &s.ex.resp
	resp.Reset()
	resp.SkipBody = s.head
	l.src.Reset(s.in[:end])
	l.br.Reset(&l.src)
	err = resp.ReadLimitBody(l.br, l.maxBody())
	if err == io.EOF {
		err = fasthttp.ErrConnectionClosed
	}
	return resp.ConnectionClose(), err
}

// fail files slot i's request as failed with err at now. A connection it was sent on is
// closed, as the workers' round trip closes it; one still dialing is left to its dial.
func (l *evLoop) fail(i int, err error, now int64) {
	s := &l.slots[i]
	s.smp.Done = now
	l.file(i, err)
	if s.state == slotBusy {
		l.drop(i)
	}
}

// file ends slot i's request with err (nil: its answer is in the exchange): the Sender fills
// in its sample in the loop's batch, as a worker's send does.
func (l *evLoop) file(i int, err error) {
	s := &l.slots[i]
	w := l.w
	b := w.b
	k := len(b.Samples)
	b.Samples = append(b.Samples, s.smp)
	smp := &b.Samples[k]
	s.snd.finishPending(err, smp, b, int32(k))
	if smp.Intended < 0 {
		smp.Intended = smp.Sent // the closed loop's: intended the moment it went out
	}
	if q := s.j.req; q != nil {
		q.answered(l.p.lane, smp, s.snd) // before the next send reuses the answer
	}
	s.j, s.out = job{}, false
	l.busy--
	// As worker.send: a full or old batch, or a slow answer, goes to the aggregator now.
	if len(b.Samples) >= batchSize || smp.Done-b.Samples[0].Done > batchMaxAge || smp.Done-smp.Sent > batchMaxAge {
		w.flush()
	}
}

// toIdle puts slot i's open connection on the idle list.
func (l *evLoop) toIdle(i int, now int64) {
	s := &l.slots[i]
	s.state, s.lastUse = slotIdle, now
	l.idle.push(l.slots, i)
	l.due(now + int64(maxIdleConn))
}

// drop closes slot i's connection, which becomes free to dial again.
func (l *evLoop) drop(i int) {
	s := &l.slots[i]
	if s.state == slotIdle {
		l.idle.remove(l.slots, i)
	}
	if s.fd >= 0 {
		_ = unix.Close(s.fd) // which takes it out of the epoll too: no other descriptor has it
	}
	s.fd, s.state, s.wantOut = -1, slotFree, false
	l.free = append(l.free, i)
}
