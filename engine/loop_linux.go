//go:build linux

package engine

// The event loop: every connection of a lane on one goroutine, for plain HTTP/1.1, open loop
// and closed (issue 20). A goroutine per connection, woken through a channel for each request
// and parked on Go's netpoller for each answer, costs as much as all of rpcstress's own work
// per request at 5,000/s: bench/cmd/floor measured that design alone at 1.11–1.25× the best
// peer's CPU per request, and one goroutine that owns every connection at 0.61–0.81×
// (bench/README, "How close to the floor"). So here one goroutine writes each due request on
// a free connection and reads every answer as it arrives, with raw system calls on sockets
// that only its own epoll watches. It parks on Go's netpoller through that epoll's fd (a
// blocking system call would hold the process's one P from the aggregator and the dashboard),
// and the scheduler wakes it through an eventfd when it hands out sends. The closed loop with
// requests out is the exception: it waits in epoll_pwait itself, a millisecond at most after
// letting the rest run (block).
//
// What a send is stays the Sender's: the exchange loads and sizes the request, the Sender
// stamps it and, once the loop has the answer's bytes, fasthttp parses them and the Sender
// classifies them (finishPending), so every outcome, size and error class is the one the
// workers' round trip gives. The loop adds only the I/O: counted dials (the Client's dialer,
// on a goroutine of their own), partial writes, an answer that comes before the whole request
// went out, the answer's framing (http1_frame.go), deadlines and idle connections on its own
// timerfd. TLS, HTTP/2, WebSocket, a streamed Source and a test's in-memory dialer stay on
// the workers (pool.go).

import (
	"bufio"
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"github.com/valyala/fasthttp"
	"golang.org/x/sys/unix"
)

// Event-loop epoll tags besides a slot's index.
const (
	tagKick  = -1 // the eventfd the scheduler writes to
	tagTimer = -2 // the timerfd of deadlines and idle connections
	tagTick  = -3 // the schedule's timerfd (loopWaker)
	tagAll   = -4 // all, in wakes: no more than a wake, its events are all's to take
)

// loopEvents bounds the events one wait takes; more stay ready for the next.
const loopEvents = 128

