package tui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// TestDashboardTargetsGolden runs the dashboard of a run with several targets in a real Bubble
// Tea program at the sizes issue 17 names: two targets at 80x24, four at 160x40 (go test
// ./tui/ -update rewrites the goldens).
func TestDashboardTargetsGolden(t *testing.T) {
	for _, tt := range []struct {
		n, w, h int
		wait    string // text that shows the program has drawn at this size
	}{
		{2, 80, 24, "B/A"},
		{4, 160, 40, "Answers compared"},
	} {
		t.Run(fmt.Sprintf("%dx%d_%d_targets", tt.w, tt.h, tt.n), func(t *testing.T) {
			st := fixture.SideBySide(testStats(), tt.n)
			d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats { return st }, Control: &fakeController{}})
			final, _ := runDashboard(t, d, tt.w, tt.h, []string{"TERM=xterm-256color", "NO_COLOR=1"}, tt.wait)
			screen := ansi.Strip(final.View().Content)
			checkFits(t, screen, tt.w, tt.h)
			checkBoxesClose(t, fmt.Sprintf("%dx%d", tt.w, tt.h), screen)
			teatest.RequireEqualOutput(t, []byte(screen))
		})
	}
}

// TestDashboardTwoTargetsAt80x24: what the issue asks of two targets on the smallest screen:
// a column per target with its rate, outcomes, latency and JSON-RPC errors, the ratio B/A of
// the rate and the latency, the answers compared with the requests that differ, and each
// target's rows of the requests.
func TestDashboardTwoTargetsAt80x24(t *testing.T) {
	d, _ := testDashboard(t, sideBySide(2))
	v := view(d)
	st := d.c.st
	a, b := st.Targets[0], st.Targets[1]
	ratio := func(of func(*engine.Stats) float64) string { return textfmt.Sig(of(b)/of(a), 3, 2) }
	p50 := func(s *engine.Stats) float64 { return s.Current.Latency.P50 }
	p99 := func(s *engine.Stats) float64 { return s.Current.Latency.P99 }
	ok := func(s *engine.Stats) float64 { return okRate(&s.Last) }
	res := st.Answers.Totals
	want := []string{
		"A geth, B erigon", "to each of 2 targets", // header, rate
		"A geth  B erigon     B/A", // the columns, and which is which
		row("ok/s", textfmt.RPS(ok(a)), textfmt.RPS(ok(b)), ratio(ok)),
		row("ok", textfmt.Int(a.Total.OK), textfmt.Int(b.Total.OK)),
		row("limited", textfmt.Int(a.Total.Limited), textfmt.Int(b.Total.Limited)),
		row("failed", textfmt.Int(a.Total.Failed), textfmt.Int(b.Total.Failed)),
		row("rpc errors", textfmt.Int(textfmt.SumCounts(a.Total.RPCErrors)), textfmt.Int(textfmt.SumCounts(b.Total.RPCErrors))),
		row("p50 ms", textfmt.Ms(p50(a)), textfmt.Ms(p50(b)), ratio(p50)),
		row("p99 ms", textfmt.Ms(p99(a)), textfmt.Ms(p99(b)), ratio(p99)),
		row("dropped", textfmt.Int(a.Total.Dropped), textfmt.Int(b.Total.Dropped)),
		fmt.Sprintf("answers   match %d  mismatch %d  error vs result %d  head skew %d", res.Match, res.Mismatch, res.ErrorVsResult, res.HeadSkew),
		"differ    getBalance " + textfmt.Int(st.Answers.ByRequest["getBalance"].Mismatch),
		"A geth    timeout", "B erigon  timeout", // each target's errors
		"getBalance             A geth", "B erigon", // the requests per target
		"q quit",
	}
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Errorf("80x24 with two targets lacks %q:\n%s", w, v)
		}
	}
	for _, gone := range []string{"latency        p50", "status       count", "stage         rate"} {
		if strings.Contains(v, gone) {
			t.Errorf("80x24 with two targets shows the first target's own pane %q:\n%s", gone, v)
		}
	}
	checkFits(t, v, 80, 24)
}

