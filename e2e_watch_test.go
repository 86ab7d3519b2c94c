package main

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/gethtest"
	"github.com/rpcstress/rpcstress/internal/proctest"
)

// startSleeper starts `sleep secs` for the test (killed at its end) and returns its pid; it is
// reaped when it exits, so its pid is gone then.
func startSleeper(t *testing.T, secs string) int {
	t.Helper()
	p, err := proctest.Start(t, exec.Command("sleep", secs))
	if err != nil {
		t.Skip("no sleep:", err)
	}
	return p.Cmd.Process.Pid
}

// metricsEndpoint serves a node's metrics: a head that climbs by one a scrape and a running
// count of calls (a gauge, as go-ethereum exports it), and counts its scrapes.
func metricsEndpoint(t *testing.T) (url string, scrapes *atomic.Int64) {
	t.Helper()
	scrapes = &atomic.Int64{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := scrapes.Add(1)
		fmt.Fprintf(w, "# TYPE chain_head_block gauge\nchain_head_block %d\n# TYPE rpc_requests gauge\nrpc_requests %d\n", 1000+n, 100*n)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/debug/metrics/prometheus", scrapes
}

// TestE2EWatch: a run watches two processes (one named in the profile by its pid, one by a pid
// file on the command line, which exits a second in) and a node's metrics. Each second of the
// timeline has their readings, the one that exits is an event and the run goes on (exit 0),
// the snapshot says what was watched and sums it per stage, and the report shows it.
func TestE2EWatch(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	metrics, scrapes := metricsEndpoint(t)
	stay, quit := startSleeper(t, "30"), startSleeper(t, "1.3")
	dir := t.TempDir()
	pidFile := writeFile(t, dir, "node.pid", strconv.Itoa(quit)+"\n")
	p := writeFile(t, dir, "p.toml", fmt.Sprintf("name = \"e2e\"\nurl = %q\nwatch = [%d]\n%s%s[node_metrics]\nurl = %q\nseries = [\"chain_head_block\", \"rate(rpc_requests)\"]\n",
		url, stay, getBalance, stage("100/s", "2.5s"), metrics))
	r := runCLI(t, nil, p, "--watch-pid", pidFile)
	mustRun(t, r, exitOK)
	w := r.snap.Watch
	if w == nil || len(w.Procs) != 2 || w.Procs[0].PID != stay || w.Procs[0].Label != "sleep" || w.Procs[1].PID != quit || w.Procs[1].Label != "sleep#2" {
		t.Fatalf("watched %+v", w)
	}
	if w.Procs[1].ExitedAt == nil || w.Procs[0].ExitedAt != nil {
		t.Errorf("exited: %v and %v", w.Procs[0].ExitedAt, w.Procs[1].ExitedAt)
	}
	if m := w.Metrics; m == nil || m.Scrapes < 3 || m.Failures != 0 || m.Series[0].Kind != "gauge" || m.Series[1].Kind != "counter" || int64(m.Scrapes) > scrapes.Load() {
		t.Errorf("metrics %+v (the endpoint counted %d scrapes)", m, scrapes.Load())
	}
	for _, row := range r.snap.Timeline[:2] {
		rw := row.Watch
		if rw == nil || len(rw.Procs) != 2 || rw.Procs[0] == nil || rw.Self == nil || rw.Self.RSS == 0 || len(rw.Series) != 2 || rw.Series[0] == nil {
			t.Errorf("second %d: %+v", row.T, rw)
		}
	}
	if last := r.snap.Timeline[2].Watch; last == nil || last.Procs[1] != nil {
		t.Errorf("the exited process read after it exited: %+v", last)
	}
	if st := w.Stages; len(st) != 1 || st[0].Seconds < 2 || st[0].Procs[0] == nil || st[0].Self == nil || st[0].Series[1] == nil {
		t.Errorf("stages %+v", st)
	}
	found := false
	for _, e := range r.snap.Events {
		found = found || e.Kind == "watch" && strings.Contains(e.Detail, fmt.Sprintf("sleep#2 (pid %d) exited", quit))
	}
	if !found {
		t.Errorf("no event of the exit in %+v", r.snap.Events)
	}
	for _, want := range []string{"Node resources per stage", "sleep#2", "rpcstress", "Node metrics per stage", "rate(rpc_requests)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestE2EWatchBadInput: naming what is not there is bad input, said before anything is sent
// (exit 2, the node asked nothing), with where it was named and what to do.
func TestE2EWatchBadInput(t *testing.T) {
	t.Parallel()
	node, url := startNode(t, mocknode.Config{})
	dir := t.TempDir()
	profile := func(name, extra, tables string) string {
		return writeFile(t, dir, name, fmt.Sprintf("name = \"e2e\"\nurl = %q\n%s%s%s%s", url, extra, getBalance, stage("10/s", "1s"), tables))
	}
	plain := profile("plain.toml", "", "")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no such pid", []string{plain, "--watch-pid", "999999999"},
			"rpcstress: watch: --watch-pid 999999999: no process has pid 999999999 (it may have exited): check it with ps -p 999999999"},
		{"no such name", []string{profile("name.toml", "watch = [\"rpcswatch-nothing\"]\n", "")},
			`name.toml:3: watch[1] rpcswatch-nothing: no process named "rpcswatch-nothing" is running (looked for it as pgrep -x does): start it first, or give its pid or pid file`},
		{"missing pid file", []string{plain, "--watch-pid", filepath.Join(dir, "geth.pid")},
			"rpcstress: watch: --watch-pid " + filepath.Join(dir, "geth.pid") + ": pid file " + filepath.Join(dir, "geth.pid") + ": no such file or directory: give the file the node writes its pid to, or its pid"},
		{"metrics without a scheme", []string{plain, "--node-metrics", "127.0.0.1:6060/debug/metrics/prometheus"},
			`rpcstress: --node-metrics "127.0.0.1:6060/debug/metrics/prometheus": write the scheme too, e.g. http://127.0.0.1:6060/debug/metrics/prometheus`},
		{"metrics of another scheme", []string{plain, "--node-metrics", "ftp://127.0.0.1/metrics"},
			`rpcstress: --node-metrics: scheme "ftp" is not supported: use http:// or https://`},
		{"series without an endpoint", []string{profile("series.toml", "", "[node_metrics]\nseries = [\"chain_head_block\"]\n")},
			"series.toml:11: node_metrics.series: names series but no endpoint to scrape them from: add url to [node_metrics] or give --node-metrics URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, nil, tc.args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", r.code, r.stderr, tc.want)
			}
		})
	}
	if n := node.Stats().Requests; n != 0 {
		t.Errorf("the node was sent %d requests", n)
	}
}