// evLoop is one lane's event loop. All of it but sleeping, kickMu/gone and dials is the loop
// goroutine's own.
type evLoop struct {
	p     *pool
	w     *worker // its batch, which pool.collect takes while the loop waits
	h     *http1Transport
	ctx   context.Context
	rng   *rand.Rand
	slots []loopSlot
	free  []int // slots without a connection
	idle  idleList
	// busy counts slots with a request out (dialing for one, or sent); dialing the dials not
	// yet back, with a request or without (its request timed out first).
	busy, dialing int
	closed        bool // the backlog is closed: the schedule has ended

	efd, tfd int
	// all watches every descriptor: the connections, the eventfd and both timerfds, and is
	// what the loop takes its events from. wakes, which the loop parks on (Go's netpoller
	// watches it), watches the last three, and all too (inWakes) while the loop reads answers
	// as they come. Without all, an answer does not wake the loop: it is read at the next wake,
	// at most lazyHold later (mayBeLazy), and at 5,000/s the loop wakes a third as often.
	all       int
	wakes     loopEpoll
	inWakes   bool
	lazy      bool // this wait leaves the answers to the next wake
	lazyWaits int  // how many waits did (a test reads it)
	// blocks: the closed loop waits for its answers in epoll_pwait itself (block) while it has
	// requests out; blockWaits counts the waits that did (a test reads it). stalled: the last
	// such wait ended with nothing, so the next parks on the netpoller until something comes.
	blocks     bool
	blockWaits int
	stalled    bool
	// plainAnswers is how many answers readPlain read, without fasthttp (a test reads it).
	plainAnswers int
	plain        plainMemo // the last plain answer's head, for all the connections
	looked       bool      // this wait has looked for work once, before it parks
	// fromWakes: the last wait's events are wakes' alone; the answers are still to be read.
	fromWakes bool
	// wallOff is the wall clock less the run's clock at the pass's clock read: it turns the
	// kernel's receive time of an answer (wall clock) into the run's.
	wallOff int64
	stamps  bool // the last answer read had the kernel's receive time (SO_TIMESTAMPNS)
	// stamping: the loop asks the kernel for receive times. The closed loop does not: it reads
	// every answer as it comes (mayBeLazy), so the pass's clock is the answer's time, and
	// recvmsg, with the timestamp it makes the kernel take of every packet received, cost it
	// 3 % of its CPU per request (bench/README, "Reading plain answers").
	stamping bool
	tick     int           // the schedule's timerfd, when the loop is the Scheduler's waker
	tickC    chan struct{} // its expirations, to the Scheduler, until it steps the walk itself …
	ticked   bool          // … it expired in this pass: let the Scheduler hand out sends first
	// stepper: the Scheduler whose walk the loop steps at every expiration (Scheduler.step),
	// set by Run; steps counts them (a test reads it).
	stepper atomic.Pointer[Scheduler]
	steps   int
	events  [loopEvents]syscall.EpollEvent
	nev     int
	waitFn  func(uintptr) bool // pollWait, made once

	sleeping atomic.Bool // the loop is about to wait or waits: a kick must write efd
	kickMu   sync.Mutex  // kick against close: efd is never written after it is closed
	gone     bool
	dials    chan dialDone

	// nextCheck is when a deadline or an idle connection's end comes first (ns since the
	// start; noEnd: none); armed is what the timerfd is set to (0: not set).
	nextCheck, armed int64

	scratch []byte      // one read's bytes
	msg     unix.Msghdr // one read's, over scratch …
	iov     unix.Iovec
	oob     [64]byte      // … and the kernel's receive time (recv)
	src     bytes.Reader  // an answer's bytes, for fasthttp's parse
	br      *bufio.Reader // over src, of the workers' read buffer's size
	bw      *bufio.Writer // fasthttp writes a request through it, into its slot's wbuf
	wire    [][]byte      // a fixed request of the mix as fasthttp wrote it, by index (wired)
}

// loopEpoll is an epoll of the loop's, handed to Go's netpoller to park on.
type loopEpoll struct {
	fd int
	f  *os.File        // fd, as the netpoller sees it
	rc syscall.RawConn // f's, to wait on it
}

// open makes the epoll and hands it to the netpoller: a non-blocking epoll fd is pollable, so
// the netpoller wakes a reader of it when any of its descriptors is ready, as for a socket.
func (e *loopEpoll) open() error {
	fd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return err
	}
	if err = unix.SetNonblock(fd, true); err != nil {
		_ = unix.Close(fd)
		return err
	}
	e.fd, e.f = fd, os.NewFile(uintptr(fd), "epoll")
	e.rc, err = e.f.SyscallConn()
	return err
}

func (e *loopEpoll) close() {
	if e.f != nil {
		_ = e.f.Close()
	}
}

// dialDone is a dial's outcome, from its goroutine.
type dialDone struct {
	slot int
	fd   int
	err  error
}

// newLoop makes p's event loop, or returns nil when p's sends are not the loop's (see the
// file's comment) or the loop's descriptors cannot be had; the workers then send.
func newLoop(ctx context.Context, p *pool) *evLoop {
	h, ok := p.client.tr.(*http1Transport)
	if !ok || h.t.tls || h.d.dial != nil || p.feed != nil || p.cfg.Workers {
		return nil
	}
	l := &evLoop{p: p, h: h, ctx: ctx, all: -1, efd: -1, tfd: -1, tick: -1, nextCheck: noEnd, tickC: make(chan struct{}, 1),
		rng:     rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(p.lane))),
		scratch: make([]byte, 64<<10),
		dials:   make(chan dialDone, p.cfg.Connections)}
	l.br = bufio.NewReaderSize(&l.src, readBufferSize)
	l.bw = bufio.NewWriterSize(nil, 4096)
	l.wire = make([][]byte, min(len(p.cfg.Requests), wiredRequests))
	if err := l.open(); err != nil {
		l.close()
		return nil
	}
	l.slots = make([]loopSlot, max(p.cfg.Connections, 1))
	for i := range l.slots {
		s := &l.slots[i]
		s.fd, s.prev, s.next = -1, -1, -1
		s.snd = p.client.NewSender()
		s.ex = s.snd.ex.(*http1Exchange)
		s.snd.pending = &s.pend
		l.free = append(l.free, len(l.slots)-1-i) // slot 0 is dialed first
	}
	l.idle.init()
	l.w = &worker{p: p, b: p.agg.getBatch()}
	l.stamping = p.cfg.Mode != ModeClosed
	// A blocking loop holds a P while it waits. A closed run has one target (side by side
	// needs one schedule: Config's checks), so its one loop holds back no other loop's answers.
	l.blocks = p.cfg.Mode == ModeClosed
	l.waitFn = l.pollWait
	return l
}

