package report

import (
	"bytes"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// compareText compares the runs at the default width, the files unnamed.
func compareText(t *testing.T, runs ...*engine.Snapshot) string {
	t.Helper()
	crs := make([]CompareRun, len(runs))
	for i, s := range runs {
		crs[i] = CompareRun{Snapshot: s}
	}
	return written(t, func(w io.Writer) error { return WriteCompare(w, crs, 0) })
}

func stagesAt(rates ...engine.Rate) []engine.StageStats {
	out := make([]engine.StageStats, len(rates))
	for i, r := range rates {
		out[i] = engine.StageStats{Index: i, Spec: engine.Stage{Rate: r, Duration: 10 * time.Second}}
	}
	return out
}

func TestMatchStages(t *testing.T) {
	tests := []struct {
		name       string
		ref, other []engine.Rate
		byPosition bool
		match      []int
		extra      []int
	}{
		// The same plan pairs one to one.
		{"same plan", []engine.Rate{250, 500, 1000}, []engine.Rate{250, 500, 1000}, false, []int{0, 1, 2}, nil},
		// Order does not matter: stages pair by rate.
		{"other order", []engine.Rate{250, 500}, []engine.Rate{500, 250}, false, []int{1, 0}, nil},
		// Within 1 % is the same rate (240/m written as 4/s, or a rounded shard rate) …
		{"within 1%", []engine.Rate{4, 1000}, []engine.Rate{4.02, 990}, false, []int{0, 1}, nil},
		// … beyond it is not.
		{"beyond 1%", []engine.Rate{1000}, []engine.Rate{1011}, false, []int{-1}, []int{0}},
		// The closest candidate wins, not the first within reach.
		{"closest", []engine.Rate{1000}, []engine.Rate{1009, 1001}, false, []int{1}, []int{0}},
		// A rate visited twice pairs first with first, second with second.
		{"repeated rate", []engine.Rate{100, 200, 100}, []engine.Rate{100, 200, 100}, false, []int{0, 1, 2}, nil},
		// A stage only the other run has is left over; one only the reference has is -1.
		{"different lists", []engine.Rate{250, 500, 1000}, []engine.Rate{250, 1000, 2000}, false, []int{0, -1, 1}, []int{2}},
		// Zero (a pause stage) pairs with zero only.
		{"pause", []engine.Rate{0, 100}, []engine.Rate{100, 0}, false, []int{1, 0}, nil},
		// By position (closed loop), rates are ignored; the longer list's tail is left over.
		{"by position", []engine.Rate{0, 0}, []engine.Rate{0, 0, 0}, true, []int{0, 1}, []int{2}},
		// Against an empty plan everything is unmatched.
		{"empty other", []engine.Rate{100}, nil, false, []int{-1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			match, extra := matchStages(stagesAt(tt.ref...), stagesAt(tt.other...), tt.byPosition)
			if !slices.Equal(match, tt.match) || !slices.Equal(extra, tt.extra) {
				t.Errorf("match %v extra %v, want %v %v", match, extra, tt.match, tt.extra)
			}
		})
	}
}

func TestCompareValue(t *testing.T) {
	rps, p99, failed := compareMetrics[0], compareMetrics[3], compareMetrics[6]
	tests := []struct {
		name     string
		m        compareMetric
		ref, v   float64
		abs, pct float64 // pct NaN: no percentage
		verdict  Verdict
	}{
		// More throughput is better, less is worse.
		{"rps up", rps, 1000, 1200, 200, 20, Better},
		{"rps down", rps, 1000, 800, -200, -20, Worse},
		// Lower latency is better, higher is worse.
		{"latency down", p99, 20, 15, -5, -25, Better},
		{"latency up", p99, 20, 30, 10, 50, Worse},
		// What prints the same is the same, with no delta.
		{"same as printed", p99, 4.3312, 4.3298, 0, 0, Same},
		// A change under 1 % is shown but not judged.
		{"noise", rps, 1000, 1005, 5, 0.5, Same},
		// From zero there is no percentage, and any change counts: the first failures are news.
		{"first failures", failed, 0, 3, 3, math.NaN(), Worse},
		{"zero stays zero", failed, 0, 0, 0, math.NaN(), Same},
		// Fewer failures is better.
		{"failures gone", failed, 10, 0, -10, -100, Better},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := compareValue(tt.m, tt.ref, tt.v)
			pctOK := math.IsNaN(tt.pct) && math.IsNaN(d.Pct) || math.Abs(d.Pct-tt.pct) < 1e-9
			if math.Abs(d.Abs-tt.abs) > 1e-9 || !pctOK || d.Verdict != tt.verdict {
				t.Errorf("got %+v, want abs %v pct %v verdict %v", d, tt.abs, tt.pct, tt.verdict)
			}
		})
	}
}

