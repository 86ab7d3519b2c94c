package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// layoutSizes are the sizes the issue names and the edges between layouts around them.
var layoutSizes = [][2]int{
	{60, 18}, {80, 24}, {100, 30}, {130, 40}, {150, 45}, {200, 50}, // the issue's
	{61, 19}, {79, 23}, {119, 35}, {120, 36}, {121, 37}, {140, 60}, {250, 70}, // edges and extremes
}

// layoutViews are runs whose numbers stress the layout: long names, wide characters, many
// stages and requests, a dead target, nothing yet.
func layoutViews() map[string]func(*engine.Stats) {
	return map[string]func(*engine.Stats){
		"fixture": nil,
		"dead target": func(st *engine.Stats) {
			st.Last = engine.Row{T: 64, TargetRate: 100, RPS: 100, Sent: 100, Failed: 100,
				Errors: map[string]int64{"refused": 100}, Status: map[string]int64{}}
			st.Total.Errors = map[string]int64{"refused": 6400, "timeout": 3, "reset": 2, "eof": 1, "other": 1}
		},
		"first second": func(st *engine.Stats) { st.Timeline, st.Last = nil, engine.Row{} },
		"many stages": func(st *engine.Stats) {
			st.Stages = nil
			for i := range 24 {
				st.Stages = append(st.Stages, engine.StageStats{Index: i, Spec: engine.Stage{Rate: engine.Rate(15360 * (i + 1)), Duration: 90 * time.Minute},
					Summary: engine.Summary{Completed: 123456789, DurationS: 5399.9, RPS: 15360.4, Failed: 1234567, Limited: 7,
						Latency: engine.Percentiles{P50: 1234.5, P99: 98765.4}}})
			}
			st.Plan.Stage, st.Plan.StageCount = 11, 24
		},
		"many requests": func(st *engine.Stats) {
			st.Total.ByRequest = map[string]engine.Summary{}
			for i := range 9 {
				st.Total.ByRequest[fmt.Sprintf("eth_getTransactionReceiptWithAVeryLongName#%d", i)] = engine.Summary{
					Completed: 1234567890, Limited: 3, Failed: 123456789, Latency: engine.Percentiles{P50: 12345.6, P99: 99999.9}}
			}
		},
		"wide characters": func(st *engine.Stats) {
			st.Name = "負荷試験🔥" + strings.Repeat("名前", 30)
			st.Target = "http://ノード.example/" + strings.Repeat("パス/", 30)
			st.RPCMessage["-32602"] = strings.Repeat("無効なパラメータ🔥", 20)
			st.Events = append(st.Events, engine.Event{T: 64, Kind: "note", Detail: strings.Repeat("イベント😀", 30)})
			st.Stages[1].Spec.Name = strings.Repeat("段階", 40)
			st.Total.ByRequest["取引を取得する長い名前のメソッド"] = st.Total.ByRequest["getSlot"]
		},
		"closed loop": func(st *engine.Stats) { st.Mode = engine.ModeClosed },
		"watched":     watched,
		"subscribed":  subscribed,
		"subscribed, watched, long names": func(st *engine.Stats) {
			watched(st)
			subscribed(st)
			st.Subs[0].Name = "ノード" + strings.Repeat("very-long-subscription-name", 5)
		},
		"watched, long names": func(st *engine.Stats) {
			watched(st)
			st.Watch.Procs[0].Label = "ノード" + strings.Repeat("very-long-process-name", 5)
			st.Watch.Metrics.Series[0].Selector = `rpc_duration_all_count{method="eth_getBlockByNumber",status="ok"}`
			st.Watch.Metrics.LastError = strings.Repeat("無効な応答 ", 30)
		},
		"tester is the load": func(st *engine.Stats) {
			st.Tester = engine.TesterLoad{Lag: 1500 * time.Millisecond, Behind: true, CPU: 1.97, Cores: 2}
		},
		"following the head": followingHead,
		"stale head": func(st *engine.Stats) {
			followingHead(st)
			st.Head.Target.Failing, st.Head.Target.Age = true, 95*time.Second
			st.Head.Target.LastErr = "HTTP 503 " + strings.Repeat("サービス利用不可\x1b[2J", 10)
			st.Head.Ref.Failing, st.Head.Ref.LastErr = true, "no answer within 5s"
		},
		"checks and costs":       withChecks,
		"head, checks and costs": func(st *engine.Stats) { followingHead(st); withChecks(st) },
		"calm": func(st *engine.Stats) {
			st.Tester, st.Plan.Saturated = engine.TesterLoad{}, false
			st.Total.Dropped = 0
		},
		"two targets":   sideBySide(2),
		"three targets": sideBySide(3),
		"four targets":  sideBySide(4),
		"four targets, long names, checks and a head": func(st *engine.Stats) {
			followingHead(st)
			withChecks(st)
			sideBySide(4)(st)
			for i, t := range st.Targets {
				t.TargetName = strings.Repeat("ノード", 3+i) + "-very-long-target-name"
				t.Head = st.Head
			}
			st.Answers.ByRequest[strings.Repeat("取引を取得する長い名前", 4)] = st.Answers.Totals
		},
		"two targets, subscribed":  subscribedTargets(2),
		"four targets, subscribed": subscribedTargets(4),
		"five targets, not compared": func(st *engine.Stats) {
			sideBySide(4)(st)
			st.Targets = append(st.Targets, st.Targets[1])
			st.Answers = nil
		},
	}
}

