package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/hostile"
	"github.com/rpcstress/rpcstress/internal/proctest"
)

// Faults: targets that are down, go away, are slow or are rude, signals, and a process that may
// not open enough files. Each run is bounded (a few seconds) and stays on 127.0.0.1. The common
// promise: the run ends normally, every request has exactly one outcome, and the books balance.

// checkComplete checks that a snapshot is whole: stages, a timeline row per second, histograms.
func checkComplete(t *testing.T, s *engine.Snapshot) {
	t.Helper()
	if s.Schema != engine.SnapshotSchema || len(s.Stages) == 0 || len(s.Timeline) == 0 ||
		s.Histograms.Total == "" || len(s.Histograms.Stages) != len(s.Stages) || s.EndedAt.Before(s.StartedAt) {
		t.Errorf("incomplete snapshot: schema %q, %d stages, %d timeline rows, histograms %d/%d",
			s.Schema, len(s.Stages), len(s.Timeline), len(s.Histograms.Total), len(s.Histograms.Stages))
	}
	for i, st := range s.Stages {
		if err := st.Summary.CheckInvariant(); err != nil {
			t.Errorf("stage %d: %v", i+1, err)
		}
	}
}

// TestFaultTargetDownAtStart: nothing listens; every request is refused, counted as such, and
// the run ends normally with a complete snapshot.
func TestFaultTargetDownAtStart(t *testing.T) {
	t.Parallel()
	p := writeProfile(t, "http://"+closedPort(t)+"/", 16, getBalance+stage("200/s", "500ms"))
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	checkComplete(t, r.snap)
	tot := r.snap.Totals
	t.Logf("scheduled %d completed %d errors %v status %v", tot.Scheduled, tot.Completed, tot.Errors, tot.Status)
	if tot.Scheduled != 100 || tot.Completed != 100 || tot.Errors["refused"] != 100 || tot.Failed != 100 {
		t.Errorf("scheduled %d completed %d errors %v failed %d; want 100 refused", tot.Scheduled, tot.Completed, tot.Errors, tot.Failed)
	}
	if r.snap.EndReason != engine.EndCompleted {
		t.Errorf("end reason %q", r.snap.EndReason)
	}
	if !strings.Contains(r.stdout, "refused") {
		t.Errorf("the report does not name the refusals:\n%s", r.stdout)
	}
}

// TestFaultTargetRestarted: the node is killed a second into the run and comes back on the same
// port 1.2 s later. The gap shows as refused (reset or eof for requests caught by the kill),
// then answers come back, and rpcstress's 200s equal what the two node instances answered.
func TestFaultTargetRestarted(t *testing.T) {
	first, addr, err := mocknode.Start(context.Background(), "127.0.0.1:0", mocknode.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = first.Close() })
	p := writeProfile(t, "http://"+addr+"/", 16, getBalance+stage("100/s", "4s"))
	var (
		mu     sync.Mutex
		second *mocknode.Node
		again  = make(chan error, 1)
	)
	go func() {
		time.Sleep(time.Second)
		_ = first.Close()
		time.Sleep(1200 * time.Millisecond) // past t=2s, so the timeline's seconds 2+ are the new node's
		n, _, err := mocknode.Start(context.Background(), addr, mocknode.Config{})
		mu.Lock()
		second = n
		mu.Unlock()
		again <- err
	}()
	r := runCLI(t, nil, p)
	if err := <-again; err != nil {
		t.Fatalf("restarting the node on %s: %v", addr, err)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Cleanup(func() { _ = second.Close() })
	mustRun(t, r, exitOK)
	checkComplete(t, r.snap)
	tot := r.snap.Totals
	gap := tot.Errors["refused"] + tot.Errors["reset"] + tot.Errors["eof"]
	answered := first.Stats().Status["200"] + second.Stats().Status["200"]
	t.Logf("status %v errors %v completed %d; node answered %d before the kill and %d after the restart",
		tot.Status, tot.Errors, tot.Completed, first.Stats().Status["200"], second.Stats().Status["200"])
	for _, row := range r.snap.Timeline {
		t.Logf("t=%ds 200s %d errors %v", row.T, row.Status["200"], row.Errors)
	}
	if tot.Completed != 400 || tot.Scheduled != 400 {
		t.Errorf("completed %d of %d scheduled, want all 400", tot.Completed, tot.Scheduled)
	}
	if gap < 80 || gap > 250 {
		t.Errorf("%d refused/reset/eof for a 1.2 s gap at 100/s; want about 120", gap)
	}
	if len(tot.Errors) != len(pick(tot.Errors, "refused", "reset", "eof")) {
		t.Errorf("errors %v: only refused, reset or eof expected", tot.Errors)
	}
	// The node counts an answer as it hands it to the connection; the shutdown may close the
	// connection before the answer leaves, and rpcstress sees eof or reset instead. So the
	// node's count may exceed rpcstress's 200s by at most those; for the restarted node, which
	// ran to the end, the two must be equal.
	var afterRestart int64
	for _, row := range r.snap.Timeline {
		if row.T >= 2 {
			afterRestart += row.Status["200"]
		}
	}
	if lost := answered - tot.Status["200"]; lost < 0 || lost > tot.Errors["eof"]+tot.Errors["reset"] {
		t.Errorf("rpcstress counted %d 200s, the two node instances answered %d, eof+reset %d", tot.Status["200"], answered, tot.Errors["eof"]+tot.Errors["reset"])
	}
	if n := second.Stats().Status["200"]; afterRestart != n {
		t.Errorf("rpcstress got %d answers from t=2s on, the restarted node answered %d", afterRestart, n)
	}
	if n := second.Stats().Status["200"]; n < 100 {
		t.Errorf("only %d answers after the restart: the run did not recover", n)
	}
	if last := r.snap.Timeline[len(r.snap.Timeline)-1]; len(last.Errors) != 0 && last.T >= 3 {
		t.Errorf("the last second (t=%d) still has errors %v", last.T, last.Errors)
	}
	if r.snap.EndReason != engine.EndCompleted {
		t.Errorf("end reason %q", r.snap.EndReason)
	}
}