// TestE2EWatchMetricsDown: an endpoint that does not answer is a warning before the run and
// counted failures during it, never a failed run.
func TestE2EWatchMetricsDown(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	dead := "http://" + closedPort(t) + "/debug/metrics/prometheus?token=s3cret"
	p := writeProfile(t, url, 8, getBalance+stage("50/s", "1.5s"))
	r := runCLI(t, nil, p, "--node-metrics", dead)
	mustRun(t, r, exitOK)
	if !strings.Contains(r.stderr, "rpcstress: warning: --node-metrics http://127.0.0.1:") || !strings.Contains(r.stderr, "/debug/metrics/prometheus: dial tcp") ||
		!strings.Contains(r.stderr, "connection refused: the run goes on, and counts the scrapes that fail") {
		t.Errorf("stderr %q", r.stderr)
	}
	if strings.Contains(r.stderr+r.stdout, "s3cret") {
		t.Error("the endpoint's token is shown")
	}
	if m := r.snap.Watch.Metrics; m == nil || m.Failures < 2 || m.Failures != m.Scrapes || !strings.Contains(m.LastError, "connection refused") {
		t.Errorf("metrics %+v", m)
	}
	if !strings.Contains(r.stdout, "Node metrics: none read (") || !strings.Contains(r.stdout, "scrapes failed)") {
		t.Errorf("the report does not show the failed scrapes:\n%s", r.stdout)
	}
}

// cpuTrace samples a process's CPU seconds from /proc/PID/stat (read here, with no code of
// rpcstress's: the ground truth shares none with what it checks) every 20 ms until stopped.
type cpuTrace struct {
	mu  sync.Mutex
	at  []time.Time
	cpu []float64
}

