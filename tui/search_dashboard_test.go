package tui

import (
	"bytes"
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/search"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// searchNow is the fixtures' clock: the probe in progress started 2.5 s before it.
var searchNow = time.Date(2026, 11, 23, 10, 0, 30, 0, time.UTC)

func probeFixture(n int, step string, rate, ok, p99, limited float64, verdict string, breaches ...string) engine.SearchProbe {
	p := engine.SearchProbe{N: n, Step: step, Rate: rate, Goodput: ok, LatencyMs: p99, LimitedPct: limited, Verdict: verdict, MeasureS: 3, SettleS: 1}
	for _, b := range breaches {
		p.Breaches = append(p.Breaches, engine.SearchBreach{Clause: "limited", Text: b})
	}
	return p
}

// testSearchProgress is a search against a 1000/s limiter, four probes in, the fifth running.
func testSearchProgress() *search.Progress {
	return &search.Progress{
		Settings: engine.SearchSettings{StartRate: 250, MaxRate: 50000, PrecisionPct: 5, ProbeS: 3, SettleS: 1, BudgetS: 300},
		SLO:      engine.SearchSLO{Percentile: 99, MaxLimitedPct: 1, MaxFailedPct: 0.1},
		Probes: []engine.SearchProbe{
			probeFixture(1, "double", 250, 250, 1.14, 0, "pass"),
			probeFixture(2, "double", 500, 500, 1.64, 0, "pass"),
			probeFixture(3, "double", 1000, 1000, 1.94, 0, "pass"),
			probeFixture(4, "double", 2000, 1000.3, 2.12, 49.98, "fail", "limited 50% > 1%"),
		},
		Current: &search.Current{N: 5, Rate: 1050, Step: "close", Phase: "probe", Started: searchNow.Add(-2500 * time.Millisecond), Settle: time.Second, Measure: 3 * time.Second},
		Good:    1000, Bad: 2000, Elapsed: 16 * time.Second,
	}
}

func testSearchLive() *engine.Stats {
	return &engine.Stats{
		Last:    engine.Row{RPS: 1050, Latency: engine.RowLatency{P99: 1.2}},
		Current: engine.Summary{Completed: 1575, OK: 1500, Limited: 75},
	}
}

func newTestSearchDashboard(pr *search.Progress, live *engine.Stats, stop func()) *SearchDashboard {
	d := NewSearchDashboard(SearchDashboardOptions{
		Name: "demo", Target: "http://127.0.0.1:8899/",
		Progress: func() *search.Progress { return pr }, Live: func() *engine.Stats { return live },
		Stop: stop, Now: func() time.Time { return searchNow },
	})
	d.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return d
}

// TestSearchDashboardGolden: the live find-limit screen at 80x24, mid-search and at the end.
func TestSearchDashboardGolden(t *testing.T) {
	t.Run("running", func(t *testing.T) {
		d := newTestSearchDashboard(testSearchProgress(), testSearchLive(), nil)
		screen := ansi.Strip(d.View().Content)
		checkFits(t, screen, 80, 24)
		golden.RequireEqual(t, screen)
		for _, want := range []string{"probe 5 at 1050/s (close)", "good 1000/s  bad 2000/s", "FAIL limited 50% > 1%", "best so far: 1000/s", "q stop"} {
			if !strings.Contains(screen, want) {
				t.Errorf("the screen lacks %q", want)
			}
		}
	})
	t.Run("done", func(t *testing.T) {
		pr := testSearchProgress()
		pr.Current = nil
		pr.Probes = append(pr.Probes, probeFixture(5, "close", 1050, 1000, 1.17, 4.76, "fail", "limited 4.76% > 1%"))
		pr.Bad = 1050
		pr.Result = &engine.SearchResult{Settings: pr.Settings, SLO: pr.SLO, Probes: pr.Probes, EndReason: "converged",
			Answer:  engine.SearchAnswer{Found: true, Rate: 1000, Goodput: 1000, FirstBad: 1050, Text: "1000/s met the SLO (goodput 1000 ok/s); 1050/s did not: limited 4.76% > 1%"},
			Limiter: &engine.LimiterEstimate{Kind: "token bucket", Rate: 1000, RateErr: 0.67, Burst: 60, BurstErr: 2.6, BurstFrom: "burst probe", Delay: "nodelay", Nginx: "rate=1000r/s burst=60 nodelay"}}
		d := newTestSearchDashboard(pr, nil, nil)
		d.Update(SearchDoneMsg{Path: "runs/demo-findlimit-20261123T100000Z.json"})
		screen := ansi.Strip(d.View().Content)
		checkFits(t, screen, 80, 24)
		golden.RequireEqual(t, screen)
	})
}

// TestSearchDashboardEverySize: in every state, at every layout size, the find-limit screen
// fits the terminal, and View changes nothing (Update keeps the pane current).
func TestSearchDashboardEverySize(t *testing.T) {
	states := []struct {
		name string
		keys string
		done bool
	}{
		{name: "running"},
		{name: "what the table says", keys: "?"},
		{name: "stopping", keys: "q"},
		{name: "done", done: true},
	}
	for _, state := range states {
		t.Run(state.name, func(t *testing.T) {
			d := newTestSearchDashboard(testSearchProgress(), testSearchLive(), nil)
			for _, r := range state.keys {
				d.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			if state.done {
				d.Update(SearchDoneMsg{Path: "runs/demo-findlimit-20261123T100000Z.json"})
			}
			for _, sz := range layoutSizes {
				d.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				where := fmt.Sprintf("%dx%d", sz[0], sz[1])
				checkViewPure(t, where, d)
				checkFitsAt(t, where, ansi.Strip(d.View().Content), sz[0], sz[1])
			}
		})
	}
}

// TestSearchDashboardKeys: q stops the search once (the best answer is kept), a second q
// leaves; after the end any key leaves.
func TestSearchDashboardKeys(t *testing.T) {
	stops := 0
	d := newTestSearchDashboard(testSearchProgress(), nil, func() { stops++ })
	q := tea.KeyPressMsg{Code: 'q', Text: "q"}
	if _, cmd := d.Update(q); cmd != nil || stops != 1 {
		t.Fatalf("first q: stops %d, cmd %v; want one Stop and no quit", stops, cmd)
	}
	if !strings.Contains(ansi.Strip(d.View().Content), "stopping: the probe in progress is cut short") {
		t.Error("the screen does not say the search is stopping")
	}
	if _, cmd := d.Update(q); cmd == nil || stops != 1 {
		t.Errorf("second q: stops %d, cmd %v; want a quit and no second Stop", stops, cmd)
	}
	d = newTestSearchDashboard(testSearchProgress(), nil, nil)
	d.Update(SearchDoneMsg{})
	if _, cmd := d.Update(tea.KeyPressMsg{Code: 'x', Text: "x"}); cmd == nil {
		t.Error("after the end, a key does not leave")
	}
}

// TestSearchLinesAndReport: the headless lines print each probe once, and the report section
// holds the answer and the limiter.
func TestSearchLinesAndReport(t *testing.T) {
	var b bytes.Buffer
	lp := NewSearchLinePrinter(&b, 0)
	pr := testSearchProgress()
	lp.Header("demo", "http://127.0.0.1:8899/", pr)
	lp.Update(pr)
	lp.Update(pr)
	out := b.String()
	if n := strings.Count(out, " double "); n != 4 {
		t.Errorf("%d probe lines, want 4 (each once):\n%s", n, out)
	}
	res := &engine.SearchResult{Settings: pr.Settings, SLO: pr.SLO, Probes: pr.Probes, EndReason: "converged",
		Answer: engine.SearchAnswer{Found: true, Rate: 1000, Goodput: 1000, FirstBad: 2000, GapPct: 100, Text: "1000/s met the SLO",
			Breaches: []engine.SearchBreach{{Clause: "limited", Measured: 49.98, Bound: 1, Unit: "%", Text: "limited 50% > 1%"}}},
		Limiter: &engine.LimiterEstimate{Kind: "none", Notes: []string{"no limiter detected"}}}
	b.Reset()
	if err := WriteSearch(&b, res, 0); err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, b.Bytes())
	checkWidth(t, b.String(), textfmt.DefaultWidth)
}
