package engine

import (
	"strings"
	"testing"
	"time"
)

// silentStages is a plan of n stages of d each that send nothing: their time is the point.
func silentStages(n int, d time.Duration) []Stage {
	st := make([]Stage, n)
	for i := range st {
		st[i].Duration = d
	}
	return st
}

// TestStageActiveTime: a stage's active time is the sum of its spans as the current stage,
// sending.
func TestStageActiveTime(t *testing.T) {
	sec := time.Second
	three := silentStages(3, 10*sec)
	tests := []struct {
		name   string
		stages []Stage
		acts   []act
		end    time.Duration
		want   []time.Duration // active time per stage
	}{
		// The walk (n b n n): stage 2 is visited twice, 1 s each, not 3 s from its
		// first send to its last answer.
		{"revisited stage: its spans add up", three,
			[]act{{at: 1 * sec, kind: ctlNext}, {at: 2 * sec, kind: ctlPrev}, {at: 3 * sec, kind: ctlNext}, {at: 4 * sec, kind: ctlNext}}, 5800 * time.Millisecond,
			[]time.Duration{2 * sec, 2 * sec, 1800 * time.Millisecond}},
		// Nothing is sent while paused, so a pause is not active time.
		{"paused time is not active", three,
			[]act{{at: 2 * sec, kind: ctlPause}, {at: 5 * sec, kind: ctlResume}}, 6 * sec,
			[]time.Duration{3 * sec, 0, 0}},
		// A held stage keeps sending: held time is active.
		{"held time is active", three,
			[]act{{at: 1 * sec, kind: ctlHold}, {at: 15 * sec, kind: ctlRelease}}, 16 * sec,
			[]time.Duration{16 * sec, 0, 0}},
		// Timed stage changes hand over at the planned end, and the plan's end closes the last
		// stage at its planned end, not at a late wake.
		{"a plan run to its end", []Stage{{Duration: sec}, {Duration: 2 * sec}},
			nil, 3500 * time.Millisecond,
			[]time.Duration{sec, 2 * sec}},
		// A jump while paused lands paused: the new stage is not active until resumed.
		{"next while paused", three,
			[]act{{at: 1 * sec, kind: ctlPause}, {at: 2 * sec, kind: ctlNext}, {at: 4 * sec, kind: ctlResume}}, 5 * sec,
			[]time.Duration{sec, sec, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := (&fakeRun{cfg: testConfig(tt.stages...)}).play(t, tt.acts, tt.end).c
			for i, want := range tt.want {
				if got := c.StageActive(i, tt.end+time.Hour); got != want {
					t.Errorf("stage %d active %s, want %s", i+1, got, want)
				}
			}
		})
	}
}

// TestNextKeepsHold: n and b move a held (or paused) plan to another stage and it stays held (or
// paused); the event says so, and the new stage's end moves only by its own held time.
func TestNextKeepsHold(t *testing.T) {
	sec := time.Second
	tests := []struct {
		name      string
		acts      []act
		state     State
		stage     int
		note      string        // in the next/prev event
		stageLeft time.Duration // after the acts, at their last time
	}{
		// Held, then n: stage 2 is held, and its 10 s start counting only when released.
		{"next while held", []act{{at: 1 * sec, kind: ctlHold}, {at: 3 * sec, kind: ctlNext}, {at: 6 * sec, kind: ctlRelease}, {at: 7 * sec, kind: wake}},
			StateRunning, 1, "manual next stage (still held)", 9 * sec},
		{"prev while held stays held", []act{{at: 1 * sec, kind: ctlNext}, {at: 2 * sec, kind: ctlHold}, {at: 3 * sec, kind: ctlPrev}},
			StateHeld, 0, "manual previous stage (still held)", 0},
		// Paused, then n: still paused, and the new stage's end moves by its own paused time.
		{"next while paused", []act{{at: 1 * sec, kind: ctlPause}, {at: 2 * sec, kind: ctlNext}, {at: 4 * sec, kind: ctlResume}, {at: 5 * sec, kind: wake}},
			StateRunning, 1, "manual next stage (still paused)", 9 * sec},
		// Not held: a plain jump, no note.
		{"plain next", []act{{at: 1 * sec, kind: ctlNext}}, StateRunning, 1, "manual next stage", 10 * sec},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := (&fakeRun{cfg: testConfig(silentStages(3, 10*sec)...)}).play(t, tt.acts, tt.acts[len(tt.acts)-1].at).r
			last := tt.acts[len(tt.acts)-1].at
			r.publish(int64(last))
			st := r.s.state.Load()
			if st.State != tt.state || st.Stage != tt.stage {
				t.Errorf("state %s stage %d, want %s stage %d", st.State, st.Stage+1, tt.state, tt.stage+1)
			}
			if st.StageLeft != tt.stageLeft {
				t.Errorf("stage left %s, want %s", st.StageLeft, tt.stageLeft)
			}
			var details []string
			for _, e := range r.s.events.List() {
				if e.Kind == "next" || e.Kind == "prev" {
					details = append(details, e.Detail)
				}
			}
			if len(details) == 0 || details[len(details)-1] != tt.note {
				t.Errorf("jump events %q, want the last %q", details, tt.note)
			}
			if tt.state == StateHeld && !strings.Contains(strings.Join(details, ";"), "still held") {
				t.Errorf("a held jump is not recorded as still held: %q", details)
			}
		})
	}
}

// TestControlSendsWhatWasDue: a control request handles first the sends due before it under the
// plan as it was, even when the scheduler has not woken for them (a busy CPU): the stage left
// keeps its full rate, and none is dropped without a trace.
func TestControlSendsWhatWasDue(t *testing.T) {
	sec := time.Second
	two := []Stage{{Rate: 100, Duration: time.Hour}, {Rate: 200, Duration: time.Hour}}
	// No tick between the acts: every send comes from a control request's own catch-up.
	c := (&fakeRun{cfg: testConfig(two...)}).play(t, []act{{at: 1 * sec, kind: ctlNext}, {at: 1500 * time.Millisecond, kind: ctlPrev}, {at: 2 * sec, kind: ctlPause}}, 3*sec).c
	for i, want := range []int64{150, 100} { // 100/s for 1 s + 0.5 s; 200/s for 0.5 s
		if got := c.Stage(i).Scheduled.Load(); got != want {
			t.Errorf("stage %d: %d scheduled, want %d", i+1, got, want)
		}
	}
}

// TestSchedulerLogsPauses: the scheduler notes each pause and resume for the rows' target rate;
// a second pause key while paused, or a resume while running, changes nothing.
func TestSchedulerLogsPauses(t *testing.T) {
	sec := time.Second
	c := (&fakeRun{cfg: testConfig(silentStages(1, 10*sec)...)}).play(t,
		[]act{{at: 1 * sec, kind: ctlPause}, {at: 2 * sec, kind: ctlPause}, {at: 3 * sec, kind: ctlResume}, {at: 4 * sec, kind: ctlResume}, {at: 6 * sec, kind: ctlPause}}, 8*sec).c
	for _, tt := range []struct{ from, to, want time.Duration }{
		{0, sec, 0},                 // before the first pause
		{0, 4 * sec, 2 * sec},       // paused 1 s to 3 s
		{5 * sec, 8 * sec, 2 * sec}, // paused again from 6 s, still at the end
	} {
		if got := c.pauses.within(tt.from, tt.to); got != tt.want {
			t.Errorf("paused within [%s, %s): %s, want %s", tt.from, tt.to, got, tt.want)
		}
	}
}