// startMockProcess starts the built binary's mock node on addr, a process of its own so it can
// be killed for real, and waits until it listens. It may run on any goroutine, so it reports
// failure rather than stopping the test; the process ends with the test at the latest.
func startMockProcess(tb testing.TB, bin, addr string, args ...string) (*proctest.Proc, error) {
	m, err := proctest.Start(tb, exec.Command(bin, append([]string{"mocknode", "--listen", addr}, args...)...))
	if err != nil {
		return nil, err
	}
	listening := func() bool { return strings.Contains(m.Out.String(), "mocknode listening") }
	if err := m.Await(10*time.Second, "mocknode listening", listening); err != nil {
		m.Kill()
		return nil, err
	}
	return m, nil
}

// TestFaultTargetKilled: the node is a process of its own, SIGKILLed a second into the run (the
// kernel resets its connections, requests in flight get no answer) and started again on the same
// port 1.2 s later. The gap shows as refused, reset or eof; answers come back after the
// restart; the restarted node's own count equals what rpcstress got from it.
func TestFaultTargetKilled(t *testing.T) {
	bin := buildBinary(t)
	addr := closedPort(t)
	first, err := startMockProcess(t, bin, addr, "--latency", "20ms")
	if err != nil {
		t.Fatal(err)
	}
	p := writeProfile(t, "http://"+addr+"/", 16, getBalance+stage("100/s", "4s"))
	var second *proctest.Proc
	restarted := make(chan error, 1)
	go func() {
		time.Sleep(time.Second)
		first.Kill()
		time.Sleep(1200 * time.Millisecond) // past t=2s, so the timeline's seconds 2+ are the new node's
		var err error
		second, err = startMockProcess(t, bin, addr, "--latency", "20ms")
		restarted <- err
	}()
	r := runCLI(t, nil, p)
	if err := <-restarted; err != nil {
		t.Fatalf("restarting the node on %s: %v", addr, err)
	}
	second.Stop(syscall.SIGTERM, 10*time.Second) // it prints its final counts
	mustRun(t, r, exitOK)
	checkComplete(t, r.snap)
	m := regexp.MustCompile(`mocknode stopped: \{"status":\{"200":(\d+)`).FindStringSubmatch(second.Out.String())
	if m == nil {
		t.Fatalf("no final counts from the restarted node: %s", second.Out)
	}
	after, _ := strconv.ParseInt(m[1], 10, 64)
	tot := r.snap.Totals
	gap := tot.Errors["refused"] + tot.Errors["reset"] + tot.Errors["eof"]
	t.Logf("status %v errors %v completed %d; the restarted node answered %d", tot.Status, tot.Errors, tot.Completed, after)
	var fromRestarted int64
	for _, row := range r.snap.Timeline {
		t.Logf("t=%ds 200s %d errors %v", row.T, row.Status["200"], row.Errors)
		if row.T >= 2 {
			fromRestarted += row.Status["200"]
		}
	}
	if tot.Completed != 400 || tot.Scheduled != 400 {
		t.Errorf("completed %d of %d scheduled, want all 400", tot.Completed, tot.Scheduled)
	}
	if gap < 80 || gap > 250 || len(tot.Errors) != len(pick(tot.Errors, "refused", "reset", "eof")) {
		t.Errorf("errors %v for a 1.2 s gap at 100/s; want about 120 refused, reset or eof", tot.Errors)
	}
	// The restarted node's answers all came in seconds 2 and later; what came before is the
	// first node's (about 100, a second's worth, which SIGKILL kept from telling).
	if fromRestarted != after {
		t.Errorf("rpcstress got %d answers from t=2s on, the restarted node answered %d", fromRestarted, after)
	}
	if after < 100 {
		t.Errorf("only %d answers after the restart: the run did not recover", after)
	}
	if before := tot.Status["200"] - after; before < 60 || before > 120 {
		t.Errorf("%d answers before the kill; want about 100", before)
	}
}