// sideBySide makes the fixture a run of n targets side by side (fixture.SideBySide).
func sideBySide(n int) func(*engine.Stats) {
	return func(st *engine.Stats) { *st = *fixture.SideBySide(st, n) }
}

// mustShow are the words a plain view must show at every size: the keys, and the rate's books
// (one target's in the rate line, each target's in the targets' table).
func mustShow(st *engine.Stats) []string {
	if len(st.Targets) > 1 {
		return []string{"q quit", "? more keys", "ok/s", "dropped "}
	}
	return []string{"q quit", "? more keys", "inflight ", "dropped "}
}

// layoutState is a state of the dashboard, reached as a user would: keys pressed, or the run
// over.
type layoutState struct {
	name string
	keys []string
	done bool
}

// layoutStates are the dashboard's states.
var layoutStates = []layoutState{
	{name: "plain"},
	{name: "latency bars", keys: []string{"l"}},
	{name: "all keys", keys: []string{"?"}},
	{name: "all keys and bars", keys: []string{"?", "l"}},
	{name: "rate input with an error", keys: []string{"=", "abc", "enter"}},
	{name: "draining", keys: []string{"q"}},
	{name: "done", done: true},
}

// reach makes a dashboard over the fixture stats (changed by edit) and brings it to the state.
func (s layoutState) reach(t *testing.T, edit func(*engine.Stats)) *Dashboard {
	t.Helper()
	d, _ := testDashboard(t, edit)
	press(d, s.keys...)
	if s.done {
		d.Update(runDone("runs/getBalance.json"))
	}
	return d
}

// TestDashboardLayoutEverySize: at every size and in every state, no line is wider than the
// terminal, the frame is no taller, every box that opens closes (a box that loses its bottom
// border was cut or wrapped), and every pane fits the room it was given, so nothing is cut at
// the terminal's edge behind the layout's back. The words that must always show do. The
// layout is Update's: View changes nothing.
func TestDashboardLayoutEverySize(t *testing.T) {
	for vname, edit := range layoutViews() {
		for _, state := range layoutStates {
			t.Run(vname+"/"+state.name, func(t *testing.T) {
				d := state.reach(t, edit)
				for _, sz := range layoutSizes {
					d.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
					where := fmt.Sprintf("%dx%d", sz[0], sz[1])
					checkViewPure(t, where, d, paneViews(d)...)
					screen := view(d)
					checkFitsAt(t, where, screen, sz[0], sz[1])
					checkBoxesClose(t, where, screen)
					checkPanesFit(t, where, d)
					if state.name == "plain" {
						for _, want := range mustShow(d.c.st) {
							if !strings.Contains(screen, want) {
								t.Errorf("%s lacks %q:\n%s", where, want, screen)
							}
						}
					}
				}
			})
		}
	}
}

// checkFitsAt is checkFits naming the size.
func checkFitsAt(t *testing.T, where, screen string, width, height int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) > height {
		t.Errorf("%s: %d lines", where, len(lines))
	}
	for i, l := range lines {
		if n := cellWidth(l); n > width {
			t.Errorf("%s: line %d is %d cells: %q", where, i+1, n, l)
		}
	}
}