// open makes the epolls, the eventfd and the timerfds.
func (l *evLoop) open() error {
	var err error
	if l.all, err = unix.EpollCreate1(unix.EPOLL_CLOEXEC); err != nil {
		return err
	}
	if err = l.wakes.open(); err != nil {
		return err
	}
	if l.efd, err = unix.Eventfd(0, unix.EFD_NONBLOCK|unix.EFD_CLOEXEC); err != nil {
		return err
	}
	if l.tfd, err = unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC); err != nil {
		return err
	}
	if l.tick, err = unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC); err != nil {
		return err
	}
	for _, w := range []struct{ fd, tag int }{{l.efd, tagKick}, {l.tfd, tagTimer}, {l.tick, tagTick}} {
		for _, ep := range []int{l.all, l.wakes.fd} {
			if err = watch(ep, w.fd, w.tag, unix.EPOLLIN); err != nil {
				return err
			}
		}
	}
	return nil
}

// watch adds fd to epoll ep, level-triggered, under tag.
func watch(ep, fd, tag int, events uint32) error {
	return unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: events, Fd: int32(tag)})
}

// close releases every descriptor; a kick after it writes nothing.
func (l *evLoop) close() {
	for i := range l.slots {
		if l.slots[i].fd >= 0 {
			_ = unix.Close(l.slots[i].fd)
		}
	}
	l.kickMu.Lock()
	l.gone = true
	if l.efd >= 0 {
		_ = unix.Close(l.efd)
	}
	if l.tick >= 0 {
		_ = unix.Close(l.tick)
	}
	l.kickMu.Unlock()
	if l.tfd >= 0 {
		_ = unix.Close(l.tfd)
	}
	if l.all >= 0 {
		_ = unix.Close(l.all)
	}
	l.wakes.close()
}

// kick wakes the loop if it waits: the scheduler calls it after handing out sends, and a dial
// after it is done. Waking a loop that is busy costs nothing: it looks at the backlog before
// it waits again.
func (l *evLoop) kick() {
	if !l.sleeping.Swap(false) {
		return
	}
	l.kickMu.Lock()
	if !l.gone {
		one := uint64(1)
		_, _, _ = syscall.RawSyscall(syscall.SYS_WRITE, uintptr(l.efd), uintptr(unsafe.Pointer(&one)), 8)
	}
	l.kickMu.Unlock()
}

// tickWaker is the Scheduler's waker on the loop's tick timerfd (Scheduler.waker).
func (l *evLoop) tickWaker() waker { return loopWaker{l} }

// loopWaker wakes the Scheduler from the event loop: the loop reads the timerfd as it reads
// its sockets and passes each expiration on (handle).
type loopWaker struct{ l *evLoop }

func (w loopWaker) C() <-chan struct{} { return w.l.tickC }

// Reset arms the tick timerfd, from where the walk steps (Run's goroutine, or the loop's own:
// a timerfd may be set from any thread); not once the loop has closed it.
func (w loopWaker) Reset(d time.Duration) {
	l := w.l
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(max(int64(d), 1))}
	l.kickMu.Lock()
	defer l.kickMu.Unlock()
	if l.gone {
		l.fire()
		return
	}
	if _, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(l.tick), 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); e != 0 {
		l.fire() // never leave the Scheduler asleep for good
	}
}

