package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/rpcstress/rpcstress/internal/proctest"
)

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
//   - TestE2EPrometheus: Prometheus's rate of the run within 2 % of the achieved rate;
//   - TestE2ETargetsStdin changes the working directory (t.Chdir), which Go allows only to a
//     test that runs alone;
//   - TestE2EWatchGeth: geth's CPU per second against /proc's, and its calls per second
//     against the rate achieved.

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
// browser), so on 2 cores 2 at a time took 28 s where 16 at a time took 6 s, using the CPU
// no more in all. Since the parallel tests include real nodes (geth, nginx, 200 WebSocket
// subscribers), 16 at once starved some runs' drains on 2 cores: 8. -parallel N on the command
// line still decides.
const clockParallel = 8

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
func buildBinary(t testing.TB) string {
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

// requireProgram finds a program the tests drive: the first of names found on PATH (or a
// name that is a path). Where none is, the test is skipped, saying how to install one (why),
// except under CI, where it fails: .ci/run installs them, so one missing means the CI setup
// broke and what it checks would go unchecked.
func requireProgram(t *testing.T, why string, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s not found and CI is set: .ci/run installs it; the CI setup is broken", names[0])
	}
	t.Skipf("%s not found: %s", names[0], why)
	return ""
}

// longScenario skips a scenario that takes minutes of wall time (a slow limiter searched
// probe by probe) unless CI is set or RPCSTRESS_LONG=1: `go test ./...` stays a few minutes
// on a laptop, and CI (.ci/run) runs every one of them.
func longScenario(t *testing.T, about string) {
	t.Helper()
	if os.Getenv("CI") == "" && os.Getenv("RPCSTRESS_LONG") == "" {
		t.Skipf("%s of wall time: runs in CI, or here with RPCSTRESS_LONG=1", about)
	}
}

// closedPort is an address on 127.0.0.1 where nothing listens (a port just freed).
func closedPort(t testing.TB) string {
	t.Helper()
	return proctest.FreeAddr(t)
}