// checkBoxesClose fails when a box's top corner has no bottom corner under it, in the same
// cell column (wide characters counted as two cells).
func checkBoxesClose(t *testing.T, where, screen string) {
	t.Helper()
	open := map[int]int{} // cell column → line of the top corner
	for i, line := range strings.Split(screen, "\n") {
		col := 0
		for _, r := range line {
			switch r {
			case '╭':
				if at, ok := open[col]; ok {
					t.Errorf("%s: the box opened on line %d at column %d never closes before another opens on line %d", where, at+1, col, i+1)
				}
				open[col] = i
			case '╰':
				if _, ok := open[col]; !ok {
					t.Errorf("%s: line %d closes a box at column %d that never opened", where, i+1, col)
				}
				delete(open, col)
			}
			col += cellWidth(string(r))
		}
	}
	for col, at := range open {
		t.Errorf("%s: the box opened on line %d at column %d has no bottom border", where, at+1, col)
	}
}

// checkPanesFit fails when a pane drew more than the room the layout gave it.
func checkPanesFit(t *testing.T, where string, d *Dashboard) {
	t.Helper()
	panes := map[string]struct {
		view          func() string
		width, height int
	}{
		"throughput": {d.throughput.View, d.throughput.width, d.throughput.height},
		"latency":    {d.latency.View, d.latency.width, d.latency.height},
		"status":     {d.status.View, d.status.width, d.status.height},
		"errors":     {d.errors.View, d.errors.width, d.errors.height},
		"events":     {d.events.View, d.events.width, d.events.height},
		"stages":     {d.stages.View, d.stages.width, d.stages.height},
		"requests":   {d.requests.View, d.requests.width, d.requests.height},
		"node":       {d.node.View, d.node.width, d.node.height},
		"targets":    {d.targets.View, d.targets.width, d.targets.height},
		"answers":    {d.answers.View, d.answers.width, d.answers.height},
		"subs":       {d.subs.View, d.subs.width, d.subs.height},
	}
	for name, p := range panes {
		if p.height <= 0 {
			continue // not shown
		}
		lines := strings.Split(ansi.Strip(p.view()), "\n")
		if len(lines) > p.height {
			t.Errorf("%s: %s drew %d lines in %d", where, name, len(lines), p.height)
		}
		for i, l := range lines {
			if n := cellWidth(l); n > p.width {
				t.Errorf("%s: %s line %d is %d cells in %d: %q", where, name, i+1, n, p.width, l)
			}
		}
	}
}

// TestDashboardResize: the terminal changes size under a live dashboard (a tmux pane split, a
// window dragged). Every frame must fit the new size, in every state of the view, and View
// changes nothing at any of them.
func TestDashboardResize(t *testing.T) {
	sizes := [][2]int{{80, 24}, {200, 60}, {80, 24}, {160, 48}, {120, 36}, {119, 36}, {40, 12}, {10, 3}, {1, 1}, {80, 24}}
	for _, s := range layoutStates {
		t.Run(s.name, func(t *testing.T) {
			d := s.reach(t, nil)
			for _, sz := range sizes {
				d.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				where := fmt.Sprintf("%dx%d", sz[0], sz[1])
				checkViewPure(t, where, d, paneViews(d)...)
				checkFitsAt(t, where, view(d), sz[0], sz[1])
			}
		})
	}
}

// TestDashboardSparseStats: the first frame of a run, before anything completed, and views with
// odd values must draw, not panic.
func TestDashboardSparseStats(t *testing.T) {
	views := map[string]*engine.Stats{
		"empty":     {},
		"no stages": {Name: "x", Plan: engine.PlanState{State: engine.StateRunning}},
		"open-ended stage": {Name: "x", Plan: engine.PlanState{State: engine.StateRunning, StageCount: 1, TargetRate: 10},
			Stages: []engine.StageStats{{Spec: engine.Stage{Rate: 10}}}},
		"no histogram": func() *engine.Stats {
			st := testStats()
			st.Histogram = nil
			return st
		}(),
		"histogram": func() *engine.Stats {
			st := testStats()
			st.Histogram = []engine.Bucket{{From: 0, To: 1, Count: 10}, {From: 1, To: 2, Count: 300}, {From: 2, To: 5, Count: 0}, {From: 10000, To: -1, Count: 1}}
			return st
		}(),
		"many codes": func() *engine.Stats {
			st := testStats()
			for c := 400; c < 420; c++ {
				st.Total.Status[fmt.Sprint(c)] = int64(c)
			}
			return st
		}(),
		"long messages": func() *engine.Stats {
			st := testStats()
			st.Target = "http://" + strings.Repeat("very-long-host.", 20) + "example:8899"
			st.RPCMessage["-32602"] = strings.Repeat("a message\nacross lines\t", 30)
			st.Events = append(st.Events, engine.Event{T: 62, Kind: "note", Detail: strings.Repeat("x", 500)})
			return st
		}(),
	}
	views["nil (nothing published yet)"] = nil
	for name, st := range views {
		t.Run(name, func(t *testing.T) {
			d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats { return st }})
			press(d, "up", "space", "q") // no Controller given: the keys must not panic
			for _, sz := range [][2]int{{80, 24}, {160, 48}} {
				d.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				checkFits(t, view(d), sz[0], sz[1])
				press(d, "l") // with and without the latency bars
				checkFits(t, view(d), sz[0], sz[1])
			}
		})
	}
}

