package search

import (
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// TestMeasureOfSaturatedSeconds: only the measured window's seconds count as saturated, not the
// rows after it (the drain, the last partial second), which carry the last stage too; a probe
// is never "saturated for 4 of 3 s".
func TestMeasureOfSaturatedSeconds(t *testing.T) {
	row := func(t, stage int, sat bool) engine.Row { return engine.Row{T: t, Stage: stage, Saturated: sat} }
	start := time.Unix(1000, 0)
	snap := &engine.Snapshot{
		StartedAt: start, EndedAt: start.Add(4200 * time.Millisecond), EndReason: engine.EndCompleted,
		Stages: []engine.StageStats{
			{Index: 0, Spec: engine.Stage{Name: StageSettle, Rate: 100, Duration: time.Second}},
			{Index: 1, Spec: engine.Stage{Name: StageMeasure, Rate: 100, Duration: 3 * time.Second}},
		},
		// settle, three measured seconds, then the drain's partial second: all saturated.
		Timeline: []engine.Row{row(0, 0, true), row(1, 1, true), row(2, 1, false), row(3, 1, true), row(4, 1, true)},
	}
	m := measureOf(snap, 3*time.Second)
	if m.SaturatedSeconds != 2 {
		t.Errorf("saturated %d s of the 3 s window, want 2 (the settle and drain rows do not count)", m.SaturatedSeconds)
	}
	for i := range snap.Timeline {
		snap.Timeline[i].Saturated = true
	}
	if m := measureOf(snap, 3*time.Second); m.SaturatedSeconds != 3 {
		t.Errorf("saturated %d s of the 3 s window, want 3 (never more than the window)", m.SaturatedSeconds)
	}
}

// TestMeasureOfAnswered: the answers of the measured window's whole seconds are counted by the
// second they came back, whatever stage sent them; the settle window and the drain after the
// window are left out.
func TestMeasureOfAnswered(t *testing.T) {
	row := func(t, stage int, ok, limited, failed int64) engine.Row {
		return engine.Row{T: t, Stage: stage, OK: ok, Limited: limited, Failed: failed}
	}
	start := time.Unix(1000, 0)
	snap := &engine.Snapshot{
		StartedAt: start, EndedAt: start.Add(5200 * time.Millisecond), EndReason: engine.EndCompleted,
		Stages: []engine.StageStats{
			{Index: 0, Spec: engine.Stage{Name: StageSettle, Rate: 10, Duration: 2 * time.Second}},
			{Index: 1, Spec: engine.Stage{Name: StageMeasure, Rate: 10, Duration: 3 * time.Second}},
		},
		Timeline: []engine.Row{row(0, 0, 10, 0, 0), row(1, 0, 10, 0, 0), row(2, 0, 4, 3, 1), row(3, 1, 8, 0, 0),
			row(4, 1, 6, 2, 0), row(5, 1, 30, 0, 0)},
	}
	m := measureOf(snap, 3*time.Second)
	if m.Answered != 24 || m.AnsweredSeconds != 3 {
		t.Errorf("answered %d in %d s, want 24 in 3 s (seconds 2, 3 and 4, every outcome)", m.Answered, m.AnsweredSeconds)
	}
}

// TestBacklogClause: a probe fails "backlog" when the node answers clearly more slowly than it
// is sent to, and only then.
func TestBacklogClause(t *testing.T) {
	cases := []struct {
		name          string
		sent, seconds float64
		answered      int64
		answeredSecs  int
		want          bool
	}{
		// nginx limit_req rate=240r/m burst=60 without nodelay at 5.75/s: it answers 4/s and
		// queues the rest, nothing fails within the probe.
		{"delaying limiter", 57.5, 10, 40, 10, true},
		// the same limiter just above its rate: 4.2/s sent, 4/s answered, within the slack.
		{"just above a delaying limiter", 42, 10, 40, 10, false},
		// a nodelay limiter answers everything at once, 429s included.
		{"rejecting limiter", 20000, 10, 19990, 10, false},
		// a node past its capacity knee: 1550/s sent, 1500/s answered.
		{"saturated node", 15500, 10, 15000, 10, true},
		// a short window has too few whole seconds to judge.
		{"too short", 100, 1.5, 10, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &Measure{Seconds: c.seconds, Summary: engine.Summary{Sent: int64(c.sent)}, Answered: c.answered, AnsweredSeconds: c.answeredSecs}
			b, got := m.backlog()
			if got != c.want {
				t.Fatalf("backlog breach %v (%+v), want %v", got, b, c.want)
			}
			if got && (b.Clause != "backlog" || b.Text == "") {
				t.Errorf("breach %+v, want clause backlog with a text", b)
			}
		})
	}
}