func traceCPU(t *testing.T, pid int) (trace *cpuTrace, stop func()) {
	t.Helper()
	trace = &cpuTrace{}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
			now := time.Now()
			if err == nil {
				s := string(b)
				f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
				ut, _ := strconv.ParseFloat(f[14-3], 64) // utime and stime: fields 14 and 15,
				st, _ := strconv.ParseFloat(f[15-3], 64) // in ticks of 1/100 s
				trace.mu.Lock()
				trace.at, trace.cpu = append(trace.at, now), append(trace.cpu, (ut+st)/100)
				trace.mu.Unlock()
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return trace, func() { close(done); <-stopped }
}

// at is the CPU seconds used by moment x, between the samples around it; ok is false outside
// the trace.
func (c *cpuTrace) atTime(x time.Time) (float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := 1; i < len(c.at); i++ {
		if !c.at[i].Before(x) {
			a, b := c.at[i-1], c.at[i]
			if x.Before(a) {
				return 0, false
			}
			f := float64(x.Sub(a)) / float64(b.Sub(a))
			return c.cpu[i-1] + f*(c.cpu[i]-c.cpu[i-1]), true
		}
	}
	return 0, false
}

// TestE2EWatchGeth loads a real go-ethereum node (geth --dev) while watching it, by its pid
// and its own --metrics endpoint. Each second's CPU rpcstress reads for geth is within a few
// points of what /proc says over the same second, sampled here on its own; geth's series are
// shown, and the calls geth counted per second (rate(rpc_requests)) are the rate rpcstress
// achieved. Serial: it measures.
func TestE2EWatchGeth(t *testing.T) {
	node := gethtest.StartWith(t, gethtest.Options{Metrics: true})
	trace, stop := traceCPU(t, node.PID)
	p := writeFile(t, t.TempDir(), "geth.toml", fmt.Sprintf(`name = "geth-watch"
url = %q
connections = 16
[[request]]
method = "eth_blockNumber"
[[request]]
method = "eth_getBalance"
params = [%q, "latest"]
[[stage]]
rate = "300/s"
duration = "3s"
[[stage]]
rate = "600/s"
duration = "3s"
[node_metrics]
url = %q
series = ["chain_head_block", "rate(rpc_requests)", "system_cpu_procload"]
`, node.URL, node.Dev, node.MetricsURL))
	r := runCLI(t, nil, p, "--watch-pid", strconv.Itoa(node.PID))
	stop()
	mustRun(t, r, exitOK)
	w := r.snap.Watch
	if w == nil || len(w.Procs) != 1 || w.Procs[0].Label != "geth" || w.Metrics == nil || w.Metrics.Failures != 0 {
		t.Fatalf("watched %+v", w)
	}
	var diffs []float64
	for i, row := range r.snap.Timeline {
		if row.Watch == nil && i == len(r.snap.Timeline)-1 {
			continue // the sliver of a second the run ended in: too short to read
		}
		if row.Watch == nil || row.Watch.Procs[0] == nil {
			t.Errorf("second %d: no reading of geth", row.T)
			continue
		}
		from := r.snap.StartedAt.Add(time.Duration(row.T) * time.Second)
		a, okA := trace.atTime(from)
		b, okB := trace.atTime(from.Add(time.Second))
		if !okA || !okB {
			continue // the run's last sliver, past the trace
		}
		truth, got := (b-a)*100, row.Watch.Procs[0].CPU
		t.Logf("second %d (stage %d): rpcstress reads geth at %.1f%% CPU, /proc says %.1f%%", row.T, row.Stage+1, got, truth)
		diffs = append(diffs, got-truth)
		if math.Abs(got-truth) > 6 {
			t.Errorf("second %d: %.1f%% against /proc's %.1f%%", row.T, got, truth)
		}
	}
	mean := 0.0
	for _, d := range diffs {
		mean += math.Abs(d)
	}
	mean /= float64(max(len(diffs), 1))
	t.Logf("over %d seconds: mean |rpcstress - /proc| = %.2f points; a scrape of geth's metrics took %.2f ms (%d scrapes)",
		len(diffs), mean, w.Metrics.ScrapeMs, w.Metrics.Scrapes)
	if len(diffs) < 5 || mean > 3 {
		t.Errorf("%d seconds compared, mean difference %.2f points", len(diffs), mean)
	}
	for i, st := range w.Stages {
		ser := st.Series
		if len(ser) != 3 || ser[0] == nil || ser[1] == nil {
			t.Fatalf("stage %d: series %+v", i+1, ser)
		}
		rps := r.snap.Stages[i].Summary.RPS
		t.Logf("stage %d: %.1f rps achieved, geth counted %.1f calls/s (max %.1f); geth CPU mean %.1f%%, max %.1f%%; head %.0f",
			i+1, rps, ser[1].Mean, ser[1].Max, st.Procs[0].CPUMean, st.Procs[0].CPUMax, ser[0].Max)
		if math.Abs(ser[1].Mean-rps) > 0.15*rps {
			t.Errorf("stage %d: geth counted %.1f calls a second, rpcstress achieved %.1f", i+1, ser[1].Mean, rps)
		}
	}
	if !strings.Contains(r.stdout, "geth") || !strings.Contains(r.stdout, "rate(rpc_requests)") {
		t.Errorf("the report lacks geth:\n%s", r.stdout)
	}
}