func TestDeltaText(t *testing.T) {
	p50 := compareMetrics[1]
	tests := []struct {
		ref, v             float64
		abs, pct, judgment string
	}{
		{4.12, 5.3, "+1.18", "+28.6%", "▲ worse"},
		{4.12, 2.06, "-2.06", "-50.0%", "▼ better"},
		{4.12, 4.12, "=", "", ""},
		{0, 1.5, "+1.50", "", "▲ worse"},
	}
	for _, tt := range tests {
		d := compareValue(p50, tt.ref, tt.v)
		if a, p, j := formatDeltaAbs(p50, d), formatDeltaPct(d), verdictText(d); a != tt.abs || p != tt.pct || j != tt.judgment {
			t.Errorf("%v → %v: %q %q %q, want %q %q %q", tt.ref, tt.v, a, p, j, tt.abs, tt.pct, tt.judgment)
		}
	}
}

// shiftLimited turns n of a summary's 429 answers into 200s (n < 0: the other way).
func shiftLimited(s *engine.Summary, n int64) {
	s.Status = map[string]int64{"200": s.Status["200"] + n, "429": s.Status["429"] - n}
	s.OK, s.Limited = s.OK+n, s.Limited-n
}

// compareRuns are fixture.Snapshot as run A, and B: the same plan against a faster node with a
// higher limit; C: a slower node that fails more.
func compareRuns() []CompareRun {
	a, b, c := fixture.Snapshot(), fixture.Snapshot(), fixture.Snapshot()
	b.StartedAt = b.StartedAt.Add(time.Hour)
	fixture.ScaleLatency(&b.Totals, 0.8)
	fixture.ScaleLatency(&b.Stages[1].Summary, 0.7)
	shiftLimited(&b.Totals, 500)
	shiftLimited(&b.Stages[1].Summary, 500)
	c.StartedAt = c.StartedAt.Add(2 * time.Hour)
	fixture.ScaleLatency(&c.Totals, 1.5)
	fixture.ScaleLatency(&c.Stages[0].Summary, 1.004) // noise
	fixture.ScaleLatency(&c.Stages[1].Summary, 1.6)
	c.Stages[1].Summary.RPS, c.Totals.RPS = 190.1, 120.05
	c.Stages[1].Summary.Failed, c.Totals.Failed = 25, 30
	c.Stages[1].Summary.Dropped, c.Totals.Dropped = 0, 0
	return []CompareRun{{File: "runs/a.json", Snapshot: a}, {File: "runs/b.json", Snapshot: b}, {File: "runs/c.json", Snapshot: c}}
}

func TestWriteCompareGolden(t *testing.T) {
	runs := compareRuns()
	// D ran another plan: its first stage is A's 50/s within 1 %; it has no 200/s stage, and
	// stages at 100/s and 400/s that A has not.
	d := fixture.Snapshot()
	d.Stages = []engine.StageStats{d.Stages[0], d.Stages[0], d.Stages[1]}
	d.Stages[0].Spec.Rate = 50.4
	d.Stages[1].Spec.Rate, d.Stages[1].Summary.RPS = 100, 99.9
	d.Stages[2].Spec.Rate, d.Stages[2].Summary.RPS = 400, 391.3
	tests := []struct {
		golden string
		runs   []CompareRun
	}{
		{"compare_2runs", runs[:2]},
		{"compare_3runs", runs},
		{"compare_mismatched", []CompareRun{runs[0], {File: "runs/d.json", Snapshot: d}}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			out := written(t, func(w io.Writer) error { return WriteCompare(w, tt.runs, 0) })
			golden.RequireEqual(t, []byte(out))
			fixture.CheckPlainAndNarrow(t, out)
		})
	}
}

func TestWriteCompareMismatchedSays(t *testing.T) {
	a, d := fixture.Snapshot(), fixture.Snapshot()
	d.Stages = append(d.Stages, d.Stages[1])
	d.Stages[1].Spec.Rate, d.Stages[2].Spec.Rate = 1000, 2000
	checkContains(t, "compare", compareText(t, a, d),
		"run A stage 2 (200/s): no stage at this rate in B",
		"run B stage 2 (1000/s): no stage at this rate in A",
		"run B stage 3 (2000/s): no stage at this rate in A",
		"Stage 2 · 200/s   A: stage 2, 10s   B: none",
		"the runs' plans differ")
}

