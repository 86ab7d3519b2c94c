package tui

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// targetsHeader writes the header of a run of geth and erigon side by side.
func targetsHeader(p *LinePrinter) {
	p.HeaderTargets("getBalance", []engine.Target{
		{Name: "geth", DisplayURL: "http://127.0.0.1:8545"},
		{Name: "erigon", DisplayURL: "http://127.0.0.1:8546"},
	}, engine.ModeOpen)
}

// targetsView is the live view of two targets, each with its own timeline (A's rows a, B's
// rows b), the run's events and the answers compared so far.
func targetsView(events []engine.Event, res *answers.Result, a, b []engine.Row) *engine.Stats {
	ga := &engine.Stats{TargetName: "geth", Timeline: a, Events: events}
	eb := &engine.Stats{TargetName: "erigon", Timeline: b}
	top := *ga
	top.Targets, top.Answers = []*engine.Stats{ga, eb}, res
	return &top
}

// targetUpdates is a run of two targets as the engine publishes it: B's aggregator a little
// behind A's, then far behind (its seconds said missing), the answers' mismatches growing,
// and the end.
func targetUpdates() []*engine.Stats {
	ev := []engine.Event{{T: 0.0001, Kind: "stage", Detail: "stage 1/1: 200/s for 10s"}}
	ev2 := append(append([]engine.Event{}, ev...), engine.Event{T: 2.5, Kind: "rate", Detail: "target 250/s (was 200/s)"})
	end := append(append([]engine.Event{}, ev2...), engine.Event{T: 8.2, Kind: "end", Detail: "completed"})
	a := func(t int) engine.Row { return testRow(t, 0, 200, 120, 78) }
	b := func(t int) engine.Row {
		r := testRow(t, 0, 200, 198, 0)
		r.Latency.P50, r.Latency.P99 = 2*r.Latency.P50, 2*r.Latency.P99
		return r
	}
	sat := a(3)
	sat.Saturated, sat.Dropped = true, 7
	counts := func(match, mismatch, skew int64) *answers.Result {
		return &answers.Result{Totals: answers.Counts{Compared: match + mismatch + skew, Match: match, Mismatch: mismatch, HeadSkew: skew}}
	}
	done := func(st *engine.Stats) *engine.Stats { st.Done = true; return st }
	return []*engine.Stats{
		targetsView(ev, nil, nil, nil),                                                   // nothing closed yet
		targetsView(ev, counts(190, 0, 0), []engine.Row{a(0)}, nil),                      // A's second 0, B's still open
		targetsView(ev, counts(380, 2, 0), []engine.Row{a(0), a(1)}, []engine.Row{b(0)}), // second 0 of both
		targetsView(ev2, counts(570, 2, 1), []engine.Row{a(1), a(2)}, []engine.Row{b(0), b(1)}),
		targetsView(ev2, counts(760, 2, 1), []engine.Row{a(2), sat, a(4)}, []engine.Row{b(1), b(2)}), // B two behind
		targetsView(ev2, counts(950, 2, 1), []engine.Row{sat, a(4), a(5), a(6)}, []engine.Row{b(2)}), // B stalls: 3 and 4 go without it
		done(targetsView(end, counts(1140, 5, 1), []engine.Row{a(5), a(6), a(7)}, []engine.Row{b(5), b(6), b(7)})),
	}
}