// row is a row of the targets' table of "A geth" and "B erigon" as the 80x24 view draws it:
// the label, then each cell right-aligned in its column (the head's width and two cells, a
// number's at least), then B/A.
func row(label string, cells ...string) string {
	widths := []int{max(len("A geth")+2, numWidth), max(len("B erigon")+2, numWidth), numWidth}
	line := padRight(label, targetsLabelWidth)
	for i, c := range cells {
		line += padLeft(c, widths[i])
	}
	return line
}

// TestTargetsPaneColumns: the columns the targets' table shows, by the targets and the width.
func TestTargetsPaneColumns(t *testing.T) {
	tests := []struct {
		name  string
		n     int // targets
		width int
		shown int
		ratio bool
		more  string // the line naming the targets left out, "" for none
	}{
		// Two targets: both, with their ratio.
		{"two", 2, 76, 2, true, ""},
		// Two on the narrowest terminal still have their ratio.
		{"two at 60", 2, 60, 2, true, ""},
		// Too narrow for the ratio: the two targets first.
		{"two, no room for B/A", 2, 11 + 10 + 10 + 3, 2, false, ""},
		// Three: no ratio (of which two?).
		{"three", 3, 76, 3, false, ""},
		// Four fit 76 cells.
		{"four", 4, 76, 4, false, ""},
		// Four in 40 cells: two columns, the others named.
		{"four in 40", 4, 40, 2, false, "+2 more: C nethermind, D reth"},
		// Five: four at most, however wide.
		{"five", 5, 250, 4, false, "+1 more: E geth"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := fixture.SideBySide(testStats(), tt.n)
			for len(st.Targets) < tt.n {
				extra := *st.Targets[0]
				st.Targets = append(st.Targets, &extra)
			}
			p := targetsPane{paneBase: paneBase{c: paneCommon(st)}}
			p.SetSize(tt.width, 0)
			_, most := p.Lines()
			p.SetSize(tt.width, most)
			shown, _, ratio := p.layout()
			v := ansi.Strip(p.View())
			if shown != tt.shown || ratio != tt.ratio || strings.Contains(v, "B/A") != tt.ratio {
				t.Errorf("%d shown (ratio %v), want %d (ratio %v):\n%s", shown, ratio, tt.shown, tt.ratio, v)
			}
			if tt.more != "" && !strings.Contains(v, tt.more) || tt.more == "" && strings.Contains(v, "more") {
				t.Errorf("want %q:\n%s", tt.more, v)
			}
			if n := strings.Count(v, "\n") + 1; n != most {
				t.Errorf("%d lines, Lines says %d:\n%s", n, most, v)
			}
			for i, l := range strings.Split(v, "\n") {
				if cellWidth(l) > tt.width {
					t.Errorf("line %d is %d cells in %d: %q", i+1, cellWidth(l), tt.width, l)
				}
			}
		})
	}
}

// TestTargetsPaneRatio: the ratio is B's figure over A's, and none when either has none.
func TestTargetsPaneRatio(t *testing.T) {
	tests := []struct {
		name string
		edit func(a, b *engine.Stats)
		row  string // the row's label
		want string // its ratio
	}{
		// B answers twice as slowly: 2.00 on p50.
		{"slower", func(a, b *engine.Stats) { a.Current.Latency.P50, b.Current.Latency.P50 = 4, 8 }, "p50 ms", "2.00"},
		// B achieves a third of A's rate.
		{"fewer ok", func(a, b *engine.Stats) {
			a.Last = engine.Row{RPS: 300, OK: 300}
			b.Last = engine.Row{RPS: 100, OK: 100}
		}, "ok/s", "0.33"},
		// A answered nothing ok: no ratio rather than an infinity.
		{"A at zero", func(a, _ *engine.Stats) { a.Last = engine.Row{RPS: 10, Failed: 10} }, "ok/s", "-"},
		// No second has closed: no rate, no ratio.
		{"first second", func(a, b *engine.Stats) { a.Timeline, b.Timeline = nil, nil }, "ok/s", "-"},
		// B has nothing in this stage yet: "-" for its latency and no ratio.
		{"B silent", func(_, b *engine.Stats) { b.Current.Completed = 0 }, "p99 ms", "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := fixture.SideBySide(testStats(), 2)
			tt.edit(st.Targets[0], st.Targets[1])
			p := targetsPane{paneBase: paneBase{c: paneCommon(st)}}
			p.SetSize(76, 20)
			for _, l := range strings.Split(ansi.Strip(p.View()), "\n") {
				if strings.HasPrefix(l, tt.row+" ") {
					if f := strings.Fields(l); f[len(f)-1] != tt.want {
						t.Errorf("%q: ratio %q, want %q", l, f[len(f)-1], tt.want)
					}
					return
				}
			}
			t.Errorf("no row %q", tt.row)
		})
	}
}

