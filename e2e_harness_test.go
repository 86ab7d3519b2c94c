package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/syncbuf"
)

// The harness of the end-to-end tests (the e2e_*_test.go files): they run the real CLI code
// path (flags → profile → engine → lines → report → snapshot) in process, or the built binary
// where only a process of its own shows it, against the mock node or a hostile target on
// 127.0.0.1, and hold rpcstress's counts against the target's own. Which of them run in
// parallel, and the binary they share, are in e2e_main_test.go.

// syncBuffer collects output written from the run's goroutines.
type syncBuffer = syncbuf.Buffer

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
	// asIs: the arguments exactly as given, no --headless or --out added (a verb, a usage
	// error, a run that names its own output).
	asIs bool
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

// start runs rpcstress with args in the background; a run (anything but validate), unless
// asIs, also gets --headless and --out, a file in a temporary folder of the test's.
func (s cliSetup) start(t *testing.T, args ...string) *asyncRun {
	t.Helper()
	if s.sig == nil {
		s.sig = make(chan os.Signal, 1) // for interrupt
	}
	c, stdout, stderr := s.newCLI()
	r := &asyncRun{code: make(chan int, 1), sig: s.sig, stdout: stdout, stderr: stderr}
	if !s.asIs && (len(args) == 0 || args[0] != "validate") {
		r.out = filepath.Join(t.TempDir(), "run.json")
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
	return cliSetup{asIs: true}.run(t, args...)
}

// asyncRun is rpcstress running in the background (see cliSetup.start).
type asyncRun struct {
	code           chan int
	sig            chan os.Signal // what it reads its signals from
	out            string
	stdout, stderr *syncBuffer
}

// interrupt is Ctrl-C: SIGINT to the run.
func (a *asyncRun) interrupt() { a.sig <- os.Interrupt }

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

// awaitStderr waits up to within until rpcstress's standard error, so far, satisfies ready
// (a word it says once under way), and fails the test, with what it said, if it never does:
// a sign to wait for, not a fixed wait, which a busy machine outlasts.
func (a *asyncRun) awaitStderr(t *testing.T, within time.Duration, what string, ready func(stderr string) bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !ready(a.stderr.String()); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %s: stderr %q", what, within, a.stderr.String())
		}
	}
}

// signalAfter is a signal channel for cliSetup that gets sig once at each offset from now, as
// from a person or a supervisor; it never blocks the sender.
func signalAfter(sig os.Signal, after ...time.Duration) chan os.Signal {
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

// scrape reads one Prometheus exposition of url (rpcstress's --metrics-listen, a node's
// metrics) into its series, each named with its labels but for run, shard and target:
// `rpcstress_requests_total{outcome="ok"}`, `rpc_requests{}`.
func scrape(url string) (map[string]float64, error) {
	resp, err := http.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	dec := expfmt.NewDecoder(bytes.NewReader(body), expfmt.ResponseFormat(resp.Header))
	out := map[string]float64{}
	for {
		var mf dto.MetricFamily
		if err := dec.Decode(&mf); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		vec, err := expfmt.ExtractSamples(&expfmt.DecodeOptions{Timestamp: model.Now()}, &mf)
		if err != nil {
			return nil, err
		}
		for _, s := range vec {
			m := s.Metric.Clone()
			for _, l := range []model.LabelName{"run", "shard", "target"} {
				delete(m, l)
			}
			name := m[model.MetricNameLabel]
			delete(m, model.MetricNameLabel)
			out[string(name)+m.String()] = float64(s.Value)
		}
	}
}
