package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/gethtest"
)

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
