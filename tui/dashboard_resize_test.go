package tui

import (
	"fmt"
	"github.com/charmbracelet/x/ansi"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/rpcstress/rpcstress/engine"
)

// TestDashboardResize: the terminal changes size under a live dashboard (a tmux pane split, a
// window dragged). Every frame must fit the new size, in every state of the view.
func TestDashboardResize(t *testing.T) {
	states := []struct {
		name string
		keys []string
		done bool
	}{
		{name: "plain"},
		{name: "full help and bars", keys: []string{"?", "l"}},
		{name: "rate input with an error", keys: []string{"=", "abc", "enter"}},
		{name: "draining", keys: []string{"q"}},
		{name: "done", done: true},
	}
	sizes := [][2]int{{80, 24}, {200, 60}, {80, 24}, {160, 48}, {120, 36}, {119, 36}, {40, 12}, {10, 3}, {1, 1}, {80, 24}}
	for _, s := range states {
		t.Run(s.name, func(t *testing.T) {
			d, _ := testDashboard(t, nil)
			press(d, s.keys...)
			if s.done {
				d.Update(RunDoneMsg{Snapshot: testSnapshot(), Path: "runs/getBalance.json"})
			}
			for _, sz := range sizes {
				d.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				screen := view(d)
				t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) { checkFits(t, screen, sz[0], sz[1]) })
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
