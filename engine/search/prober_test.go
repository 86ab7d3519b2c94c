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
