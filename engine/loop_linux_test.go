//go:build linux

package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/rpcstress/rpcstress/internal/hostile"
	"github.com/valyala/fasthttp"
	"golang.org/x/sys/unix"
)

// loopRun runs cfg's plan against url, sent by the event loop or (workers) by a goroutine per
// connection, and returns the totals; it fails the test when the loop was (or was not) used.
func loopRun(t *testing.T, cfg Config, workers bool) Summary {
	t.Helper()
	s, _ := loopRunOn(t, cfg, workers)
	return s
}

// loopRunOn is loopRun, with the event loop that sent (nil for the workers).
func loopRunOn(t *testing.T, cfg Config, workers bool) (Summary, *evLoop) {
	t.Helper()
	snap, l := loopSnapshot(t, cfg, workers)
	return snap.Totals, l
}

// loopSnapshot is loopRunOn, with the run's snapshot.
func loopSnapshot(t *testing.T, cfg Config, workers bool) (*Snapshot, *evLoop) {
	t.Helper()
	cfg.Workers = workers
	r, err := NewRunner(&cfg, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := r.Run(context.Background(), SnapshotMeta{})
	if err != nil {
		t.Fatal(err)
	}
	if used := r.lanes[0].pool.loop != nil; used == workers {
		t.Fatalf("event loop used = %v with Workers = %v", used, workers)
	}
	if err := snap.Totals.CheckInvariant(); err != nil {
		t.Errorf("workers=%v: %v", workers, err)
	}
	return snap, r.lanes[0].pool.loop
}

// loopConfig is a plan of n sends over 200 ms to url, one connection, a short timeout and a
// 1 KiB body cap (as TestClassifyErrorRealSockets's client).
func loopConfig(url string, n int, method string) Config {
	return Config{Name: "loop", URL: url, DisplayURL: url, Timeout: 300 * time.Millisecond, Connections: 1,
		MaxBodyBytes: 1 << 10, Mode: ModeOpen, Limits: DefaultLimits(),
		Plan:     Plan{Stages: []Stage{{Rate: Rate(n * 5), Duration: 200 * time.Millisecond}}},
		Requests: []Request{{Name: "r", Weight: 1, Items: 1, Method: method, Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"m"}`)}}}
}

// outcomes is a summary's outcome counts as one comparable line.
func outcomes(s Summary) string {
	return fmt.Sprintf("sent %d completed %d status %v errors %v ok %d bytes in %d out %d",
		s.Sent, s.Completed, s.Status, s.Errors, s.OK, s.BytesIn, s.BytesOut)
}

// TestLoopCountsAsWorkers: for every kind of answer a target can give (whole, framed each way,
// cut short, broken, too large, late, refused), the event loop files the same outcomes,
// classes and byte counts as the workers' round trip, request for request: reading each
// answer as it comes (sends 50 ms apart) and reading answers only at the schedule's wakes
// (sends 2 ms apart: evLoop.mayBeLazy).
func TestLoopCountsAsWorkers(t *testing.T) {
	const partial = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"res"
	ok := "HTTP/1.1 200 OK\r\nContent-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n"
	tests := []struct {
		name, answer, method string
		then                 after
		// idleClosed: the server closes each connection after its answer without saying so
		// (no Connection: close). The workers' fasthttp sends the next request on it and
		// counts eof; the loop sees the close while the connection is idle and dials anew,
		// so every request is answered.
		idleClosed bool
	}{
		{"whole", ok, "", closeConn, true},
		{"kept open", ok, "", hold, false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10;x=y\r\n{\"jsonrpc\":\"2.0\",\r\n13\r\n\"id\":1,\"result\":1}\n\r\n0\r\nX-T: 1\r\n\r\n", "", hold, false},
		{"until close", "HTTP/1.1 200 OK\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}", "", closeConn, false},
		{"continue", "HTTP/1.1 100 Continue\r\n\r\n" + ok, "", hold, false},
		{"no content", "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n", "", hold, false},
		{"head", "HTTP/1.1 200 OK\r\nContent-Length: 36\r\n\r\n", "HEAD", hold, false},
		{"too many", "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n", "", hold, false},
		{"no answer", "", "", hold, false},
		{"stalled body", partial, "", hold, false},
		{"closed", "", "", closeConn, false},
		{"short body", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}", "", closeConn, false},
		{"short chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc", "", closeConn, false},
		{"reset", partial, "", reset, false},
		{"garbage", "GARBAGE\r\n\r\n", "", closeConn, false},
		{"bad status", "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n", "", closeConn, false},
		{"bad chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", "", closeConn, false},
		{"huge body", "HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n", "", hold, false},
		{"huge headers", "HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", 2*readBufferSize) + "\r\nContent-Length: 0\r\n\r\n", "", closeConn, false},
		{"bad header", "HTTP/1.1 200 OK\r\nX-Token value\r\nContent-Length: 0\r\n\r\n", "", closeConn, false},
		{"extra bytes", ok + "HTTP/1.1 200 OK\r\n", "", hold, false},
		{"nginx", "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Wed, 25 Nov 2026 04:00:00 GMT\r\nContent-Type: application/json\r\nContent-Length: 36\r\nConnection: keep-alive\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n", "", hold, false},
		{"limits", "HTTP/1.1 429 Too Many Requests\r\nx-ratelimit-remaining: 0\r\nRETRY-AFTER: 1\r\nContent-Length: 0\r\n\r\n", "", hold, false},
		{"says close", "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n", "", closeConn, false},
	}
	// Kinds whose requests stay out (no answer, one that never ends, a late reset) fill the
	// connections, and the loop then reads as answers come: it need not be lazy there.
	stuck := map[string]bool{"no answer": true, "stalled body": true, "closed": true, "reset": true, "huge body": true}
	keepStamping(t)
	for _, tt := range tests {
		for _, lazy := range []bool{false, true} {
			name := tt.name
			if lazy {
				name += " at wakes"
			}
			wantLazy := lazy && !stuck[tt.name]
			t.Run(name, func(t *testing.T) { loopAsWorkers(t, tt.answer, tt.method, tt.then, tt.idleClosed, lazy, wantLazy) })
		}
	}
}

// keepStamping has the kernel stamp what it receives for the rest of t (and its parallel
// subtests): it turns stamping on only after a deferred switch, for the first socket that asks,
// and off with the last; a run's first answers would otherwise come unstamped, so the loop
// would not go lazy in a run of a few sends.
func keepStamping(t *testing.T) { stampedConn(t) }

// stampedConn is a loopback connection whose client end is a loop slot's (taken from the
// runtime, SO_TIMESTAMPNS on), once the kernel stamps what it receives, with the server's end
// and an event loop to read it; both ends close when t ends.
func stampedConn(t *testing.T) (*evLoop, *loopSlot, net.Conn) {
	r, srv := rawPair(t)
	fd, err := detach(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1); err != nil {
		t.Skipf("no SO_TIMESTAMPNS here: %v", err)
	}
	l := &evLoop{p: &pool{start: time.Now()}, scratch: make([]byte, 1024), stamping: true}
	s := &loopSlot{fd: fd}
	for deadline := time.Now().Add(5 * time.Second); s.stamp == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no receive time from the kernel in 5 s")
		}
		if _, err := srv.Write([]byte("x")); err != nil {
			t.Fatal(err)
		}
		for _, e := l.recv(s); e == syscall.EAGAIN; _, e = l.recv(s) {
			time.Sleep(time.Millisecond)
		}
	}
	return l, s, srv
}

// loopAsWorkers is one case of TestLoopCountsAsWorkers: n sends, each answered with answer.
func loopAsWorkers(t *testing.T, answer, method string, then after, idleClosed, lazy, wantLazy bool) {
	t.Parallel()
	url := repeatServer(t, answer, then).URL
	n := 4
	cfg := loopConfig(url, n, method)
	if lazy {
		// Six, as the first answers of a run may come before the kernel stamps them; four
		// connections, as the loop is lazy only while at most half have a request out.
		n = 6
		cfg.Connections = 4
		cfg.Plan.Stages[0] = Stage{Rate: 500, Duration: time.Duration(n) * 2 * time.Millisecond}
	}
	loopSnap, l := loopSnapshot(t, cfg, false)
	// A loaded machine (the race detector, the other cases in parallel) may begin the plan so
	// late that its first step hands out every send at once, and no wait can then be lazy
	// (under -race 1-2 of these cases a run did): the plan runs again, three times at most.
	for try := 1; wantLazy && l.lazyWaits == 0 && try < 3; try++ {
		loopSnap, l = loopSnapshot(t, cfg, false)
	}
	workersSnap, _ := loopSnapshot(t, cfg, true)
	loop, workers := loopSnap.Totals, workersSnap.Totals
	if wantLazy && l.lazyWaits == 0 {
		t.Errorf("sends 2 ms apart: the loop never left its answers to the next wake")
	}
	// The answers readPlain takes are read without fasthttp (http1_plain.go), the others with.
	var fr answerFrame
	fr.reset(method == "HEAD")
	end := fr.scan([]byte(answer), false, readBufferSize, cfg.MaxBodyBytes)
	_, plain := readPlain([]byte(answer[:end]), readBufferSize, cfg.MaxBodyBytes)
	if plain = plain && method != "HEAD" && fr.outcome() == frameWhole && fr.unread() == 0; plain != (l.plainAnswers > 0) {
		t.Errorf("%d answers read without fasthttp; want them all read so: %v", l.plainAnswers, plain)
	}
	if a, b := fmt.Sprint(loopSnap.RateLimitHeaders), fmt.Sprint(workersSnap.RateLimitHeaders); a != b {
		t.Errorf("rate-limit headers differ:\nloop    %s\nworkers %s", a, b)
	}
	if loop.Completed != int64(n) {
		t.Errorf("loop: completed %d of %d: %s", loop.Completed, n, outcomes(loop))
	}
	if idleClosed {
		if loop.Status["200"] != int64(n) || workers.Status["200"]+workers.Errors["eof"] != int64(n) {
			t.Errorf("closed after each answer:\nloop    %s (want %d × 200)\nworkers %s (want 200s and eofs)", outcomes(loop), n, outcomes(workers))
		}
		return
	}
	if a, b := outcomes(loop), outcomes(workers); a != b {
		t.Errorf("loop and workers differ:\nloop    %s\nworkers %s", a, b)
	}
}

// repeatServer is rawServer for every request of a connection, not the first alone: it
// answers each request with answer until then ends the connection.
func repeatServer(t *testing.T, answer string, then after) *hostile.Server {
	return hostile.Start(t, hostile.Config{Serve: func(c net.Conn, br *bufio.Reader) {
		for readHTTPRequest(br) {
			io.WriteString(c, answer)
			switch then {
			case closeConn:
				return
			case reset:
				time.Sleep(50 * time.Millisecond)
				c.(*net.TCPConn).SetLinger(0)
				return
			}
			if answer == "" || strings.Contains(answer, "\r\n\r\n{\"res") {
				io.Copy(io.Discard, br) // no answer, or a stalled one: hold until the client leaves
				return
			}
		}
	}})
}

// TestLoopRefusedAndEarlyAnswer: a target that refuses connections fails every send as
// refused, and a server that answers 413 before it reads a large body has its answer counted
// with the part of the request that went out, as on the workers.
func TestLoopRefusedAndEarlyAnswer(t *testing.T) {
	refused := "http://" + refusedAddr(t) + "/"
	cfg := loopConfig(refused, 3, "")
	if got := loopRun(t, cfg, false); got.Errors["refused"] != 3 {
		t.Errorf("refused target: %s, want 3 refused", outcomes(got))
	}
	early := hostile.Start(t, hostile.Config{Serve: func(c net.Conn, br *bufio.Reader) {
		br.ReadString('\n')
		io.WriteString(c, "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
		c.(*net.TCPConn).SetLinger(0) // unread body: the close resets, as geth's does
	}})
	cfg = loopConfig(early.URL, 2, "")
	cfg.Requests[0].Body = []byte(`{"x":"` + strings.Repeat("a", 8<<20) + `"}`)
	cfg.Timeout = 2 * time.Second
	got := loopRun(t, cfg, false)
	if got.Status["413"] != 2 || got.BytesOut >= int64(2*len(cfg.Requests[0].Body)) {
		t.Errorf("early answer: %s, want two 413s with less than the bodies written", outcomes(got))
	}
	// The answer comes while the request is still being written (the server half-closes and
	// reads nothing more for a while, so the client's write waits for room, not fails): it is
	// an early answer too, and its connection is not used again.
	waiting := hostile.Start(t, hostile.Config{Serve: func(c net.Conn, br *bufio.Reader) {
		br.ReadString('\n')
		io.WriteString(c, "HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n")
		c.(*net.TCPConn).CloseWrite()
		time.Sleep(300 * time.Millisecond)
	}})
	cfg = loopConfig(waiting.URL, 2, "")
	cfg.Requests[0].Body = []byte(`{"x":"` + strings.Repeat("a", 32<<20) + `"}`)
	cfg.Timeout = 2 * time.Second
	got = loopRun(t, cfg, false)
	if got.Status["413"] != 2 || len(got.Errors) != 0 || got.BytesOut >= int64(2*len(cfg.Requests[0].Body)) {
		t.Errorf("answer while writing: %s, want two 413s with less than the bodies written", outcomes(got))
	}
}

// TestLoopKeepsTheTick: the Scheduler sleeps on the loop's tick (loopWaker), and a tick the
// loop read but never passed on leaves the run asleep for good. Many short runs, at rates
// where the Scheduler is often behind (its Reset is then "at once"), each end on time. (The
// one such loss seen, an expiration read after the Scheduler was told, hung one run of a whole
// go test ./...; this test did not catch that order in three tries: it guards the wiring, and
// handle's comment the order.)
func TestLoopKeepsTheTick(t *testing.T) {
	url := repeatServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", hold).URL
	for i := range 20 {
		cfg := loopConfig(url, 0, "")
		cfg.Connections = 4
		cfg.Plan.Stages = []Stage{{Rate: 20000, Duration: 50 * time.Millisecond}, {Rate: 3000, Duration: 50 * time.Millisecond}}
		done := make(chan Summary, 1)
		go func() { done <- loopRun(t, cfg, false) }()
		select {
		case s := <-done:
			if s.Scheduled != 1150 {
				t.Fatalf("run %d: scheduled %d, want 1150", i, s.Scheduled)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("run %d of 100 ms still going after 10 s: the Scheduler lost its tick", i)
		}
	}
}

// TestLoopMayBeLazy: the loop leaves answers to be read at its next wake only while the
// Scheduler wakes within lazyHold, the kernel times every answer, no send waits in the
// backlog without a connection for it, at most half the connections have a request out, and
// the open loop still schedules.
func TestLoopMayBeLazy(t *testing.T) {
	const near, far = time.Millisecond, 10 * time.Millisecond
	tests := []struct {
		name            string
		wake            time.Duration // when the Scheduler wakes next, from now
		mode            Mode
		noStamps, ended bool
		backlog, room   bool
		busy            int // requests out, of 4 connections
		want            bool
	}{
		{"near wake", near, ModeOpen, false, false, false, true, 0, true},
		{"wake passed", -near, ModeOpen, false, false, false, false, 0, true},
		{"far wake", far, ModeOpen, false, false, false, true, 0, false},
		{"no kernel times", near, ModeOpen, true, false, false, true, 0, false},
		{"schedule ended", near, ModeOpen, false, true, false, true, 0, false},
		{"closed loop", near, ModeClosed, false, false, false, true, 0, false},
		{"backlog with a connection", near, ModeOpen, false, false, true, true, 0, true},
		{"backlog without one", near, ModeOpen, false, false, true, false, 0, false},
		{"half busy", near, ModeOpen, false, false, false, true, 2, true},
		{"more than half busy", near, ModeOpen, false, false, false, true, 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs := make(chan job, 1)
			if tt.backlog {
				jobs <- job{}
			}
			p := &pool{cfg: &Config{Mode: tt.mode}, sched: &Scheduler{}, jobs: jobs, start: time.Now().Add(-time.Second)}
			l := &evLoop{p: p, stamps: !tt.noStamps, closed: tt.ended, busy: tt.busy, slots: make([]loopSlot, 4)}
			l.idle.init()
			if tt.room {
				l.free = []int{0}
			}
			p.sched.wakeAt.Store(int64(time.Second + tt.wake))
			if got := l.mayBeLazy(); got != tt.want {
				t.Errorf("mayBeLazy = %v, want %v", got, tt.want)
			}
			// Each wait decides afresh: once the connections are free again, the loop is
			// lazy at once (a spell of eager reads after a shortage kept 20,000/s eager).
			if tt.backlog || tt.busy > 0 {
				l.busy = 0
				l.free = []int{0}
				if !l.mayBeLazy() {
					t.Error("then with every connection free: not lazy")
				}
			}
		})
	}
}

// TestLoopTimesAnswersByArrival: an answer's time is when the kernel received it, not when
// the loop got round to reading it (a lazy wait reads up to lazyHold later): read 30 ms after
// it came, it is still timed when it came.
func TestLoopTimesAnswersByArrival(t *testing.T) {
	l, s, srv := stampedConn(t)
	s.smp.Sent = l.now()
	if _, err := srv.Write([]byte("HTTP/1.1 200 OK\r\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(30 * time.Millisecond)
	now := l.now()
	if n, e := l.recv(s); n != 17 || e != 0 {
		t.Fatalf("recv = %d, %v; want the 17 bytes written", n, e)
	}
	done := l.doneAt(s, now)
	if s.stamp == 0 || now-done < int64(25*time.Millisecond) || done < s.smp.Sent {
		t.Errorf("read %v after the send, the answer is timed %v after it (kernel time %d); want within the 30 ms sleep's start",
			time.Duration(now-s.smp.Sent), time.Duration(done-s.smp.Sent), s.stamp)
	}
}

// TestLoopDoneAt: the kernel's time is turned to the run's clock and kept within the send and
// the read (a wall clock stepped between them cannot put an answer before its request).
func TestLoopDoneAt(t *testing.T) {
	const off = int64(1_700_000_000_000_000_000) // the wall clock at the run's start
	tests := []struct {
		name        string
		stamp, want int64
	}{
		{"between", off + 500, 500},
		{"unknown", 0, 900},
		{"before the send", off + 10, 100},
		{"after the read", off + 2000, 900},
	}
	for _, tt := range tests {
		l := &evLoop{wallOff: off}
		s := &loopSlot{stamp: tt.stamp}
		s.smp.Sent = 100
		if got := l.doneAt(s, 900); got != tt.want {
			t.Errorf("%s: doneAt = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// FuzzRxStamp: rxStamp reads any control bytes without a fault, and finds the time that
// x/sys/unix's own parse of them finds.
func FuzzRxStamp(f *testing.F) {
	ts := unix.Timespec{Sec: 1_700_000_000, Nsec: 123}
	good := unix.UnixRights(3) // a control message of another type first …
	h := unix.Cmsghdr{Level: unix.SOL_SOCKET, Type: unix.SCM_TIMESTAMPNS}
	h.SetLen(unix.CmsgLen(int(unsafe.Sizeof(ts))))
	b := make([]byte, unix.CmsgSpace(int(unsafe.Sizeof(ts))))
	*(*unix.Cmsghdr)(unsafe.Pointer(&b[0])) = h
	*(*unix.Timespec)(unsafe.Pointer(&b[unix.CmsgLen(0)])) = ts
	f.Add(append(good, b...)) // … then the time
	f.Add(b)
	f.Add(b[:20])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, oob []byte) {
		got := rxStamp(oob)
		var want int64
		if msgs, err := unix.ParseSocketControlMessage(oob); err == nil {
			for _, m := range msgs {
				if m.Header.Level == unix.SOL_SOCKET && m.Header.Type == unix.SCM_TIMESTAMPNS && len(m.Data) >= int(unsafe.Sizeof(ts)) {
					want = (*unix.Timespec)(unsafe.Pointer(&m.Data[0])).Nano()
					break
				}
			}
		}
		if got != want && want != 0 {
			t.Errorf("rxStamp = %d, x/sys/unix finds %d", got, want)
		}
	})
}

// TestLoopReusesTheNewestConnection: a send takes the connection freed last, so a rate keeps
// only the connections it needs busy. A burst against slow answers dials several; at a low
// rate afterwards, with quick answers, one or two of them carry every request, not all in
// turn.
func TestLoopReusesTheNewestConnection(t *testing.T) {
	var mu sync.Mutex
	used := map[net.Conn]bool{} // the connections that got a request after the burst
	start := time.Now()
	srv := hostile.Start(t, hostile.Config{Serve: func(c net.Conn, br *bufio.Reader) {
		for readHTTPRequest(br) {
			if time.Since(start) < 100*time.Millisecond {
				time.Sleep(20 * time.Millisecond) // the burst: slow answers, so more connections
			} else {
				mu.Lock()
				used[c] = true
				mu.Unlock()
			}
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
		}
	}})
	cfg := loopConfig(srv.URL, 0, "")
	cfg.Connections = 20
	cfg.Timeout = time.Second
	cfg.Plan.Stages = []Stage{{Rate: 1000, Duration: 20 * time.Millisecond}, {Rate: 0, Duration: 130 * time.Millisecond},
		{Rate: 100, Duration: 400 * time.Millisecond}}
	got := loopRun(t, cfg, false)
	mu.Lock()
	defer mu.Unlock()
	if got.Connections.Dialed < 5 {
		t.Fatalf("the burst dialed %d connections; want at least 5 for the test to mean anything", got.Connections.Dialed)
	}
	if len(used) > 3 {
		t.Errorf("100/s with quick answers went out on %d of the %d connections dialed; want the newest reused (at most 3)", len(used), got.Connections.Dialed)
	}
}

// TestIdleListTakesTheNewest: pop takes the slot pushed last; remove unlinks from anywhere.
func TestIdleListTakesTheNewest(t *testing.T) {
	slots := make([]loopSlot, 4)
	var q idleList
	q.init()
	for _, i := range []int{0, 1, 2, 3} {
		q.push(slots, i)
	}
	q.remove(slots, 3)
	q.remove(slots, 1)
	var order []int
	for i, ok := q.pop(slots); ok; i, ok = q.pop(slots) {
		order = append(order, i)
	}
	if fmt.Sprint(order) != "[2 0]" || !q.empty() {
		t.Errorf("popped %v, want [2 0] and the list empty", order)
	}
}

// TestLoopWiresFixedRequests: a fixed request of the mix goes out byte for byte as fasthttp
// writes it at every send, from the loop's one rendering (evLoop.wire), beside a second
// fixed shape and a template whose bodies differ at every send; BytesOut stays exact.
func TestLoopWiresFixedRequests(t *testing.T) {
	var srv captureServer
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fs := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		srv.handle(ctx)
		ctx.SetBodyString(`{"jsonrpc":"2.0","id":1,"result":1}`)
	}}
	go fs.Serve(ln)
	t.Cleanup(func() { fs.Shutdown() })
	url := "http://" + ln.Addr().String() + "/"
	cfg := loopConfig(url, 100, "")
	cfg.Connections = 4
	cfg.Timeout = 2 * time.Second
	cfg.Requests = []Request{
		{Name: "a", Weight: 1, Items: 1, Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"a"}`), Headers: []Header{{Name: "X-Entry", Value: "a"}}},
		{Name: "b", Weight: 1, Items: 1, Path: "/b", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"bb"}`), Headers: []Header{{Name: "X-Entry", Value: "b"}}},
		{Name: "t", Weight: 1, Items: 1, Body: []byte("x"), Template: &sizesTemplate{sizes: []int{5, 50, 9, 120}}, Headers: []Header{{Name: "X-Entry", Value: "t"}}},
	}
	got, l := loopRunOn(t, cfg, false)
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.reqs) != int(got.Sent) || got.Sent < 50 {
		t.Fatalf("the server got %d requests of %d sent; want them all, at least 50", len(srv.reqs), got.Sent)
	}
	first := map[string]capturedRequest{}
	bodies := map[string]int{}
	var out int
	for i, r := range srv.reqs {
		out += len(r.raw) + len(r.body)
		entry := ""
		for _, e := range []string{"a", "b", "t"} {
			if strings.Contains(r.raw, "\r\nX-Entry: "+e+"\r\n") {
				entry = e
			}
		}
		if entry == "" {
			t.Fatalf("request %d has no X-Entry header:\n%s", i, r.raw)
		}
		if want := fmt.Sprintf("\r\nContent-Length: %d\r\n", len(r.body)); !strings.Contains(r.raw, want) {
			t.Errorf("request %d (%s): its Content-Length is not its body's %d:\n%s", i, entry, len(r.body), r.raw)
		}
		if entry == "t" {
			bodies[r.body]++
			continue
		}
		if f, ok := first[entry]; !ok {
			first[entry] = r
		} else if f != r {
			t.Errorf("request %d (%s) differs from the first of its entry:\n%q\n%q", i, entry, r.raw+r.body, f.raw+f.body)
		}
	}
	if len(first) != 2 || len(bodies) < 2 {
		t.Errorf("entries seen %v, template bodies %d distinct: want both fixed entries and several renderings", first, len(bodies))
	}
	if int(got.BytesOut) != out {
		t.Errorf("BytesOut %d, want the %d bytes the server got", got.BytesOut, out)
	}
	if l.wire[0] == nil || l.wire[1] == nil || l.wire[2] != nil {
		t.Errorf("wired: a %v, b %v, t %v; want the two fixed entries only", l.wire[0] != nil, l.wire[1] != nil, l.wire[2] != nil)
	}
}

// TestLoopClosedCountsAsWorkers: the closed loop reads without the kernel's receive times
// (read(2), evLoop.stamping) and counts, sizes and times its answers as the workers do, plain
// ones (readPlain) and others (fasthttp) alike.
func TestLoopClosedCountsAsWorkers(t *testing.T) {
	for _, answer := range []string{
		"HTTP/1.1 200 OK\r\nServer: s\r\nContent-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n24\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n\r\n0\r\n\r\n",
	} {
		url := repeatServer(t, answer, hold).URL
		cfg := loopConfig(url, 0, "")
		cfg.Mode, cfg.MaxRequests, cfg.Connections, cfg.Plan = ModeClosed, 300, 3, Plan{Stages: []Stage{{Duration: 10 * time.Second}}}
		snap, l := loopSnapshot(t, cfg, false)
		workers, _ := loopSnapshot(t, cfg, true)
		if l.stamping || l.stamps {
			t.Errorf("closed loop: stamping %v, answers stamped %v; want neither", l.stamping, l.stamps)
		}
		if a, b := outcomes(snap.Totals), outcomes(workers.Totals); a != b || snap.Totals.Completed != 300 {
			t.Errorf("%q:\nloop    %s\nworkers %s\nwant 300 completed alike", answer, a, b)
		}
		if _, plain := readPlain([]byte(answer), readBufferSize, cfg.MaxBodyBytes); plain != (l.plainAnswers == 300) {
			t.Errorf("%q: %d of 300 read without fasthttp, want all: %v", answer, l.plainAnswers, plain)
		}
		if p50 := snap.Totals.Latency.P50; p50 <= 0 || p50 > 1000 {
			t.Errorf("%q: p50 %v ms, want above 0 and under a second", answer, p50)
		}
	}
}

// TestLoopClosedBlocks: while its requests are out, the closed loop waits in epoll_pwait
// itself (block), at most blockWaitMs at a time and after yielding, so on one P the rest of
// the process still runs on time while answers are slow, and a wait that finds nothing leaves
// the next to the netpoller.
func TestLoopClosedBlocks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const answer = "HTTP/1.1 200 OK\r\nContent-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":1}\n"
	srv := hostile.Start(t, hostile.Config{Serve: func(c net.Conn, br *bufio.Reader) {
		for readHTTPRequest(br) {
			time.Sleep(100 * time.Millisecond) // a slow node: the loop waits with both requests out
			io.WriteString(c, answer)
		}
	}})
	cfg := loopConfig(srv.URL, 0, "")
	cfg.Mode, cfg.Connections, cfg.Timeout = ModeClosed, 2, 5*time.Second
	cfg.Plan = Plan{Stages: []Stage{{Duration: 500 * time.Millisecond}}}

	// A goroutine due every millisecond: how often it ran says whether the loop's waits let it.
	var ticks atomic.Int64
	stop := make(chan struct{})
	go func() {
		tk := time.NewTicker(time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-tk.C:
				ticks.Add(1)
			case <-stop:
				return
			}
		}
	}()
	start := time.Now()
	snap, l := loopSnapshot(t, cfg, false)
	took := time.Since(start)
	close(stop)
	// Each answer 100 ms away: a wait in epoll_pwait that finds nothing in its millisecond
	// leaves the rest to the netpoller, so the loop does not wake a thousand times a second.
	if most := took.Milliseconds() / 10; !l.blocks || l.blockWaits == 0 || int64(l.blockWaits) > most {
		t.Errorf("one loop on one P: blocks %v, %d blocking waits in %v; want some, at most %d",
			l.blocks, l.blockWaits, took, most)
	}
	if c := snap.Totals.Completed; c < 4 || c != snap.Totals.OK {
		t.Errorf("completed %d, ok %d: want at least 4, all ok (%s)", c, snap.Totals.OK, outcomes(snap.Totals))
	}
	// Without the yield, or bounded at a second, it ran only at the answers (every 100 ms)
	// and the runtime's preemptions (every 10 ms): 29 and 35 times in some 550 ms.
	if n, most := ticks.Load(), took.Milliseconds(); n < most/4 {
		t.Errorf("a goroutine due every ms ran %d times in %v: the loop's waits held the P", n, took)
	}
}

// TestLoopMayBlock: the closed loop waits in epoll_pwait only with requests out, no dial out
// (a dial's goroutine waits on the netpoller, which a loop holding the P keeps from being
// polled) and the last such wait not empty; the open loop never does.
func TestLoopMayBlock(t *testing.T) {
	tests := []struct {
		name          string
		blocks        bool
		busy, dialing int
		stalled, want bool
	}{
		{"requests out", true, 3, 0, false, true},
		{"nothing out", true, 0, 0, false, false},
		{"a dial out", true, 3, 1, false, false},
		{"the last wait found nothing", true, 3, 0, true, false},
		{"the open loop", false, 3, 0, false, false},
	}
	for _, tt := range tests {
		l := &evLoop{blocks: tt.blocks, busy: tt.busy, dialing: tt.dialing, stalled: tt.stalled}
		if got := l.mayBlock(); got != tt.want {
			t.Errorf("%s: mayBlock %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestLoopStepsTheSchedule: the loop that hosts the Scheduler's tick steps its walk itself at
// every tick, and the walk keeps its count and its stages (as through Run, TestLoopKeepsTheTick).
func TestLoopStepsTheSchedule(t *testing.T) {
	url := repeatServer(t, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}", hold).URL
	cfg := loopConfig(url, 0, "")
	cfg.Connections = 4
	cfg.Plan.Stages = []Stage{{Rate: 2000, Duration: 50 * time.Millisecond}, {Rate: 1000, Duration: 50 * time.Millisecond}}
	s, l := loopRunOn(t, cfg, false)
	if s.Scheduled != 150 || s.Completed != 150 {
		t.Errorf("scheduled %d, completed %d: want 150 each", s.Scheduled, s.Completed)
	}
	// A tick a millisecond for 100 ms; a loaded machine wakes late and merges some.
	if l.steps < 20 {
		t.Errorf("the loop stepped the walk %d times in a run of 100 ticks", l.steps)
	}
}
