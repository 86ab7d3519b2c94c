package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
	"github.com/rpcstress/rpcstress/schema"
)

// The harness of the end-to-end tests (the e2e_*_test.go files): they run the real CLI code
// path (flags → profile → engine → lines → report → snapshot) in process, or the built binary
// where only a process of its own shows it, against the mock node or a hostile target on
// 127.0.0.1, and hold rpcstress's counts against the target's own.
//
// Which run in parallel. A test that asserts only counts, errors and output calls t.Parallel:
// its runs are bounded by the clock, not the CPU, so they wait side by side. A test that
// asserts a rate, a latency, or something the whole process shares stays serial (Go runs all
// serial tests first, then the parallel ones, so a serial test never shares the machine with
// them):
//   - TestE2ERateAccuracy (the rate within 2 %), TestE2EStallShowsInLatencyNotService (service
//     p99 under 50 ms), the find-limit searches (a scheduler waking 10 ms late marks a second
//     saturated, and two such seconds fail a probe), the nginx tests (limit_req's arithmetic
//     within ±3 requests, and latencies);
//   - TestFindLimitBudgetAndReport: its budget allows the first probe 0.7 s over its plan;
//   - TestThresholdsPass and TestThresholdsFail: a stage's rps above 190 at 200/s (beside 16
//     other tests it read 177);
//   - TestE2ELimiterCountsMatchNode: no 429 at 200/s under a limit of 400/s with a burst of
//     100, which a sender stalled for half a second would overflow;
//   - TestFaultTargetRestarted and TestFaultTargetKilled: the node comes back 200 ms past the
//     timeline second its answers are held to;
//   - TestFaultSlowTarget (the process's heap and RSS) and TestFaultRudeTargets (the
//     process's goroutines): what other tests hold would be counted as theirs;
//   - TestE2ETargetsStdin changes the working directory (t.Chdir), which Go allows only to a
//     test that runs alone.

// syncBuffer collects output written from the run's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// cliRun is what one in-process run of rpcstress left: its exit status, its output and the
// snapshot it wrote (nil if none) at out.
type cliRun struct {
	code           int
	stdout, stderr string
	snap           *engine.Snapshot
	out            string
}

// cliSetup is what an in-process rpcstress reads besides its arguments. The zero value reads
// nothing: no standard input, an empty environment, and no signal ever comes.
type cliSetup struct {
	stdin io.Reader
	env   map[string]string
	sig   chan os.Signal
}

// newCLI is rpcstress in process as set up, writing into the returned buffers.
func (s cliSetup) newCLI() (c *cli, stdout, stderr *syncBuffer) {
	stdout, stderr = &syncBuffer{}, &syncBuffer{}
	sig := s.sig
	if sig == nil {
		sig = make(chan os.Signal)
	}
	getenv := func(k string) (string, bool) { v, ok := s.env[k]; return v, ok }
	return &cli{stdin: s.stdin, stdout: stdout, stderr: stderr, getenv: getenv, signals: sig}, stdout, stderr
}

// start runs rpcstress with args in the background; a run (anything but validate) also gets
// --headless and --out, a file in a temporary folder of the test's.
func (s cliSetup) start(t *testing.T, args ...string) *asyncRun {
	t.Helper()
	c, stdout, stderr := s.newCLI()
	r := &asyncRun{code: make(chan int, 1), out: filepath.Join(t.TempDir(), "run.json"), stdout: stdout, stderr: stderr}
	if len(args) == 0 || args[0] != "validate" {
		args = append(args, "--headless", "--out", r.out)
	}
	go func() { r.code <- c.main(context.Background(), args) }()
	return r
}

// run is start, then the end of the run, however long it takes.
func (s cliSetup) run(t *testing.T, args ...string) cliRun {
	t.Helper()
	return s.start(t, args...).wait(t, 0)
}