func TestDashboardLatencyBars(t *testing.T) {
	tests := []struct {
		name    string
		buckets []engine.Bucket
		want    []string
	}{
		// The engine's buckets, when it publishes them; the open last bucket reads "≥".
		{"buckets", []engine.Bucket{{From: 1, To: 2, Count: 100}, {From: 2, To: 5, Count: 299}, {From: 10000, To: -1, Count: 1}},
			[]string{"stage latency histogram (ms)", "1–2", "2–5", "74.8%", "≥ 10000"}},
		// Without buckets, the stage's percentiles as bars.
		{"percentiles", nil, []string{"stage latency by percentile (ms)", "p99.9       62.6 █"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := testDashboard(t, func(st *engine.Stats) { st.Histogram = tt.buckets })
			if strings.Contains(view(d), "stage latency") {
				t.Fatal("the bars show at 80x24 before l is pressed")
			}
			press(d, "l")
			v := view(d)
			for _, want := range tt.want {
				if !strings.Contains(v, want) {
					t.Errorf("view lacks %q:\n%s", want, v)
				}
			}
		})
	}
}

// TestDashboardFirstSecond: before the first second closes there is no rate to show; the rate
// line says so instead of an "ok 0.0/s" that would read as a dead target.
func TestDashboardFirstSecond(t *testing.T) {
	for _, tt := range []struct {
		name     string
		timeline bool
		want     string
		not      string
	}{
		{"first second", false, "sent -  ok - (first second)", "ok 0.0"},
		{"later", true, "sent 200.0/s  ok 122.0/s", "first second"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			st := testStats()
			if !tt.timeline {
				st.Timeline, st.Last = nil, engine.Row{}
			}
			d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats { return st }})
			d.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
			out := ansi.Strip(view(d))
			if !strings.Contains(out, tt.want) || strings.Contains(out, tt.not) {
				t.Errorf("want %q and not %q in:\n%s", tt.want, tt.not, out)
			}
		})
	}
}

// TestDashboardDeadTarget: against a target that refuses every connection the rate line must
// not read like success (issue 14: "achieved 100.0 rps (100%)"): it shows what was sent beside
// what came back ok, and a loud line names the failure.
func TestDashboardDeadTarget(t *testing.T) {
	dead := layoutViews()["dead target"]
	for _, sz := range [][2]int{{60, 18}, {80, 24}, {200, 50}} {
		d, _ := testDashboard(t, dead)
		d.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		v := view(d)
		for _, want := range []string{"sent 100.0/s", "ok 0.0/s", "! FAILING: 100.0% of the last second failed (refused 100)"} {
			if !strings.Contains(v, want) {
				t.Errorf("%dx%d: a dead target's view lacks %q:\n%s", sz[0], sz[1], want, v)
			}
		}
	}
	tests := []struct {
		name string
		last engine.Row
		want string // "" for no alarm
	}{
		// Half failed is not most.
		{"half", engine.Row{RPS: 100, OK: 50, Failed: 50, Errors: map[string]int64{"timeout": 50}}, ""},
		// Rate-limited answers are not failures: the status pane shows them.
		{"limited", engine.Row{RPS: 100, OK: 10, Limited: 90}, ""},
		// A 503 storm names the status.
		{"503s", engine.Row{RPS: 100, OK: 10, Failed: 90, Status: map[string]int64{"200": 10, "503": 90}}, "90.0% of the last second failed (HTTP 503 90)"},
		// JSON-RPC errors inside HTTP 200 name the code.
		{"rpc errors", engine.Row{RPS: 10, Failed: 10, Status: map[string]int64{"200": 10}, RPCErrors: map[string]int64{"-32005": 10}}, "(rpc -32005 10)"},
		// Nothing completed: nothing to judge (a silent target shows in the inflight count).
		{"silent", engine.Row{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := testDashboard(t, func(st *engine.Stats) { st.Last = tt.last })
			v := view(d)
			if tt.want == "" && strings.Contains(v, "FAILING") || tt.want != "" && !strings.Contains(v, tt.want) {
				t.Errorf("want %q:\n%s", tt.want, v)
			}
		})
	}
}

