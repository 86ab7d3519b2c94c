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
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

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
		Stop: stop, Now: func() time.Time { return fixture.SearchNow },
	})
	d.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return d
}

// TestSearchDashboardGolden: the live find-limit screen at 80x24, mid-search and at the end.
func TestSearchDashboardGolden(t *testing.T) {
	t.Run("running", func(t *testing.T) {
		d := newTestSearchDashboard(fixture.SearchProgress(), testSearchLive(), nil)
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
		pr := fixture.SearchProgress()
		pr.Current = nil
		pr.Probes = append(pr.Probes, fixture.Probe(5, "close", 1050, 1000, 1.17, 4.76, "fail", "limited 4.76% > 1%"))
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
			d := newTestSearchDashboard(fixture.SearchProgress(), testSearchLive(), nil)
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
	d := newTestSearchDashboard(fixture.SearchProgress(), nil, func() { stops++ })
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
	d = newTestSearchDashboard(fixture.SearchProgress(), nil, nil)
	d.Update(SearchDoneMsg{})
	if _, cmd := d.Update(tea.KeyPressMsg{Code: 'x', Text: "x"}); cmd == nil {
		t.Error("after the end, a key does not leave")
	}
}

// TestSearchLines: the headless lines print each probe once (the report section is
// report.TestWriteSearchGolden's).
func TestSearchLines(t *testing.T) {
	var b bytes.Buffer
	lp := NewSearchLinePrinter(&b, 0)
	pr := fixture.SearchProgress()
	lp.Header("demo", "http://127.0.0.1:8899/", pr)
	lp.Update(pr)
	lp.Update(pr)
	out := b.String()
	if n := strings.Count(out, " double "); n != 4 {
		t.Errorf("%d probe lines, want 4 (each once):\n%s", n, out)
	}
}