// TestAnswersPane: the counts of the comparison, the requests that differ most first, the
// pairs when there are more than two targets and room, and nothing when answers are not
// compared.
func TestAnswersPane(t *testing.T) {
	// The figures as the pane writes them, from the fixture's comparison.
	pair := func(res *answers.Result, i int) answers.Counts { return res.Pairs[i].Counts }
	bad := func(res *answers.Result, name string) string {
		c := res.ByRequest[name]
		return name + " " + textfmt.Int(c.Mismatch+c.ErrorVsResult)
	}
	tests := []struct {
		name  string
		n     int
		wide  bool
		edit  func(*engine.Stats)
		want  func(*answers.Result) []string
		never []string
	}{
		// Two targets: every count, the one request that differs; no pairs (the counts are the pair).
		{"two", 2, true, nil, func(r *answers.Result) []string {
			c := r.Totals
			return []string{fmt.Sprintf("answers   match %d  mismatch %d  error vs result %d  head skew %d", c.Match, c.Mismatch, c.ErrorVsResult, c.HeadSkew),
				"differ    " + bad(r, "getBalance")}
		}, []string{"A–B", "incomplete"}},
		// Three, wide: a line per pair, with only the kinds that happened; the worst request first.
		{"three", 3, true, nil, func(r *answers.Result) []string {
			ab, ac := pair(r, 0), pair(r, 1)
			return []string{fmt.Sprintf("A–B       match %d  mismatch %d  head skew %d\n", ab.Match, ab.Mismatch, ab.HeadSkew),
				fmt.Sprintf("A–C       match %d  error vs result %d\n", ac.Match, ac.ErrorVsResult),
				"differ    " + bad(r, "getSlot") + " · " + bad(r, "getBalance")}
		}, []string{"incomplete"}},
		// Four: incomplete shows where a target gave nothing to compare.
		{"four", 4, true, nil, func(r *answers.Result) []string {
			return []string{fmt.Sprintf("incomplete %d", r.Totals.Incomplete), fmt.Sprintf("A–D       match %d  incomplete %d", pair(r, 2).Match, pair(r, 2).Incomplete)}
		}, nil},
		// Three, compact: no pairs.
		{"three compact", 3, false, nil, func(*answers.Result) []string { return []string{"answers   match"} }, []string{"A–B"}},
		// Nothing differed: no line of requests.
		{"all match", 2, false, func(st *engine.Stats) { st.Answers.ByRequest = nil },
			func(r *answers.Result) []string { return []string{fmt.Sprintf("mismatch %d", r.Totals.Mismatch)} }, []string{"differ"}},
		// Not compared: no pane.
		{"off", 2, true, func(st *engine.Stats) { st.Answers = nil }, func(*answers.Result) []string { return nil }, []string{"answers", "Answers"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := fixture.SideBySide(testStats(), tt.n)
			if tt.edit != nil {
				tt.edit(st)
			}
			p := answersPane{paneBase: paneBase{c: paneCommon(st), wide: tt.wide}}
			p.SetSize(76, 0)
			least, most := p.Lines()
			p.SetSize(76, most)
			v := ansi.Strip(p.View())
			for _, w := range tt.want(st.Answers) {
				if !strings.Contains(v+"\n", w) {
					t.Errorf("lacks %q:\n%s", w, v)
				}
			}
			for _, w := range tt.never {
				if strings.Contains(v, w) {
					t.Errorf("shows %q:\n%s", w, v)
				}
			}
			if got := len(strings.Split(v, "\n")); v != "" && got != most || v == "" && most != 0 || least > most {
				t.Errorf("%d lines, Lines says %d to %d:\n%s", got, least, most, v)
			}
		})
	}
}