// TestDashboardTesterWarning: the warning that the tester itself sent late says by how much
// and what to do, which depends on whose the CPU was; none when it kept up.
func TestDashboardTesterWarning(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name   string
		tester engine.TesterLoad
		want   []string // nil: no warning
	}{
		{"kept up", engine.TesterLoad{Lag: 3 * ms, CPU: 0.2, Cores: 2}, nil},
		{"machine busy", engine.TesterLoad{Lag: 52 * ms, Behind: true, CPU: 0.12, Cores: 2},
			[]string{"! TESTER 52.0 ms LATE (part of the latency)", "it used 0.12 of 2 cores; free the CPU others hold"}},
		{"tester is the load", engine.TesterLoad{Lag: 230 * ms, Behind: true, CPU: 1.9, Cores: 2},
			[]string{"! TESTER 230 ms LATE", "it used 1.9 of 2 cores; lower the rate or --shard"}},
		{"CPU unknown", engine.TesterLoad{Lag: 15 * ms, Behind: true, CPU: -1, Cores: 2},
			[]string{"! TESTER 15.0 ms LATE", "free the CPU or lower the rate"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := testDashboard(t, func(st *engine.Stats) { st.Tester = tt.tester })
			d.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			v := view(d)
			if tt.want == nil && strings.Contains(v, "TESTER") {
				t.Errorf("a warning for a tester that kept up:\n%s", v)
			}
			for _, want := range tt.want {
				if !strings.Contains(v, want) {
					t.Errorf("view lacks %q:\n%s", want, v)
				}
			}
		})
	}
}

// BenchmarkDashboardFrame is the dashboard's cost per frame in a busy run: every frame brings
// a new stats view (counts and elapsed time move), every tenth a new timeline second, and the
// pull, the layout and the drawing are redone. At the default 10 frames a second, the share of
// one core is 10 × ns/op / 1e9.
func BenchmarkDashboardFrame(b *testing.B) {
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			base := testStats()
			frame := 0
			d := NewDashboard(DashboardOptions{Stats: func() *engine.Stats {
				frame++
				st := *base
				st.Elapsed += time.Duration(frame) * 100 * time.Millisecond
				st.Total.Completed += int64(frame) * 20
				st.Total.Status = map[string]int64{"200": 5890 + int64(frame)*12, "429": 1100 + int64(frame)*8, "503": 2}
				st.Current.Latency.P99 += float64(frame%7) / 10
				if frame%10 == 0 {
					r := base.Last
					r.T += frame / 10
					r.RPS += float64(frame % 13)
					st.Timeline = append(base.Timeline[frame/10%len(base.Timeline):len(base.Timeline):len(base.Timeline)], r)
				}
				return &st
			}, Control: &fakeController{}})
			d.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			b.ReportAllocs()
			for b.Loop() {
				d.Update(tickMsg{})
				_ = d.View()
			}
		})
	}
}

// TestPaneTitle: a boxed pane's title is its name and a muted note cut to the pane's width
// (a narrow box must not push the note past its border); a compact pane has none.
func TestPaneTitle(t *testing.T) {
	tests := []struct {
		width      int
		wide       bool
		name, note string
		want       string // the title, unstyled; "-" for none
	}{
		{40, true, "Requests", "  (run; latency in ms)", "Requests  (run; latency in ms)"}, // room for it all
		{20, true, "Requests", "  (run; latency in ms)", "Requests  (run; lat…"},           // the note cut to the width
		{8, true, "Requests", "  (run)", "Requests"},                                       // no room for a note
		{40, true, "Events", "", "Events"},                                                 // a name alone
		{40, false, "Requests", "  (run)", "-"},                                            // compact: no title
	}
	for _, tt := range tests {
		p := paneBase{c: paneCommon(&engine.Stats{}), width: tt.width, wide: tt.wide}
		lines := p.title(tt.name, tt.note)
		got := "-"
		if len(lines) > 0 {
			got = ansi.Strip(strings.Join(lines, "\n"))
		}
		if got != tt.want || len(lines) != p.titleLines() {
			t.Errorf("width %d wide %v: title %q (%d lines, titleLines %d), want %q", tt.width, tt.wide, got, len(lines), p.titleLines(), tt.want)
		}
	}
}