// runCLI runs rpcstress with args plus --headless and --out into a temp dir; sig, if not nil,
// feeds signals.
func runCLI(t *testing.T, sig chan os.Signal, args ...string) cliRun {
	t.Helper()
	return cliSetup{sig: sig}.run(t, args...)
}

// startCLI runs rpcstress headless like runCLI, in the background, so the test can send
// signals meanwhile.
func startCLI(t *testing.T, sig chan os.Signal, args ...string) *asyncRun {
	t.Helper()
	return cliSetup{sig: sig}.start(t, args...)
}

// runVerb runs rpcstress in process with exactly args (no --headless or --out added): the
// verbs, usage errors, and runs that name their own output.
func runVerb(t *testing.T, args ...string) cliRun {
	t.Helper()
	c, stdout, stderr := cliSetup{}.newCLI()
	code := c.main(t.Context(), args)
	return cliRun{code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// asyncRun is rpcstress running in the background (see cliSetup.start).
type asyncRun struct {
	code           chan int
	out            string
	stdout, stderr *syncBuffer
}

// wait waits up to limit (0: however long it takes) for the run to exit and reads its
// snapshot, if any.
func (a *asyncRun) wait(t *testing.T, limit time.Duration) cliRun {
	t.Helper()
	var timeout <-chan time.Time // nil: never
	if limit > 0 {
		timeout = time.After(limit)
	}
	r := cliRun{out: a.out}
	select {
	case r.code = <-a.code:
	case <-timeout:
		t.Fatalf("rpcstress still runs after %s\nstdout: %s\nstderr: %s", limit, a.stdout.String(), a.stderr.String())
	}
	r.stdout, r.stderr = a.stdout.String(), a.stderr.String()
	if _, err := os.Stat(a.out); err == nil {
		s, err := readSnapshot(t, a.out)
		if err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		r.snap = s
	}
	return r
}

// signalAfter is a signal channel for cliSetup that gets sig once at each offset from now, as
// from a person or a supervisor; it never blocks the sender.
func signalAfter(sig syscall.Signal, after ...time.Duration) chan os.Signal {
	ch := make(chan os.Signal, len(after))
	start := time.Now()
	go func() {
		for _, d := range after {
			time.Sleep(time.Until(start.Add(d)))
			ch <- sig
		}
	}()
	return ch
}

// writeFile writes text to a file name (a path relative to dir, its folders made) in dir and
// returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// startNode starts the mock node on a free loopback port for the test and returns it with its URL.
func startNode(t *testing.T, cfg mocknode.Config) (*mocknode.Node, string) {
	return nodetest.Start(t, cfg)
}

// writeProfile writes a profile with the given stages and request section against url.
func writeProfile(t *testing.T, url string, connections int, body string) string {
	t.Helper()
	return writeFile(t, t.TempDir(), "p.toml", fmt.Sprintf("name = \"e2e\"\nurl = %q\ntimeout = \"2s\"\nconnections = %d\n%s\n", url, connections, body))
}

// stage is the TOML of one [[stage]] of a plan.
func stage(rate, duration string) string {
	return fmt.Sprintf("[[stage]]\nrate = %q\nduration = %q\n", rate, duration)
}

// getBalance is the request section most tests send: one Solana getBalance call.
const getBalance = `
[[request]]
method = "getBalance"
params = ["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]
`

// mustRun fails the test unless the run exited with code, wrote a snapshot whose books
// balance, and printed the invariant holding.
func mustRun(t *testing.T, r cliRun, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstderr: %s\nstdout: %s", r.code, code, r.stderr, r.stdout)
	}
	if r.snap == nil {
		t.Fatalf("no snapshot written\nstdout: %s", r.stdout)
	}
	if err := r.snap.Totals.CheckInvariant(); err != nil {
		t.Fatalf("invariant: %v", err)
	}
	if !strings.Contains(r.stdout, "Invariant ✓") {
		t.Errorf("the report does not show the invariant holding:\n%s", r.stdout)
	}
}

// setTimeout rewrites the timeout of a profile made by writeProfile.
func setTimeout(t *testing.T, path, timeout string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `timeout = "2s"`, fmt.Sprintf("timeout = %q", timeout), 1)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// closedPort is an address on 127.0.0.1 where nothing listens (a port just freed).
func closedPort(t *testing.T) string {
	t.Helper()
	return freeLoopbackAddr(t)
}

// TestMain lets more parallel tests run at once (see clockParallel), runs the package's tests,
// then removes what they shared (the binary buildBinary built once for all of them).
func TestMain(m *testing.M) {
	flag.Parse()
	n := clockParallel
	if raceDetector {
		// Under -race the tester itself runs several times slower: 16 runs at once on 2 cores
		// starved them (a 200/s run completed 39 answers in 0.7 s, a stage read 145 rps
		// against > 150), so fewer share the CPU.
		n = raceParallel
	}
	if err := raiseParallel(n); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	code := m.Run()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// clockParallel is how many parallel tests run at once when -parallel is not given. Go's
// default is GOMAXPROCS (2 on a small machine), right for tests that use the CPU; the
// parallel tests here wait on the clock (a run of a second or two, a dashboard in tmux, a
// browser), so on 2 cores 2 at a time took 28 s where 16 at a time take 6 s, using the CPU
// no more in all. -parallel N on the command line still decides.
const clockParallel = 16

// raceParallel is clockParallel under the race detector.
const raceParallel = 4

// raiseParallel sets -test.parallel to n unless the command line gave it or it is higher.
func raiseParallel(n int) error {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	f := flag.Lookup("test.parallel")
	if given || f == nil {
		return nil
	}
	if cur, err := strconv.Atoi(f.Value.String()); err == nil && cur >= n {
		return nil
	}
	if err := flag.Set("test.parallel", strconv.Itoa(n)); err != nil {
		return fmt.Errorf("setting -test.parallel: %w", err)
	}
	return nil
}

// built is the rpcstress binary, built at most once per run of the package's tests: each
// `go build` costs seconds of linking on a small machine, and the tests that need a process
// of their own (exit status, signals from outside, resource limits, a real terminal) all
// run the same code. TestMain removes it.
var built struct {
	once sync.Once
	dir  string // the temporary directory holding it
	path string
	err  error
}

// buildBinary returns the real binary, built on first use, for what only a separate process
// shows. The first caller builds it; others wait for that build and share it.
func buildBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "rpcstress-e2e-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		bin := filepath.Join(dir, "rpcstress")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
			return
		}
		built.path = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// freeLoopbackAddr finds a free port on 127.0.0.1 (for nginx, or a node started on a known
// address). Another process may take it before it is bound again; startNginx then fails with
// nginx's own "Address already in use".
func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// The published schemas, compiled once for all the tests of the package.
var (
	schemasOnce sync.Once
	schemas     *schema.Schemas
	schemasErr  error
)

// checkSchema holds a document rpcstress wrote against its published schema
// (schema/snapshot.v1.json, schema/summary.v1.json).
func checkSchema(t *testing.T, k schema.Kind, doc []byte, what string) {
	t.Helper()
	schemasOnce.Do(func() { schemas, schemasErr = schema.Compile() })
	if schemasErr != nil {
		t.Fatal(schemasErr)
	}
	if err := schemas.Validate(k, doc); err != nil {
		t.Errorf("%s does not match its schema: %v", what, err)
	}
}

// readSnapshot reads a snapshot the CLI wrote, as engine.ReadSnapshot does, after holding the
// file against schema/snapshot.v1.json: every snapshot the end-to-end tests see passes
// through here, so each way of running (stages, closed loop, signals, the dashboard,
// find-limit, merge) is checked against the contract.
func readSnapshot(t *testing.T, path string) (*engine.Snapshot, error) {
	t.Helper()
	if data, err := os.ReadFile(path); err == nil {
		checkSchema(t, schema.Snapshot, data, path)
	}
	return engine.ReadSnapshot(path)
}