// TestRequestsPaneTargets: with several targets, each request has a row per target with
// that target's own figures, the request named on the first (TestRequestsPaneRows counts the
// rows).
func TestRequestsPaneTargets(t *testing.T) {
	st := fixture.SideBySide(testStats(), 2)
	p := requestsPane{paneBase: paneBase{c: paneCommon(st), wide: true}}
	p.SetSize(76, 10)
	v := ansi.Strip(p.View())
	if !regexp.MustCompile(`\ngetBalance +A geth `).MatchString(v) {
		t.Errorf("the first row of a request does not name it and its target:\n%s", v)
	}
	// B erigon has no limiter: its rows say 0.0% limited where A's do not.
	a, b := st.Targets[0].Total.ByRequest["getBalance"], st.Targets[1].Total.ByRequest["getBalance"]
	for _, w := range []string{"B erigon", textfmt.Pct(a.Limited, a.Completed), textfmt.Pct(b.Limited, b.Completed),
		textfmt.Ms(b.Latency.P50)} {
		if !strings.Contains(v, w) {
			t.Errorf("lacks %q:\n%s", w, v)
		}
	}
	// Lines asks for a request's rows and the line counting the rest, and no more than fits.
	st = fixture.SideBySide(testStats(), 4)
	p = requestsPane{paneBase: paneBase{c: paneCommon(st)}}
	p.SetSize(80, 0)
	if least, most := p.Lines(); least != 1+4+1 || most != 1+2*4 {
		t.Errorf("Lines %d to %d, want %d to %d", least, most, 1+4+1, 1+2*4)
	}
}

// TestDashboardTargetFailing: the alarm of a failing target names it; the others raise none.
func TestDashboardTargetFailing(t *testing.T) {
	d, _ := testDashboard(t, sideBySide(4))
	v := view(d)
	last := d.c.st.Targets[3].Last
	want := fmt.Sprintf("! FAILING D reth: %s of the last second failed (refused %d)", textfmt.Pct(last.Failed, last.Failed), last.Failed)
	if !strings.Contains(v, want) || strings.Count(v, "FAILING") != 1 {
		t.Errorf("want one alarm, %q:\n%s", want, v)
	}
}

// TestDashboardTargetsHead: a run with several targets following the head shows each target's
// head by letter, and a stale one loudly.
func TestDashboardTargetsHead(t *testing.T) {
	d, _ := testDashboard(t, func(st *engine.Stats) {
		followingHead(st)
		sideBySide(2)(st)
		stale := *st.Head
		stale.Target.Head -= 7
		stale.Target.Failing = true
		st.Targets[1].Head = &stale
	})
	v := view(d)
	a, b := d.c.st.Targets[0].Head.Target.Head, d.c.st.Targets[1].Head.Target.Head
	want := fmt.Sprintf("evm head  A %s  B %s STALE", runtext.HeadNumber(a), runtext.HeadNumber(b))
	if !strings.Contains(v, want) {
		t.Errorf("want %q:\n%s", want, v)
	}
}

// TestDashboardOneTargetUnchanged: a run of one target (Targets nil, or of one) draws none of
// the side-by-side panes.
func TestDashboardOneTargetUnchanged(t *testing.T) {
	plain, _ := testDashboard(t, nil)
	one, _ := testDashboard(t, func(st *engine.Stats) {
		c := *st
		st.Targets = []*engine.Stats{&c}
	})
	for _, sz := range [][2]int{{80, 24}, {160, 40}} {
		plain.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		one.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		if a, b := view(plain), view(one); a != b {
			t.Errorf("%dx%d: a run of one target in Targets draws otherwise:\n%s\nthen\n%s", sz[0], sz[1], a, b)
		}
	}
}

// TestDashboardTargetViewsTaken: the engine makes a new top-level view of several targets on
// every call; the dashboard takes it (and redraws) only when a target's view or the answers'
// counts changed.
func TestDashboardTargetViewsTaken(t *testing.T) {
	tests := []struct {
		name  string
		next  func(prev *engine.Stats) *engine.Stats
		taken bool
	}{
		// The same targets' views gathered again: nothing new.
		{"gathered again", func(prev *engine.Stats) *engine.Stats {
			v := *prev
			v.Answers = &answers.Result{Totals: prev.Answers.Totals}
			return &v
		}, false},
		// B's aggregator published a new view.
		{"a target's new view", func(prev *engine.Stats) *engine.Stats {
			v, b := *prev, *prev.Targets[1]
			v.Targets = []*engine.Stats{prev.Targets[0], &b}
			return &v
		}, true},
		// Another mismatch was counted.
		{"answers counted", func(prev *engine.Stats) *engine.Stats {
			v, res := *prev, *prev.Answers
			res.Totals.Mismatch++
			v.Answers = &res
			return &v
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := fixture.SideBySide(testStats(), 2)
			calls := 0
			d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats {
				calls++
				if calls == 1 {
					return first
				}
				return tt.next(first)
			}})
			d.Update(tickMsg{})
			if taken := d.c.st != first; taken != tt.taken {
				t.Errorf("view taken: %v, want %v", taken, tt.taken)
			}
		})
	}
}