// TestWriteCompareStageNotRun: a run that ended before a stage (stopped, or a partial snapshot)
// lists it with zeros; compare says it did not run instead of judging a 0 ms latency better.
func TestWriteCompareStageNotRun(t *testing.T) {
	a, b := fixture.Snapshot(), fixture.Snapshot()
	b.Stages[1].Summary = engine.Summary{}
	got := compareText(t, a, b)
	stage2, _, _ := strings.Cut(got[strings.Index(got, "Stage 2"):], "Δ and Δ% are against")
	if !strings.Contains(stage2, "B: stage 2 did not run") || strings.Contains(stage2, "-100.0%") || strings.Contains(stage2, "better") {
		t.Errorf("a stage B never ran must not be compared:\n%s", got)
	}
	// Neither ran it: nothing to show, and no crash.
	a.Stages[1].Summary = engine.Summary{}
	checkContains(t, "a stage no run reached", compareText(t, b, a), "no run sent anything in this stage")
}

func TestWriteCompareClosedLoop(t *testing.T) {
	a, b := fixture.Snapshot(), fixture.Snapshot()
	a.Mode, b.Mode = engine.ModeClosed, engine.ModeClosed
	b.Stages[1].Spec.Rate = 12345 // ignored: closed-loop stages pair by position
	if out := compareText(t, a, b); !strings.Contains(out, "Stage 2   A: stage 2, 10s   B: stage 2, 10s") || strings.Contains(out, "Not matched") {
		t.Errorf("closed-loop stages must pair by position:\n%s", out)
	}
}

func TestWriteCompareNeedsTwo(t *testing.T) {
	if err := WriteCompare(&bytes.Buffer{}, []CompareRun{{Snapshot: fixture.Snapshot()}}, 0); err == nil {
		t.Error("one run compared")
	}
	if err := WriteCompare(&bytes.Buffer{}, []CompareRun{{Snapshot: fixture.Snapshot()}, {}}, 0); err == nil {
		t.Error("a run without a snapshot compared")
	}
}

// TestCompareSharesWhenDurationsDiffer: run B's stage 2 lasted 6.2 s against A's 8.1 s, with the
// same shares of ok and 429 (a run stopped early). Counts would call B's ok 23.5 % worse for
// being shorter; the block compares rates and shares instead, and says why.
func TestCompareSharesWhenDurationsDiffer(t *testing.T) {
	a, b := fixture.Snapshot(), fixture.Snapshot()
	a.Stages[1].Summary.DurationS = 8.1
	b.Stages[1].Summary.DurationS = 6.2
	sb := &b.Stages[1].Summary
	sb.Completed, sb.Status, sb.OK, sb.Limited, sb.Failed = 1519, map[string]int64{"200": 918, "429": 597, "504": 4}, 918, 597, 4
	sb.Scheduled, sb.Sent, sb.Dropped, sb.Inflight = 1531, 1523, 8, 4
	out := compareText(t, a, b)
	stage2 := out[strings.Index(out, "Stage 2"):]
	checkContains(t, "stage 2", stage2, "ok %", "limited %", "dropped %", "the runs lasted differently (A 8.1s, B 6.2s)")
	for _, l := range strings.Split(stage2, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "ok") && strings.Contains(l, "worse") {
			t.Errorf("the shorter run's ok is judged worse: %q", l)
		}
	}
	// Stage 1 lasted as long in both: its counts stay counts.
	stage1 := out[strings.Index(out, "Stage 1"):strings.Index(out, "Stage 2")]
	if strings.Contains(stage1, "ok %") || strings.Contains(stage1, "lasted differently") {
		t.Errorf("stage 1 lasted 10 s in both runs but is compared by shares:\n%s", stage1)
	}
}

// TestCompareNotesHandAndEarlyEnd: a run stopped by hand before its last stage, paused, held and
// steered, says so under its name, and the totals say the plans differ.
func TestCompareNotesHandAndEarlyEnd(t *testing.T) {
	a, b := fixture.Snapshot(), fixture.Snapshot()
	b.EndReason = "quit"
	b.Stages[1].Summary = engine.Summary{} // stopped before stage 2
	b.Events = append(b.Events, engine.Event{T: 2, Kind: "pause", Detail: "sending paused"},
		engine.Event{T: 3, Kind: "resume", Detail: "sending resumed"}, engine.Event{T: 4, Kind: "pause", Detail: "sending paused"},
		engine.Event{T: 5, Kind: "hold", Detail: "stage held"}, engine.Event{T: 6, Kind: "rate", Detail: "target 60/s (was 50/s)"},
		engine.Event{T: 7, Kind: "next", Detail: "already at the last stage"})
	out := compareText(t, a, b)
	text := strings.Join(strings.Fields(out), " ")
	checkContains(t, "compare", text,
		"! ended early (quit), paused 2×, held, rate set by hand: not the plan's numbers alone",
		"the runs' plans differ (B ended early)")
	if strings.Contains(text, "stage changed by hand") || strings.Count(text, "not the plan's numbers") != 1 {
		t.Errorf("a key that did nothing, or run A, got a note:\n%s", out)
	}
}