// printTargetUpdates is what the lines print of targetUpdates.
func printTargetUpdates(t *testing.T) string {
	t.Helper()
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	targetsHeader(p)
	for _, st := range targetUpdates() {
		p.Update(st)
	}
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestLinePrinterTargetsGolden(t *testing.T) {
	out := printTargetUpdates(t)
	golden.RequireEqual(t, []byte(out))
	fixture.CheckPlainAndNarrow(t, out)
}

// targetLine matches a printed second of a target and captures its T and letter.
var targetLine = regexp.MustCompile(`^\s*(\d+)s ([A-Z]) `)

// TestLinePrinterTargetsEachSecondOnce: every second is printed once per target, in order, A
// before B, whatever the order the targets' views close it in; a second a target never
// published says so on its line; the answers are printed when their mismatches change, never
// for matches alone.
func TestLinePrinterTargetsEachSecondOnce(t *testing.T) {
	out := printTargetUpdates(t)
	var got []string
	for _, l := range strings.Split(out, "\n") {
		if m := targetLine.FindStringSubmatch(l); m != nil {
			got = append(got, m[1]+m[2])
			if strings.Contains(l, "(no row)") {
				got[len(got)-1] += "-"
			}
		}
	}
	// B's seconds 3 and 4 were never in any of its views.
	want := "0A 0B 1A 1B 2A 2B 3A 3B- 4A 4B- 5A 5B 6A 6B 7A 7B"
	if strings.Join(got, " ") != want {
		t.Errorf("printed %s\nwant    %s\n%s", strings.Join(got, " "), want, out)
	}
	// Mismatches 0 → 2, then head skew 0 → 1, then at the end 2 → 5: three lines.
	if n := strings.Count(out, "answers:"); n != 3 {
		t.Errorf("%d answers lines, want 3:\n%s", n, out)
	}
	for _, ev := range []string{"stage 1/1", "rate: target 250/s", "end: completed"} {
		if n := strings.Count(out, ev); n != 1 {
			t.Errorf("event %q printed %d times, want once:\n%s", ev, n, out)
		}
	}
}

// TestLinePrinterTargetsWidth: a target's line fits 80 columns at its widest: a long wide
// name, a second of a day-long run, a million answers a second, 99,999 failed, in flight and
// dropped, latencies of a minute, the SATURATED flag; the header escapes what a profile holds.
func TestLinePrinterTargetsWidth(t *testing.T) {
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	long := strings.Repeat("ノード", 10) + fixture.Hostile
	p.HeaderTargets(long, []engine.Target{{Name: long, DisplayURL: "http://" + long}, {Name: "b"}}, engine.ModeOpen)
	r := engine.Row{T: 86399, RPS: 999_999, OK: 999_999, Limited: 999_999, Failed: 99_999, Inflight: 99_999,
		Dropped: 99_999, Saturated: true, Status: map[string]int64{"200": 999_999},
		Latency: engine.RowLatency{P50: 12345.6, P99: 59999.9}}
	st := targetsView(nil, nil, []engine.Row{r}, []engine.Row{r})
	st.Targets[0].TargetName = long
	st.Done = true
	p.Update(st)
	fixture.CheckPlainAndNarrow(t, b.String())
	fixture.CheckEscaped(t, b.String(), false)
	if !strings.Contains(b.String(), "SATURATED") {
		t.Errorf("no SATURATED flag:\n%s", b.String())
	}
}

// TestLinePrinterTargetsHeads: a run following the head prints each target's head by letter
// every engine.HeadWindow seconds.
func TestLinePrinterTargetsHeads(t *testing.T) {
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	targetsHeader(p)
	head := func(rows []engine.Row, base uint64, stale bool) []engine.Row {
		for i := range rows {
			h := base + uint64(i)
			rows[i].Head, rows[i].HeadStale = &h, stale
		}
		return rows
	}
	var a, bb []engine.Row
	for s := range engine.HeadWindow + 1 {
		a, bb = append(a, testRow(s, 0, 10, 10, 0)), append(bb, testRow(s, 0, 10, 10, 0))
	}
	st := targetsView(nil, nil, head(a, 100, false), head(bb, 90, true))
	for _, v := range st.Targets {
		v.Head = &engine.HeadState{Chain: engine.ChainEVM}
	}
	st.Done = true
	p.Update(st)
	want := []string{"⟶ 1.0s heads A 100, B 90 (stale)", fmt.Sprintf("⟶ %d.0s heads A %d, B %d (stale)",
		engine.HeadWindow+1, 100+engine.HeadWindow, 90+engine.HeadWindow)}
	for _, w := range want {
		if !strings.Contains(b.String(), w) {
			t.Errorf("lacks %q:\n%s", w, b.String())
		}
	}
	if n := strings.Count(b.String(), "heads"); n != 2 {
		t.Errorf("%d head lines, want 2:\n%s", n, b.String())
	}
}

// TestLinePrinterTargetsLastSliver: the sliver of a second a run ends in is printed when any
// target's holds answers (then every target's, an empty one with "-" for its latency), and
// left out when none does.
func TestLinePrinterTargetsLastSliver(t *testing.T) {
	empty := engine.Row{T: 1, TargetRate: 50}
	late := engine.Row{T: 1, TargetRate: 50, RPS: 2, OK: 2, Status: map[string]int64{"200": 2}, Latency: engine.RowLatency{P50: 8, P99: 9}}
	tests := []struct {
		name string
		a, b engine.Row // each target's last row
		want []string   // the lines of second 1; none when empty
	}{
		// Only B's late answers: A's empty sliver beside them, not "(no row)".
		{"one with answers", empty, late, []string{"1s A geth         0.0     -     -      0      0     0     0",
			"1s B erigon       2.0  8.00  9.00      2      0     0     0"}},
		// Neither: the sliver is left out.
		{"both empty", empty, empty, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			p := NewLinePrinter(&b, 0)
			targetsHeader(p)
			first := testRow(0, 0, 50, 50, 0)
			st := targetsView(nil, nil, []engine.Row{first, tt.a}, []engine.Row{first, tt.b})
			st.Done = true
			p.Update(st)
			out := b.String()
			if n := strings.Count(out, "   1s "); n != len(tt.want) {
				t.Errorf("%d lines of second 1, want %d:\n%s", n, len(tt.want), out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestLinePrinterTargetsAnswersOncePerSecond: answers that change at every view published (a
// target failing every request adds to incomplete each time) make one line a second, after
// its rows, not one per view (before, six lines at 0.0s came before the first second).
func TestLinePrinterTargetsAnswersOncePerSecond(t *testing.T) {
	var b bytes.Buffer
	p := NewLinePrinter(&b, 0)
	targetsHeader(p)
	row := func(t int) engine.Row { return testRow(t, 0, 100, 100, 0) }
	failing := func(t int) engine.Row { r := testRow(t, 0, 100, 0, 0); r.Failed = 100; return r }
	for i := range 25 { // ten views a second, two and a half seconds
		closed := i/10 - 1 // the last second closed
		var a, bRows []engine.Row
		for s := 0; s <= closed; s++ {
			a, bRows = append(a, row(s)), append(bRows, failing(s))
		}
		res := &answers.Result{Totals: answers.Counts{Compared: int64(10 * i), Incomplete: int64(10 * i)}}
		p.Update(targetsView(nil, res, a, bRows))
	}
	out := b.String()
	if n := strings.Count(out, "answers:"); n != 2 || !strings.Contains(out, "⟶ 1.0s answers:") || !strings.Contains(out, "⟶ 2.0s answers:") {
		t.Errorf("%d answers lines, want one after each of the 2 seconds closed:\n%s", n, out)
	}
}