// TestThroughputTargetCharts: the wide layout's chart has a row per target of its answers ok
// per second on one scale: a rate-limited target answering as fast reads lower.
func TestThroughputTargetCharts(t *testing.T) {
	st := fixture.SideBySide(testStats(), 2)
	limited := *st.Targets[1]
	limited.Timeline = nil
	for _, r := range st.Targets[1].Timeline {
		r.OK, r.Limited = r.OK/2, r.OK-r.OK/2 // half of B's answers are 429s now
		limited.Timeline = append(limited.Timeline, r)
	}
	st.Targets[1] = &limited
	p := throughputPane{paneBase: paneBase{c: paneCommon(st), wide: true}}
	p.SetSize(76, 0)
	_, most := p.Lines()
	p.SetSize(76, most)
	lines := strings.Split(ansi.Strip(p.View()), "\n")
	rowOf := func(label string) []rune {
		for _, l := range lines {
			if strings.HasPrefix(l, label) {
				return []rune(l)
			}
		}
		t.Fatalf("no chart row %q:\n%s", label, strings.Join(lines, "\n"))
		return nil
	}
	a, b := rowOf("A geth"), rowOf("B erigon")
	last := labelWidth + 76 - labelWidth - 1 - 14 - 1 // the newest column
	if strings.IndexRune(string(sparkRunes), b[last]) >= strings.IndexRune(string(sparkRunes), a[last]) {
		t.Errorf("B, half rate-limited, charts as high as A (%q, %q):\n%s", b[last], a[last], strings.Join(lines, "\n"))
	}
}

// TestDashboardTargetsRunDone: the end of a run with several targets sums each target up on
// lines of its own, led by its letter and name; the first target's alone would read as the
// run's.
func TestDashboardTargetsRunDone(t *testing.T) {
	d, _ := testDashboard(t, sideBySide(2))
	snap := fixture.TargetsSnapshot()
	d.Update(RunDoneMsg{Snapshot: snap, Path: "runs/side.json"})
	v := view(d)
	for i, tr := range snap.Targets {
		tot := &tr.Totals
		want := fmt.Sprintf("%s %s: %d sent, %d completed", targetLetter(i), tr.Name, tot.Sent, tot.Completed)
		shares := fmt.Sprintf("ok %s limited %s failed %s", textfmt.Pct(tot.OK, tot.Completed),
			textfmt.Pct(tot.Limited, tot.Completed), textfmt.Pct(tot.Failed, tot.Completed))
		if !strings.Contains(v, want) || !strings.Contains(v, shares) {
			t.Errorf("the final view lacks %q and %q:\n%s", want, shares, v)
		}
	}
	if strings.Contains(v, "rpcstress getBalance:") {
		t.Errorf("the final view sums up the first target as the run's:\n%s", v)
	}
	checkFits(t, v, 80, 24)
}

// TestDashboardTargetsNoLatencyKey: several targets side by side show no latency pane, so the
// help (short and full) does not offer l, and l draws nothing new; one target's help does.
func TestDashboardTargetsNoLatencyKey(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {160, 40}} {
		one, _ := testDashboard(t, nil)
		side, _ := testDashboard(t, sideBySide(2))
		for _, d := range []*Dashboard{one, side} {
			d.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			press(d, "?") // every key
		}
		if v := view(one); !strings.Contains(v, "latency bars") {
			t.Errorf("%dx%d: one target's help lacks l:\n%s", size[0], size[1], v)
		}
		before := view(side)
		if strings.Contains(before, "latency bars") {
			t.Errorf("%dx%d: the help of two targets offers l, which shows nothing:\n%s", size[0], size[1], before)
		}
		if press(side, "l"); view(side) != before {
			t.Errorf("%dx%d: l changed the view of two targets", size[0], size[1])
		}
	}
}