// pick returns the entries of m under the given keys.
func pick(m map[string]int64, keys ...string) map[string]int64 {
	out := map[string]int64{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

// memSample is the process's memory at one moment.
type memSample struct {
	heap uint64 // runtime HeapInuse, bytes
	rss  uint64 // VmRSS, bytes (0 where /proc is missing)
}

func readMem() memSample {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := memSample{heap: ms.HeapInuse}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseUint(f[1], 10, 64)
				m.rss = kb << 10
			}
		}
	}
	return m
}

// raceEnabled reports whether the test binary was built with -race.
func raceEnabled() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" {
				return s.Value == "true"
			}
		}
	}
	return false
}

// TestFaultSlowTarget: a node that answers after 3 s, asked for 2,000 req/s with 256
// connections and a 1 s timeout. The pool keeps 256 in flight, each times out; due requests
// wait in the backlog (here 2,000) and beyond it are counted dropped; at the end the drain gives
// up after timeout + 2 s and what the backlog still holds is dropped too. Memory stays bounded.
func TestFaultSlowTarget(t *testing.T) {
	const conns, backlog = 256, 2000
	_, url := startNode(t, mocknode.Config{Latency: 3 * time.Second})
	p := writeProfile(t, url, conns, fmt.Sprintf("backlog = %d\n", backlog)+getBalance+stage("2000/s", "3s"))

	runtime.GC()
	before := readMem()
	peak := before
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				m := readMem()
				peak.heap, peak.rss = max(peak.heap, m.heap), max(peak.rss, m.rss)
			}
		}
	}()
	start := time.Now()
	r := runCLI(t, nil, p, "--timeout", "1s")
	took := time.Since(start)
	close(stop)
	<-sampled
	runtime.GC()
	after := readMem()
	const mib = 1 << 20
	t.Logf("took %s; heap in use %.1f MiB before, %.1f MiB peak, %.1f MiB after; RSS %.1f MiB before, %.1f MiB peak, %.1f MiB after",
		took.Round(time.Millisecond), float64(before.heap)/mib, float64(peak.heap)/mib, float64(after.heap)/mib,
		float64(before.rss)/mib, float64(peak.rss)/mib, float64(after.rss)/mib)

	mustRun(t, r, exitOK)
	tot := r.snap.Totals
	t.Logf("scheduled %d sent %d completed %d inflight %d dropped %d errors %v", tot.Scheduled, tot.Sent, tot.Completed, tot.Inflight, tot.Dropped, tot.Errors)
	if tot.Scheduled != 6000 {
		t.Errorf("scheduled %d, want 6000: the schedule is open loop, answers do not slow it", tot.Scheduled)
	}
	if tot.Errors["timeout"] != tot.Completed || tot.Completed < 2*conns || len(tot.Status) != 0 {
		t.Errorf("errors %v status %v completed %d: want every completed request a timeout, at least %d", tot.Errors, tot.Status, tot.Completed, 2*conns)
	}
	// The pool sends at most one request per connection per timeout: 256 × (6 s / 1 s + 1).
	if maxSent := int64(conns * 7); tot.Sent > maxSent {
		t.Errorf("sent %d: more than %d connections could send in the run", tot.Sent, conns)
	}
	var rowDrops, rowInflight int64
	for _, row := range r.snap.Timeline {
		rowDrops += row.Dropped
		rowInflight = max(rowInflight, row.Inflight)
	}
	// A row's in-flight figure is sent − completed when the second closes; it can run ahead of
	// the pool by the answers still queued for the aggregator (under -race on a busy machine, a
	// whole wave of 256), so only the final figure is held to the pool's bound.
	t.Logf("timeline: drops add up to %d, in flight at most %d", rowDrops, rowInflight)
	if rowDrops != tot.Dropped {
		t.Errorf("timeline drops add up to %d, totals say %d", rowDrops, tot.Dropped)
	}
	if tot.Inflight > conns {
		t.Errorf("%d in flight at the end with %d connections", tot.Inflight, conns)
	}
	// Bounded drain: sending the 2,000 requests left in the backlog would take 8 s at 256 per
	// second; the drain gives up after timeout + 2 s = 3 s and counts them dropped.
	abandoned := int64(-1)
	never := regexp.MustCompile(`(\d+) never sent from the backlog are counted dropped`)
	for _, e := range r.snap.Events {
		if m := never.FindStringSubmatch(e.Detail); e.Kind == "drain" && strings.Contains(e.Detail, "gave up waiting after 3s") && m != nil {
			abandoned, _ = strconv.ParseInt(m[1], 10, 64)
			t.Logf("event at %.1fs: %s", e.T, e.Detail)
		}
	}
	if abandoned < 0 {
		t.Fatalf("no drain event saying it gave up after 3s: %+v", r.snap.Events)
	}
	// The backlog holds at most `backlog`: what it held when the drain gave up is at most that,
	// and during the plan everything beyond the backlog and what the pool could send (256 per
	// second for 3 s, plus the first 256) was dropped at once.
	if abandoned > backlog {
		t.Errorf("%d requests left in a backlog of %d", abandoned, backlog)
	}
	if during, least := tot.Dropped-abandoned, tot.Scheduled-backlog-int64(conns*4); during < least {
		t.Errorf("%d dropped during the plan; at least %d should have been (scheduled %d − backlog %d − what %d connections can send)",
			during, least, tot.Scheduled, backlog, conns)
	}
	if took > 15*time.Second {
		t.Errorf("took %s: the plan is 3 s and the drain is bounded by timeout + 2 s", took)
	}
	// Bounded memory: the backlog is 2,000 small jobs, the pool 256 connections with their
	// buffers; the figure is tens of MiB at most, nothing that grows with the 6,000 requests.
	if grow := int64(peak.heap) - int64(before.heap); grow > 64*mib {
		t.Errorf("heap grew by %.1f MiB during the run", float64(grow)/mib)
	}
	// RSS only without the race detector, whose shadow memory multiplies it several times.
	if peak.rss > 0 && !raceEnabled() && peak.rss-min(before.rss, peak.rss) > 128*mib {
		t.Errorf("RSS grew by %.1f MiB during the run", float64(peak.rss-before.rss)/mib)
	}
}