// targetRuns are three runs for a comparison target by target: A sent to geth and erigon; B
// to erigon (its latency doubled) and reth; C to a single target at geth's URL, 20 % faster.
func targetRuns() []CompareRun {
	a, b, c := fixture.TargetsSnapshot(), fixture.TargetsSnapshot(), fixture.SnapshotWithTimeline()
	b.Targets = []engine.TargetRun{b.Targets[1], b.Targets[1]}
	fixture.ScaleLatency(&b.Targets[0].Totals, 2)
	b.Targets[1].Name, b.Targets[1].Target = "reth", "http://127.0.0.1:8546"
	fixture.ScaleLatency(&c.Totals, 0.8)
	return []CompareRun{{File: "runs/a.json", Snapshot: a}, {File: "runs/b.json", Snapshot: b}, {File: "runs/geth.json", Snapshot: c}}
}

// TestWriteCompareTargetsGolden: one run's targets against each other (B against A, with how
// their answers compared), and runs with targets compared target by target: geth in A and in
// C (a single target at geth's URL), erigon in A and B, reth in B alone; at 80 columns.
func TestWriteCompareTargetsGolden(t *testing.T) {
	for _, tt := range []struct {
		golden string
		write  func(io.Writer) error
	}{
		{"one_run", func(w io.Writer) error {
			return WriteCompareTargets(w, CompareRun{File: "runs/side.json", Snapshot: fixture.TargetsSnapshot()}, 0)
		}},
		{"by_target", func(w io.Writer) error { return WriteCompare(w, targetRuns(), 0) }},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			out := written(t, tt.write)
			golden.RequireEqual(t, []byte(out))
			fixture.CheckPlainAndNarrow(t, out)
		})
	}
}

// TestWriteCompareByTarget: each target's block compares the runs that have it, each run by
// its own letter, against the first of them; what one run alone has is said; runs that share
// no target are refused with what each ran.
func TestWriteCompareByTarget(t *testing.T) {
	out := written(t, func(w io.Writer) error { return WriteCompare(w, targetRuns(), 0) })
	checkContains(t, "the comparison", out,
		"━━ Target geth: A vs C (C by its URL: a run of a single target)",
		"━━ Target erigon: A vs B", "reth: only in B (A, C sent nothing to it)",
		// erigon in B is twice as slow as in A
		"  p99 ms       36.5   72.9  +36.5  +100.0%  ▲ worse")
	if strings.Contains(out, "━━ Target reth") {
		t.Error("reth is in one run only: it has no block")
	}
	lone := fixture.SnapshotWithTimeline()
	lone.Target = "http://elsewhere:8545"
	err := WriteCompare(&bytes.Buffer{}, []CompareRun{{Snapshot: fixture.TargetsSnapshot()}, {Snapshot: lone}}, 0)
	if !errors.Is(err, ErrNothingToCompare) || !strings.Contains(err.Error(), "A: geth, erigon; B: http://elsewhere:8545") {
		t.Errorf("runs without a common target: %v", err)
	}
	if err := WriteCompareTargets(&bytes.Buffer{}, CompareRun{Snapshot: fixture.Snapshot()}, 0); err == nil {
		t.Error("one run of a single target has nothing to compare")
	}
}

// TestCompareFourTargetsFits: a compare of four targets' runs (names as long as a name may be)
// fits 80 columns: its tables split against A when one would not fit, and every target still
// has its numbers.
func TestCompareFourTargetsFits(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCompareTargets(&b, CompareRun{File: "runs/four.json", Snapshot: fixture.RichTargetsSnapshot(4)}, 0); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("a line of %d cells: %q", w, l)
		}
	}
	// One table of four made 91-cell lines: the totals are now two or more, each with its p50.
	if n := strings.Count(out, "p50 ms"); n < 2 {
		t.Errorf("the totals are in %d table(s), want them split:\n%s", n, out)
	}
}
