package tui

import (
	"bytes"
	"github.com/charmbracelet/x/exp/golden"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// testRow is second t of a run at stage (0-based) with a target rate, answering 200 and 429.
func testRow(t, stage int, target float64, ok, limited int64) engine.Row {
	return engine.Row{
		T: t, Stage: stage, TargetRate: target, RPS: float64(ok + limited),
		Status: map[string]int64{"200": ok, "429": limited},
		Errors: map[string]int64{},
		OK:     ok, Limited: limited, Inflight: 3,
		Latency: engine.RowLatency{P50: 1.5 + 0.25*float64(t), P90: 4.25 + float64(t), P99: 12.5 + 2*float64(t), Max: 30},
	}
}

// lineUpdates is a sequence of published Stats as a live run makes them: several per second,
// a timeline bounded to three rows whose windows overlap, repeated views, events that arrive
// with the same time, and a stretch the printer never saw.
func lineUpdates() []*engine.Stats {
	stageEvents := []engine.Event{{T: 0.0001, Kind: "stage", Detail: "stage 1/2: 50/s for 3s"}}
	at3 := append(append([]engine.Event{}, stageEvents...),
		engine.Event{T: 3.0, Kind: "stage", Detail: "stage 2/2: 200/s for 10s"},
		engine.Event{T: 3.0, Kind: "hold", Detail: "stage held"}, // same instant as the stage change
	)
	later := append(append([]engine.Event{}, at3...),
		engine.Event{T: 4.5, Kind: "rate", Detail: "target 250/s (was 200/s)"})

	ended := append(append([]engine.Event{}, later[2:]...),
		engine.Event{T: 12.5, Kind: "end", Detail: "completed"})
	done := func(st *engine.Stats) *engine.Stats { st.Done = true; return st }

	r0 := testRow(0, 0, 50, 50, 0)
	r1 := testRow(1, 0, 50, 49, 0)
	r2 := testRow(2, 0, 50, 50, 0)
	r2.Failed, r2.Errors = 1, map[string]int64{"timeout": 1}
	r2.RPCErrors = map[string]int64{"-32602": 2}
	r3 := testRow(3, 1, 200, 120, 78)
	r4 := testRow(4, 1, 200, 121, 79)
	r4.Dropped, r4.Saturated = 4, true
	r5 := testRow(5, 1, 250, 120, 130)
	r8 := testRow(8, 1, 250, 119, 131)
	r9 := testRow(9, 1, 250, 118, 132)

	stats := func(events []engine.Event, rows ...engine.Row) *engine.Stats {
		return &engine.Stats{Plan: engine.PlanState{StageCount: 2}, Timeline: rows, Events: events}
	}
	return []*engine.Stats{
		stats(stageEvents),           // nothing complete yet
		stats(stageEvents, r0),       // first second
		stats(stageEvents, r0),       // the same view again: nothing new
		stats(stageEvents, r0, r1),   // window grows
		stats(at3, r0, r1),           // events at 3.0s wait for row 2, which is still open
		stats(at3, r0, r1, r2),       // two events at 3.0s, after row 2
		stats(at3, r1, r2, r3),       // window slides by one
		stats(later, r3, r4, r5),     // slides by two; the rate event falls in second 4
		stats(later, r3, r4, r5),     // repeated
		stats(later[2:], r5, r8, r9), // seconds 6 and 7 never seen; the event list is windowed too
		stats(later[2:], r8, r9),     // an older view than the last: nothing new, nothing twice
		done(stats(ended, r8, r9)),   // the run ended: the last event is not held back
	}
}

func TestLinePrinterGolden(t *testing.T) {
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	p.Header("getBalance", "http://127.0.0.1:8899", engine.ModeOpen)
	for _, st := range lineUpdates() {
		p.Update(st)
	}
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	golden.RequireEqual(t, b.Bytes())
	fixture.CheckPlainAndNarrow(t, b.String())
}

// rowLine matches a printed timeline second and captures its T.
var rowLine = regexp.MustCompile(`^\s*(\d+)s `)

func TestLinePrinterEachSecondOnceInOrder(t *testing.T) {
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	for _, st := range lineUpdates() {
		p.Update(st)
	}
	var got []int
	for _, l := range strings.Split(b.String(), "\n") {
		if m := rowLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			got = append(got, n)
		}
	}
	want := []int{0, 1, 2, 3, 4, 5, 8, 9}
	if len(got) != len(want) {
		t.Fatalf("printed seconds %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("printed seconds %v, want %v", got, want)
		}
	}
	if !strings.Contains(b.String(), "no rows for 6s–7s") {
		t.Errorf("the missed seconds 6–7 are not reported:\n%s", b.String())
	}
	for _, ev := range []string{"stage 2/2", "hold: stage held", "rate: target 250/s", "end: completed"} {
		if n := strings.Count(b.String(), ev); n != 1 {
			t.Errorf("event %q printed %d times, want once:\n%s", ev, n, b.String())
		}
	}
}

func TestLinePrinterClosedMode(t *testing.T) {
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	p.Header("flood", "http://127.0.0.1:8899", engine.ModeClosed)
	p.Update(&engine.Stats{Timeline: []engine.Row{testRow(0, 0, 0, 1000, 0)}})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	last := lines[len(lines)-1]
	// Closed loop has no target rate.
	if fields := strings.Fields(last); len(fields) < 2 || fields[1] != "-" {
		t.Errorf("closed-mode line = %q, want target \"-\"", last)
	}
	if !strings.Contains(b.String(), "(closed loop)") {
		t.Errorf("header does not name the mode:\n%s", b.String())
	}
}

func TestLinePrinterWriteError(t *testing.T) {
	p := NewLinePrinter(fixture.FailingWriter{}, 0)
	p.Header("x", "y", engine.ModeOpen)
	p.Update(&engine.Stats{Timeline: []engine.Row{testRow(0, 0, 1, 1, 0)}})
	if err := p.Err(); err == nil || !strings.Contains(err.Error(), fixture.ErrDiskFull.Error()) {
		t.Fatalf("Err() = %v, want the write error", err)
	}
}

// TestLinePrinterHonestSeconds: a second without answers shows "-" for its latency, not 0 ms
// (read as instant answers); the last row of a run that holds nothing (the sliver of a second
// the run ended in) is not printed, while an empty second inside the run is.
func TestLinePrinterHonestSeconds(t *testing.T) {
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	quiet := engine.Row{T: 1, TargetRate: 50, Inflight: 40} // a stall: nothing back, 40 waiting
	sliver := engine.Row{T: 3, TargetRate: 50}
	p.Update(&engine.Stats{Timeline: []engine.Row{testRow(0, 0, 50, 50, 0), quiet, testRow(2, 0, 50, 90, 0), sliver}, Done: true})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3 (seconds 0–2; the empty last second left out):\n%s", len(lines), b.String())
	}
	if f := strings.Fields(lines[1]); f[0] != "1s" || f[3] != "-" || f[4] != "-" || f[5] != "-" || f[9] != "40" {
		t.Errorf("the stalled second reads %q: want - for p50, p90 and p99 and 40 in flight", lines[1])
	}
}