// rudeServer is a raw TCP server on 127.0.0.1 that answers every connection with serve
// (internal/hostile's accept loop); close stops accepting, closes the connections and waits.
type rudeServer struct{ *hostile.Server }

func startRude(t *testing.T, serve func(c net.Conn, r *bufio.Reader)) *rudeServer {
	t.Helper()
	return &rudeServer{hostile.Start(t, hostile.Config{Serve: serve})}
}

func (s *rudeServer) url() string { return s.URL }

func (s *rudeServer) close() { s.Close() }

// readRequest reads one HTTP request (headers and Content-Length body) and reports whether it
// got one.
func readRequest(r *bufio.Reader) bool {
	n := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return false
		}
		if strings.TrimSpace(line) == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "Content-Length") {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	_, err := io.CopyN(io.Discard, r, int64(n))
	return err == nil
}

// waitGoroutines waits until the goroutine count is back near base (fasthttp's idle-connection
// cleaner and the runtime's own may take a few seconds to go) and returns the count.
func waitGoroutines(base, slack int, within time.Duration) int {
	deadline := time.Now().Add(within)
	for {
		n := runtime.NumGoroutine()
		if n <= base+slack || time.Now().After(deadline) {
			return n
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestFaultRudeTargets: servers that answer garbage, far too much, nothing, or half an answer.
// Each request is classified (malformed, toolarge, timeout, eof), the run ends normally, and no
// goroutine is left behind once the run and the server are gone.
func TestFaultRudeTargets(t *testing.T) {
	body := strings.Repeat("x", 64<<10)
	// The timeout is 2 s, far above what these servers take to be rude, so a busy machine
	// cannot turn their answers into timeouts; the silent one gets 300 ms to keep the test short.
	tests := []struct {
		name    string
		class   string
		timeout string
		serve   func(c net.Conn, r *bufio.Reader)
	}{
		{"malformed", "malformed", "2s", func(c net.Conn, r *bufio.Reader) {
			for readRequest(r) {
				if _, err := io.WriteString(c, "HTTP/1.1 2OO OK\r\nContent-Length: 2\r\n\r\n{}"); err != nil {
					return
				}
			}
		}},
		{"body-over-cap", "toolarge", "2s", func(c net.Conn, r *bufio.Reader) {
			// 10 MiB announced against a 1 KiB cap, and the first 64 KiB of it sent.
			for readRequest(r) {
				if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n"+body); err != nil {
					return
				}
			}
		}},
		{"chunked-over-cap", "toolarge", "2s", func(c net.Conn, r *bufio.Reader) {
			// No length announced: the cap must stop a body that just keeps coming.
			for readRequest(r) {
				if _, err := io.WriteString(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"); err != nil {
					return
				}
				for i := 0; i < 160; i++ { // 10 MiB in 64 KiB chunks, unless the client hangs up
					if _, err := fmt.Fprintf(c, "%x\r\n%s\r\n", len(body), body); err != nil {
						return
					}
				}
				if _, err := io.WriteString(c, "0\r\n\r\n"); err != nil {
					return
				}
			}
		}},
		{"never-answers", "timeout", "300ms", func(c net.Conn, r *bufio.Reader) {
			_, _ = io.Copy(io.Discard, r) // read everything, say nothing, until closed
		}},
		{"closes-after-headers", "eof", "2s", func(c net.Conn, r *bufio.Reader) {
			if readRequest(r) {
				_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runtime.GC()
			base := runtime.NumGoroutine()
			srv := startRude(t, tt.serve)
			p := writeProfile(t, srv.url(), 16, "max_body = \"1KiB\"\n"+getBalance+stage("100/s", "500ms"))
			r := runCLI(t, nil, p, "--timeout", tt.timeout)
			srv.close()
			mustRun(t, r, exitOK)
			checkComplete(t, r.snap)
			tot := r.snap.Totals
			t.Logf("status %v errors %v completed %d", tot.Status, tot.Errors, tot.Completed)
			if tot.Completed != 50 || tot.Errors[tt.class] != 50 || tot.Failed != 50 {
				t.Errorf("completed %d errors %v status %v; want all 50 classified %q", tot.Completed, tot.Errors, tot.Status, tt.class)
			}
			if !strings.Contains(r.stdout, tt.class) {
				t.Errorf("the report does not name %q", tt.class)
			}
			const slack = 3
			if n := waitGoroutines(base, slack, 8*time.Second); n > base+slack {
				buf := make([]byte, 1<<20)
				t.Errorf("%d goroutines after the run, %d before: a leak?\n%s", n, base, buf[:runtime.Stack(buf, true)])
			} else {
				t.Logf("goroutines: %d before, %d after", base, n)
			}
		})
	}
}

// TestE2EKill9LeavesPartialSnapshot: the snapshot file is rewritten while the run goes, so even
// kill -9 leaves a loadable one, marked "running".
func TestE2EKill9LeavesPartialSnapshot(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	out := filepath.Join(t.TempDir(), "run.json")
	p, err := proctest.Start(t, exec.Command(bin, "--demo", "--headless", "--rate", "200/s", "--duration", "60s", "--save-every", "500ms", "--out", out))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	var snap *engine.Snapshot
	for time.Now().Before(deadline) {
		time.Sleep(300 * time.Millisecond)
		if s, err := readSnapshot(t, out); err == nil && s.Totals.Completed >= 300 {
			snap = s
			break
		}
	}
	if snap == nil {
		t.Fatal("no periodic snapshot with 300 answers within 20 s")
	}
	p.Kill()
	s := loadRun(t, out) // it loads after kill -9
	if s.EndReason != engine.EndRunning || s.Totals.Completed < 300 {
		t.Errorf("end reason %q, completed %d", s.EndReason, s.Totals.Completed)
	}
}

// TestBinarySignals: the built binary, run headless against its demo node, gets SIGINT, SIGTERM
// or SIGHUP by PID mid-run: it drains, writes a valid snapshot with the signal as end reason and
// exits with 128 + the signal number.
func TestBinarySignals(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	firstRow := regexp.MustCompile(`(?m)^\s+1s\s+\d`) // "   1s   250/s …": the row of second 1
	for _, s := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(signalName(s), func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "run.json")
			cmd := exec.Command(bin, "--demo", "--headless", "--out", out)
			var stdout syncBuffer
			cmd.Stdout = &stdout
			p, err := proctest.Start(t, cmd)
			if err != nil {
				t.Fatal(err)
			}
			stderr := p.Out
			if err := p.Await(10*time.Second, "second timeline row", func() bool { return firstRow.MatchString(stdout.String()) }); err != nil {
				t.Fatalf("%v\nstdout: %s", err, stdout.String())
			}
			sent := time.Now()
			if err := p.Signal(s); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Exited():
			case <-time.After(20 * time.Second):
				t.Fatalf("still running 20 s after %s", signalName(s))
			}
			code := cmd.ProcessState.ExitCode()
			t.Logf("%s: exit %d after %s", signalName(s), code, time.Since(sent).Round(time.Millisecond))
			if want := 128 + int(s); code != want {
				t.Errorf("exit %d, want %d\nstderr: %s", code, want, stderr.String())
			}
			snap, err := readSnapshot(t, out)
			if err != nil {
				t.Fatalf("snapshot: %v\nstdout: %s", err, stdout.String())
			}
			if snap.EndReason != "signal:"+signalName(s) {
				t.Errorf("end reason %q", snap.EndReason)
			}
			if err := snap.Totals.CheckInvariant(); err != nil || snap.Totals.Completed == 0 || snap.Totals.Inflight != 0 {
				t.Errorf("totals: %v, completed %d, inflight %d", err, snap.Totals.Completed, snap.Totals.Inflight)
			}
			checkComplete(t, snap)
			if !strings.Contains(stdout.String(), "snapshot: "+out) {
				t.Errorf("the output does not say where the snapshot went:\n%s", stdout.String())
			}
		})
	}
}

// TestBinaryTooFewFiles: with a hard file limit of 64, a profile asking for 1,000 connections is
// refused before any request, with exit 3 and a message that says to raise ulimit -n.
func TestBinaryTooFewFiles(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	p := writeProfile(t, "http://"+closedPort(t)+"/", 1000, getBalance+stage("10/s", "1s"))
	out := filepath.Join(t.TempDir(), "run.json")
	// ulimit -n sets the soft and the hard limit, so rpcstress cannot raise it back.
	cmd := exec.Command("sh", "-c", `ulimit -n 64 && exec "$0" "$@"`, bin, p, "--headless", "--out", out)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	t.Logf("exit %d (%v); stderr: %s", code, err, stderr.String())
	if code != exitRunFailed {
		t.Errorf("exit %d, want %d\nstdout: %s", code, exitRunFailed, stdout.String())
	}
	msg := stderr.String()
	for _, want := range []string{"connections = 1000", "ulimit -n", "hard limit 64"} {
		if !strings.Contains(msg, want) {
			t.Errorf("stderr %q lacks %q", msg, want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a snapshot was written for a run that never started")
	}
}
