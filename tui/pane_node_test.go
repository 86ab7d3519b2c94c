package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
)

// watched adds the node to a view: geth on 2 cores (its CPU climbing from 40 % to 104 %, its
// memory from 1.2 GB by 10 MB a second), nginx (exited at 30 s), rpcstress itself (busy at
// 175 % in the last second, past 80 % of its 2 cores), and two series of the node's metrics,
// the last scrape of 60 failed.
func watched(st *engine.Stats) {
	exited := 30.0
	st.Watch = &engine.WatchInfo{Cores: 2,
		Procs: []engine.WatchedProc{
			{Spec: "geth", Label: "geth", PID: 4242},
			{Spec: "nginx", Label: "nginx", PID: 4343, ExitedAt: &exited},
		},
		Metrics: &engine.WatchedMetrics{URL: "http://127.0.0.1:6060/metrics", Scrapes: 60, Failures: 2, LastError: "HTTP 503 Service Unavailable",
			Series: []engine.WatchedSeries{{Selector: "chain_head_block", Kind: engine.SeriesGauge, Matched: 1},
				{Selector: "rate(rpc_requests)", Kind: engine.SeriesCounter, Matched: 1}}},
	}
	for i := range st.Timeline {
		r := &st.Timeline[i]
		fds, rd, wr := 120, 0.0, 8192.0
		head, calls := 1000+float64(r.T), r.RPS
		w := &engine.WatchRow{
			Procs:  []*engine.ProcUse{{CPU: 40 + float64(r.T), RSS: 1_200_000_000 + int64(r.T)*10_000_000, Threads: 40, FDs: &fds, ReadBps: &rd, WriteBps: &wr}, nil},
			Self:   &engine.ProcUse{CPU: 30, RSS: 31_000_000, Threads: 9},
			Series: []*float64{&head, &calls},
		}
		if r.T < 30 {
			w.Procs[1] = &engine.ProcUse{CPU: 1, RSS: 8_000_000, Threads: 1}
		}
		if i == len(st.Timeline)-1 {
			w.Self.CPU, w.MetricsStale = 175, true
		}
		r.Watch = w
	}
	st.Last = st.Timeline[len(st.Timeline)-1]
}

// TestNodePane: at 80x24 the node shares the rows that go to the events, the stages and the
// requests (it comes before them): each process with its CPU and memory now and a sparkline
// of each, an exited one says so, rpcstress's own; the alarms say rpcstress measures itself
// and the last scrape failed. In the wide layout it is a box of its own with every row. A run
// that watches nothing has no such pane.
func TestNodePane(t *testing.T) {
	d, _ := testDashboard(t, watched)
	screen := ansi.Strip(view(d))
	for _, want := range []string{
		"! rpcstress used 175% CPU, over 80% of its 2 cores: it measures itself too",
		"! metrics: 60 scrapes, 2 failed (last: HTTP 503 Service Unavailable)",
		"node      geth       cpu   104%",
		"mem  1.84 GB",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("80x24 lacks %q:\n%s", want, screen)
		}
	}
	d.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	wide := ansi.Strip(view(d))
	for _, want := range []string{"Node  (cpu as top: 100% is one core)", "nginx      exited at 30s", "rpcstress  cpu   175%",
		"thr 40  fd 120", "metrics   chain_head_block             1064", "rate(rpc_requests)          199/s"} {
		if !strings.Contains(wide, want) {
			t.Errorf("160x48 lacks %q:\n%s", want, wide)
		}
	}
	plain, _ := testDashboard(t, nil)
	if s := ansi.Strip(view(plain)); strings.Contains(s, "cpu ") || strings.Contains(s, "node ") {
		t.Errorf("a run that watches nothing shows the node:\n%s", s)
	}
}