// fire wakes the Scheduler now.
func (l *evLoop) fire() {
	select {
	case l.tickC <- struct{}{}:
	default:
	}
}

func (loopWaker) Stop() {}

// stepWith makes the loop step s's walk at its ticks (stepper).
func (w loopWaker) stepWith(s *Scheduler) { w.l.stepper.Store(s) }

// run sends and reads until the schedule has ended and every request is done, then closes
// every connection. The batch is the loop's own while it works, and collect's to take while it
// waits (the worker's hold and release).
func (l *evLoop) run() {
	defer l.close()
	for {
		l.w.hold()
		now := l.now()
		full := l.nev == loopEvents
		l.handle(now)
		if l.fromWakes || full {
			l.readAll(now) // the answers a lazy wait left, or what one wait could not take
		}
		l.takeDials(now)
		if now >= l.nextCheck {
			l.expire(now)
		}
		if l.ticked {
			// The Scheduler, just woken, hands out this tick's sends: let it run first (it
			// does on this P, as the one next to run), so they go out now, not on a kick.
			l.ticked = false
			runtime.Gosched()
		}
		if l.p.cfg.Mode == ModeClosed {
			l.refill(now)
		} else {
			l.sendDue()
		}
		if l.closed && l.busy == 0 && l.dialing == 0 {
			l.w.release()
			return
		}
		l.armTimer(now)
		l.w.release()
		l.wait()
	}
}

// now reads the clock: the run's time, and the wall clock's offset from it (wallOff).
func (l *evLoop) now() int64 {
	t := time.Now()
	n := int64(t.Sub(l.p.start))
	l.wallOff = t.UnixNano() - n
	return n
}

// wait parks the loop until a descriptor of its epoll is ready: an answer, a writable socket,
// a kick or the timer. It does not park when work is waiting already.
func (l *evLoop) wait() {
	l.sleeping.Store(true)
	if l.ready() {
		l.sleeping.Store(false)
		return
	}
	if l.mayBlock() {
		l.block()
		l.sleeping.Store(false)
		return
	}
	l.stalled = false
	// Read after sleeping is set: a Scheduler that sets a far wake after this kicks the loop.
	l.setLazy(l.mayBeLazy())
	l.looked = false
	if err := l.wakes.rc.Read(l.waitFn); err != nil {
		// Only a closed epoll fails, which close alone does: do not spin either way.
		time.Sleep(time.Millisecond)
	}
	l.sleeping.Store(false)
}

// ready reports work the loop can do without waiting: due sends with a connection for them,
// or a dial back.
func (l *evLoop) ready() bool {
	return len(l.dials) > 0 || len(l.p.jobs) > 0 && l.hasRoom()
}

// poll takes what the epoll has ready without blocking; false (nothing) parks the caller on
// the netpoller until the epoll's fd is readable.
func (l *evLoop) poll(fd int) bool {
	for {
		n, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(fd), uintptr(unsafe.Pointer(&l.events[0])), loopEvents, 0, 0, 0)
		switch {
		case e == syscall.EINTR:
			continue
		case e != 0:
			return true // only a closed epoll: return and let the caller see it
		case n == 0:
			return false
		}
		l.nev = int(n)
		return true
	}
}

// mayBeLazy reports whether the loop may leave answers to be read at its next wake: the
// Scheduler wakes within lazyHold (and kicks the loop, which then sends), every answer has
// the kernel's receive time, and the connections are plenty: no send waits for one, and at
// most half have a request out. A lazy wait holds each connection up to a wake longer, so
// near the connections' limit the loop reads as answers come, and sends what waited as soon
// as an answer frees a connection.
//
// It decides at every wait, each change at the price of one epoll_ctl: 90,000/s on 50
// connections changes 500-1,000 times a second. A second of eager reads after each send that
// waited (the rule before) kept 20,000/s and 50,000/s on 50 connections eager for most of a
// run, as a late answer now and then left a send waiting: at 20,000/s 1,800-4,200 context
// switches a second against 1,100, and 6-12 % more CPU per request.
func (l *evLoop) mayBeLazy() bool {
	if !l.stamps || l.closed || l.p.cfg.Mode == ModeClosed {
		return false
	}
	if len(l.p.jobs) > 0 && !l.hasRoom() || 2*l.busy > len(l.slots) {
		return false
	}
	return l.p.sched.wakeAt.Load()-l.now() <= int64(lazyHold)
}

