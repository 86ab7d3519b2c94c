package tui

import (
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
)

// TestRequestsPaneInWideLayout: a mix of two shows a table of its requests at 120x36, busiest
// first, its columns closed up to fit the box; the compact 80x24 layout shows it in the rows
// to spare; a mix of one shows none anywhere.
func TestRequestsPaneInWideLayout(t *testing.T) {
	d, _ := testDashboard(t, nil)
	d.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
	v := view(d)
	checkFits(t, v, 120, 36)
	if !strings.Contains(v, "getBalance     5248   75.0%   3.40  24.1   15.7%       9 │") {
		t.Errorf("the requests table does not fit its box at 120x36:\n%s", v)
	}
	gb, gs := strings.Index(v, "getBalance"), strings.Index(v, "getSlot")
	if !strings.Contains(v, "Requests") || gb < 0 || gs < gb {
		t.Fatalf("120x36 lacks the requests table, busiest first:\n%s", v)
	}
	for _, want := range []string{"5248", "75.0%", "1749", "25.0%"} {
		if !strings.Contains(v, want) {
			t.Errorf("120x36 lacks %q:\n%s", want, v)
		}
	}
	d.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := view(d); !strings.Contains(v, "getSlot") || !strings.Contains(v, "1749") {
		t.Errorf("80x24 does not show the requests in its rows to spare:\n%s", v)
	}
	one, _ := testDashboard(t, func(st *engine.Stats) {
		st.Total.ByRequest = map[string]engine.Summary{"getBalance": st.Total}
	})
	one.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	if strings.Contains(view(one), "Requests") || strings.Contains(view(one), "request ") {
		t.Errorf("a mix of one shows a requests table:\n%s", view(one))
	}
}

// TestRequestsPaneRows: rows are capped, the last line counts what is left out, names are cut
// to their column, and a request with no answers yet shows no latency.
func TestRequestsPaneRows(t *testing.T) {
	tests := []struct {
		name     string
		requests int
		targets  int // side by side; 0: one
		height   int
		rows     int    // requests shown (of several targets: each a row per target)
		more     string // the "+N more" line, if any
	}{
		// Two requests: both, nothing more.
		{"two", 2, 0, 10, 2, ""},
		// Exactly the cap: all of them.
		{"cap", maxRequestRows, 0, 10, maxRequestRows, ""},
		// Over the cap: one row fewer, and a line for the rest.
		{"over the cap", 9, 0, 20, maxRequestRows - 1, "+4 more"},
		// A box shorter than the rows: what fits, the last line counting the rest.
		{"short box", 5, 0, 5, 2, "+3 more"},
		// Two targets: three requests of two rows each fit the cap.
		{"two targets", 3, 2, 10, 3, ""},
		// Four targets: two requests of four rows, and a line for the third.
		{"four targets", 3, 4, 20, 2, "+1 more"},
		// Two targets in a short box: one request's rows, and the line for the others.
		{"two targets, short box", 3, 2, 5, 1, "+2 more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			by := map[string]engine.Summary{}
			for i := range tt.requests {
				by[fmt.Sprintf("method%02d_with_a_rather_long_name_that_goes_on_and_on", i)] = engine.Summary{Completed: int64(100 - i)}
			}
			st := &engine.Stats{Total: engine.Summary{Completed: 1000, ByRequest: by}}
			for i := range tt.targets {
				st.Targets = append(st.Targets, &engine.Stats{TargetName: targetLetter(i) + "node", Total: st.Total})
			}
			p := requestsPane{paneBase: paneBase{c: paneCommon(st), wide: true}}
			p.SetSize(76, tt.height)
			v := ansi.Strip(p.View())
			if got := len(regexp.MustCompile(`(?m)^method\d\d_with_a_ra`).FindAllString(v, -1)); got != tt.rows {
				t.Errorf("%d rows, want %d:\n%s", got, tt.rows, v)
			}
			for i := range tt.targets {
				if got := strings.Count(v, targetLetter(i)+" "+targetLetter(i)+"node"); got != tt.rows {
					t.Errorf("%d rows of target %s, want one per request:\n%s", got, targetLetter(i), v)
				}
			}
			if tt.more != "" && !strings.Contains(v, tt.more) || tt.more == "" && strings.Contains(v, "more") {
				t.Errorf("want %q:\n%s", tt.more, v)
			}
			if !strings.Contains(v, "method00") || strings.Contains(v, "goes_on") {
				t.Errorf("the name is not cut to its column:\n%s", v)
			}
			for i, l := range strings.Split(v, "\n") {
				if cellWidth(l) > 76 {
					t.Errorf("line %d is %d wide: %q", i+1, cellWidth(l), l)
				}
			}
			if strings.Count(v, "\n")+1 > tt.height {
				t.Errorf("%d lines in a %d-line box", strings.Count(v, "\n")+1, tt.height)
			}
		})
	}
	// A request sent but not answered yet has no latency to show.
	st := &engine.Stats{Total: engine.Summary{Completed: 10, ByRequest: map[string]engine.Summary{
		"getSlot": {Completed: 10, Latency: engine.Percentiles{P50: 1.5, P99: 4}}, "getBlocks": {},
	}}}
	p := requestsPane{paneBase: paneBase{c: paneCommon(st)}}
	p.SetSize(76, 10)
	v := ansi.Strip(p.View())
	if !strings.Contains(v, "1.50") || !regexp.MustCompile(`getBlocks\s+0\s+0\.0%\s+-\s+-`).MatchString(v) {
		t.Errorf("want latency for getSlot and none for getBlocks:\n%s", v)
	}
}

// paneCommon is what a pane drawn alone shares: the default styles and keys, and st.
func paneCommon(st *engine.Stats) *common {
	styles, keys := DefaultStyles(), DefaultKeyMap()
	return &common{styles: &styles, keys: &keys, st: st}
}