// setLazy takes all out of wakes, or puts it back.
func (l *evLoop) setLazy(lazy bool) {
	l.lazy = lazy
	if lazy {
		l.lazyWaits++
	}
	if !l.nest(!lazy) && lazy {
		l.lazy = false // all stays in wakes: answers wake the loop
		l.lazyWaits--
	}
}

// nest puts all in wakes (in) or takes it out, one epoll_ctl when that changes anything;
// false when the epoll_ctl failed and all stays as it was.
func (l *evLoop) nest(in bool) bool {
	if in == l.inWakes {
		return true
	}
	op := unix.EPOLL_CTL_DEL
	if in {
		op = unix.EPOLL_CTL_ADD
	}
	if unix.EpollCtl(l.wakes.fd, op, l.all, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: tagAll}) != nil {
		return false
	}
	l.inWakes = in
	return true
}

// mayBlock reports whether this wait may be block's: the closed loop's, with requests out, no
// dial out and the last such wait not empty. A dial waits for its connection on the netpoller
// (its own goroutine, through the Client's dialer), which a loop that holds the P keeps from
// being polled but every 10 ms (sysmon): blocking through them, 50 dials at a headless run's
// start took 1.99-2.35 ms on average, against 0.80-0.93 parked (three runs each).
func (l *evLoop) mayBlock() bool {
	return l.blocks && l.busy > 0 && l.dialing == 0 && !l.stalled
}

// blockWaitMs bounds one wait of block: how late a timer or a goroutine woken meanwhile may run
// while the loop holds the P, no more than the Scheduler's default tick.
const blockWaitMs = 1

// block is the closed loop's wait while requests are out: in epoll_pwait on all itself, not
// parked on the netpoller. Parked, each answer's readiness climbed three epolls (all, wakes,
// the runtime's) in the softirq of the target that sent it, and each wake went through the
// runtime's scheduler. The closed loop keeps its target busy to the full, so what the target
// spends waking the tester it takes from answering: bench/target spent 5 % more CPU per
// request on rpcstress than on wrk and served it 6-7 % fewer a second (bench/README, "Waiting
// in epoll_pwait"). The loop first yields, so the aggregator, the dashboard and the timers due
// run (with one P they run only when the loop lets them), then waits at most blockWaitMs,
// holding its P; a signal's EINTR returns to the run loop, where the runtime may preempt it.
// A wait that ends with nothing (a node that stalls) leaves the next to the netpoller, which
// costs no wake until an answer, a deadline or a kick comes: blocking on, the loop would wake
// a thousand times a second for nothing.
func (l *evLoop) block() {
	if l.poll(l.all) && l.nev > 0 {
		return
	}
	l.nest(false) // all's events are the loop's own to wait for; a failure leaves it nested
	runtime.Gosched()
	l.blockWaits++
	n, _, e := syscall.RawSyscall6(syscall.SYS_EPOLL_PWAIT, uintptr(l.all), uintptr(unsafe.Pointer(&l.events[0])), loopEvents, blockWaitMs, 0, 0)
	if e == 0 {
		l.nev, l.stalled = int(n), n == 0
	}
}

// pollWait is the wait's look for work (false: there is none, park until wakes is ready). It
// takes all's events, but in a lazy wait's first look, before it parks, wakes' alone: answers
// waiting do not keep it from parking, and readAll takes them once it is woken.
func (l *evLoop) pollWait(uintptr) bool {
	first := !l.looked
	l.looked = true
	if first && l.lazy {
		l.fromWakes = l.poll(l.wakes.fd)
		return l.fromWakes
	}
	l.fromWakes = false
	return l.poll(l.all)
}

// readAll takes and handles what all has ready, until it has taken all of it.
func (l *evLoop) readAll(now int64) {
	l.fromWakes = false
	for l.poll(l.all) && l.nev > 0 {
		full := l.nev == loopEvents
		l.handle(now)
		if !full {
			return
		}
	}
}

// handle acts on the events the last wait took.
func (l *evLoop) handle(now int64) {
	for _, ev := range l.events[:l.nev] {
		switch tag := int(ev.Fd); tag {
		case tagAll:
		case tagKick, tagTimer, tagTick:
			var x [8]byte
			fd := l.efd
			switch tag {
			case tagTimer:
				fd, l.armed = l.tfd, 0
			case tagTick:
				fd = l.tick
			}
			n, _ := rawRead(uintptr(fd), x[:])
			if tag == tagTick && n == len(x) {
				// Only now, with the expiration read: the Scheduler's Reset may set the timer
				// again at once, and an expiration of that setting must stay to be read.
				if s := l.stepper.Load(); s != nil {
					l.steps++
					s.step() // what it hands out goes out in this pass (sendDue)
				} else {
					l.ticked = true
					l.fire()
				}
			}
		default:
			l.ready1(tag, ev.Events, now)
		}
	}
	l.nev = 0
}

// armTimer sets the timerfd to the next deadline or idle connection's end, when it is not
// set to fire by then already.
func (l *evLoop) armTimer(now int64) {
	if l.nextCheck == noEnd || l.armed != 0 && l.armed <= l.nextCheck {
		return
	}
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(max(l.nextCheck-now, 1))}
	if _, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(l.tfd), 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); e == 0 {
		l.armed = l.nextCheck
	}
}

// hasRoom reports a connection for another send: an idle one, or one to dial.
func (l *evLoop) hasRoom() bool { return !l.idle.empty() || len(l.free) > 0 }

// sendDue takes due sends from the backlog while a connection is free for them; the rest wait
// there, as for the workers. Once the run is stopped or its drain abandoned, what is taken is
// counted dropped, as the workers count it.
func (l *evLoop) sendDue() {
	p := l.p
	for l.hasRoom() {
		var j job
		var ok bool
		select {
		case j, ok = <-p.jobs:
		default:
			return
		}
		if !ok {
			l.closed = true
			return
		}
		sc := p.counters.Stage(int(j.stage))
		if p.sched.StopReason() != "" || p.abandoned.Load() {
			sc.Dropped.Add(1)
			j.req.dropped(p.lane)
			continue
		}
		sc.Sent.Add(1)
		l.start(j)
	}
}

// pausedRecheck is how often a paused closed loop looks whether it may send again, as its
// workers do.
const pausedRecheck = int64(10 * time.Millisecond)

// refill is the closed loop's sendDue: every free connection sends at once, back to back, each
// request intended the moment it goes out, as long as the schedule lets it claim one.
func (l *evLoop) refill(now int64) {
	sch := l.p.sched
	for l.hasRoom() && !l.closed {
		if !sch.Claim() {
			l.closed = true // the plan or the request count ran out
			return
		}
		if sch.paused() {
			sch.unclaim()
			l.due(now + pausedRecheck)
			return
		}
		stage := sch.Stage()
		sc := l.p.counters.Stage(stage)
		sc.Scheduled.Add(1)
		sc.Sent.Add(1)
		l.start(job{intended: -1, stage: uint16(stage)})
	}
}

// expire ends the requests whose deadline has passed and closes connections idle for
// maxIdleConn (fasthttp's MaxIdleConnDuration on the workers' client), and finds the next
// such moment.
func (l *evLoop) expire(now int64) {
	next := int64(noEnd)
	for i := range l.slots {
		s := &l.slots[i]
		switch {
		case s.out && now >= s.deadline:
			l.fail(i, fasthttp.ErrTimeout, now) // as the workers' round trip reports it
		case s.out:
			next = min(next, s.deadline)
		case s.state == slotIdle && now-s.lastUse >= int64(maxIdleConn):
			l.drop(i)
		case s.state == slotIdle:
			next = min(next, s.lastUse+int64(maxIdleConn))
		}
	}
	l.nextCheck = next
}

// due notes a moment expire must look at.
func (l *evLoop) due(at int64) { l.nextCheck = min(l.nextCheck, at) }
