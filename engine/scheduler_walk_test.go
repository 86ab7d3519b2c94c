package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWalkMatchesReference walks plans through control requests on a fake clock, the timer
// waking the walk on its ticks as Run's does, and holds every send's due time and stage, every
// stage entry, the books (scheduled and dropped per stage), when the schedule ended and the send
// lag against the exact reference (refWalk).
func TestWalkMatchesReference(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name    string
		stages  []Stage
		acts    []act
		end     time.Duration // a stop then, unless the schedule ended before
		limit   int64         // Config.MaxRequests
		shards  int           // > 1: every shard of this many, and their union against one
		backlog int           // > 0: a backlog this long that nobody takes jobs from
		lag     map[int]time.Duration
	}{
		// One stage run to its end: exactly rate × duration sends, on a 5 ms grid.
		{name: "constant rate", stages: []Stage{{Rate: 200, Duration: time.Second}}, end: 2 * time.Second},
		// An interval of 333 333 333.3 ns: the sends fall to the ns below, never drift.
		{name: "interval not a whole ns", stages: []Stage{{Rate: 3, Duration: 2 * time.Second}}, end: 3 * time.Second},
		// A ramp as a profile expands it: 240/m, then doubling every 2 s.
		{name: "ramp", stages: []Stage{{Rate: 4, Duration: 2 * time.Second}, {Rate: 8, Duration: 2 * time.Second},
			{Rate: 16, Duration: 2 * time.Second}}, end: 7 * time.Second},
		// Stages whose ends fall between sends, a silent stage, an open-ended last one.
		{name: "several stages", stages: []Stage{{Rate: 3, Duration: 1500 * ms}, {Rate: 0, Duration: time.Second},
			{Rate: 1000, Duration: 250 * ms}, {Rate: 7}}, end: 4 * time.Second},
		// A pause sends nothing; the resume starts afresh (no catch-up burst) and the stage ends
		// later by the time paused.
		{name: "pause and resume", stages: []Stage{{Rate: 100, Duration: 2 * time.Second}, {Rate: 10, Duration: time.Second}},
			acts: []act{{at: 500*ms + 300_000, kind: ctlPause}, {at: 1234*ms + 500_000, kind: ctlResume}}, end: 5 * time.Second},
		// A hold keeps sending but stops the stage's time; the release lets it run out.
		{name: "hold and release", stages: []Stage{{Rate: 100, Duration: time.Second}, {Rate: 50, Duration: time.Second}},
			acts: []act{{at: 600 * ms, kind: ctlHold}, {at: 2500 * ms, kind: ctlRelease}}, end: 5 * time.Second},
		// A pause inside a hold: the stage stood still from 200 to 700 ms, so it ends 500 ms
		// late, not 700 (the hold's 500 and the pause's 200 added).
		{name: "pause inside a hold", stages: []Stage{{Rate: 100, Duration: time.Second}, {Rate: 50, Duration: time.Second}},
			acts: []act{{at: 200 * ms, kind: ctlHold}, {at: 300 * ms, kind: ctlPause}, {at: 500 * ms, kind: ctlResume},
				{at: 700 * ms, kind: ctlRelease}}, end: 3 * time.Second},
		// A hold and a pause that overlap: stood still from 200 to 700 ms again.
		{name: "hold and pause overlapping", stages: []Stage{{Rate: 100, Duration: time.Second}, {Rate: 50, Duration: time.Second}},
			acts: []act{{at: 200 * ms, kind: ctlPause}, {at: 300 * ms, kind: ctlHold}, {at: 500 * ms, kind: ctlResume},
				{at: 700 * ms, kind: ctlRelease}}, end: 3 * time.Second},
		// Next and previous mid-stage: the new stage starts at the request, whole.
		{name: "next and prev mid-stage", stages: []Stage{{Rate: 100, Duration: 10 * time.Second},
			{Rate: 300, Duration: 10 * time.Second}, {Rate: 50, Duration: 10 * time.Second}},
			acts: []act{{at: 1234*ms + 567, kind: ctlNext}, {at: 2 * time.Second, kind: ctlNext},
				{at: 2500 * ms, kind: ctlPrev}, {at: 2600 * ms, kind: ctlPrev}, {at: 2700 * ms, kind: ctlPrev}}, end: 3 * time.Second},
		// A jump while paused lands paused; the new stage's time starts at the resume.
		{name: "next while paused", stages: []Stage{{Rate: 100, Duration: time.Second}, {Rate: 200, Duration: time.Second},
			{Rate: 10, Duration: time.Second}}, acts: []act{{at: 300 * ms, kind: ctlPause}, {at: 400 * ms, kind: ctlNext},
			{at: 900 * ms, kind: ctlResume}}, end: 3 * time.Second},
		// A rate change lasts until the stage changes, a change while paused until after the
		// resume; a zero rate sends nothing.
		{name: "set rate", stages: []Stage{{Rate: 100, Duration: 2 * time.Second}, {Rate: 200, Duration: time.Second}},
			acts: []act{{at: 500*ms + 100_000, kind: ctlRate, rate: 250}, {at: time.Second, kind: ctlRate},
				{at: 1500 * ms, kind: ctlRate, rate: 1000}, {at: 2500 * ms, kind: ctlPause},
				{at: 2600 * ms, kind: ctlRate, rate: 40}, {at: 2700 * ms, kind: ctlResume}}, end: 4 * time.Second},
		// The request limit: exactly 50, and the schedule is over as the 50th goes.
		{name: "request limit", stages: []Stage{{Rate: 1000, Duration: 10 * time.Second}}, limit: 50, end: 10 * time.Second},
		// A slow rate: over at the 5th send (400 ms), not when the 6th would be due.
		{name: "request limit at a slow rate", stages: []Stage{{Rate: 10, Duration: 10 * time.Second}}, limit: 5, end: 10 * time.Second},
		// Shards take their own phase, through stage ends, a pause and a rate change.
		{name: "shards", stages: []Stage{{Rate: 100, Duration: time.Second}, {Rate: 30, Duration: time.Second}},
			acts:   []act{{at: 1500 * ms, kind: ctlPause}, {at: 1700 * ms, kind: ctlResume}, {at: 2 * time.Second, kind: ctlRate, rate: 7}},
			shards: 3, end: 3 * time.Second},
		// Shards split the request limit as the one machine would send it.
		{name: "shards with a request limit", stages: []Stage{{Rate: 1000, Duration: time.Second}}, limit: 10, shards: 3, end: time.Second},
		// A late wake (the process stalled 1.5 s): everything due went out then, none lost, and
		// the lag is recorded in the second it went out.
		{name: "late wake", stages: []Stage{{Rate: 1000, Duration: 3 * time.Second}}, acts: []act{{at: 1500 * ms}},
			end: 4 * time.Second, lag: map[int]time.Duration{1: 1499 * ms}},
		// A late wake across a stage end: the stage changes at its planned end.
		{name: "late wake across a stage end", stages: []Stage{{Rate: 100, Duration: time.Second}, {Rate: 200, Duration: time.Second}},
			acts: []act{{at: 1700 * ms}}, end: 3 * time.Second, lag: map[int]time.Duration{1: 1690 * ms}},
		// Nobody takes the jobs: a backlog of 10 keeps the first 10, the rest are dropped.
		{name: "backlog full", stages: []Stage{{Rate: 1000, Duration: 100 * ms}}, backlog: 10, end: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shards := max(tt.shards, 1)
			var union []job
			for shard := range shards {
				cfg := testConfig(tt.stages...)
				cfg.MaxRequests = tt.limit
				if shards > 1 {
					cfg.Shard, cfg.ShardCount = shard+1, shards
				}
				if tt.backlog > 0 {
					cfg.Backlog = tt.backlog
				}
				f := (&fakeRun{cfg: cfg, ticks: true, reader: tt.backlog == 0}).play(t, tt.acts, tt.end)
				ref := newRefWalk(tt.stages, int64(shard), int64(shards), shareOf(tt.limit, shard, shards)).play(tt.acts, tt.end)
				name := fmt.Sprintf("shard %d of %d: ", shard+1, shards)
				checkWalk(t, name, f, ref, tt.backlog)
				checkLag(t, name, f, tt.lag, tt.end)
				union = append(union, f.jobs...)
			}
			if shards > 1 {
				one := newRefWalk(tt.stages, 0, 1, tt.limit).play(tt.acts, tt.end)
				slices.SortFunc(union, func(a, b job) int { return cmp.Compare(a.intended, b.intended) })
				checkJobs(t, "all shards: ", union, one.jobs)
			}
		})
	}
}

// shareOf is shard's part of a request limit split across shards: the first ones take the rest.
func shareOf(limit int64, shard, shards int) int64 {
	n := limit / int64(shards)
	if int64(shard) < limit%int64(shards) {
		n++
	}
	return n
}

// checkWalk holds a fake-clock walk against the reference: the jobs, the stage entries, the
// books and the end.
func checkWalk(t *testing.T, name string, f *fakeRun, ref *refWalk, backlog int) {
	t.Helper()
	kept := ref.jobs
	if backlog > 0 && len(kept) > backlog {
		kept = kept[:backlog]
	}
	checkJobs(t, name, f.jobs, kept)
	var got, want []string // stage entries as "stage 2 at 1.5s"
	for _, e := range f.r.s.events.List() {
		var i int
		if _, err := fmt.Sscanf(e.Detail, "stage %d/", &i); e.Kind == "stage" && err == nil {
			got = append(got, fmt.Sprintf("stage %d at %vs", i, e.T))
		}
	}
	for _, e := range ref.entries {
		want = append(want, fmt.Sprintf("stage %d at %vs", e.stage+1, time.Duration(e.at).Seconds()))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%sentered %q, want %q", name, got, want)
	}
	for i := range f.r.stages {
		var scheduled, dropped int64
		for k, j := range ref.jobs {
			if int(j.stage) == i {
				scheduled++
				if backlog > 0 && k >= backlog {
					dropped++
				}
			}
		}
		sc := f.c.Stage(i)
		if sc.Scheduled.Load() != scheduled || sc.Dropped.Load() != dropped {
			t.Errorf("%sstage %d: scheduled %d dropped %d, want %d and %d", name, i+1,
				sc.Scheduled.Load(), sc.Dropped.Load(), scheduled, dropped)
		}
	}
	// The walk notices the end at the first tick after it, or at the stop that is the end.
	if f.now < ref.end || f.now >= ref.end+f.r.s.tick {
		t.Errorf("%sthe schedule ended at %s, want %s (to the tick after)", name, time.Duration(f.now), time.Duration(ref.end))
	}
}

// checkJobs compares jobs handed out with the reference's, showing the first difference.
func checkJobs(t *testing.T, name string, got, want []job) {
	t.Helper()
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("%sjob %d due %s in stage %d, want %s in stage %d", name, i,
				time.Duration(got[i].intended), got[i].stage+1, time.Duration(want[i].intended), want[i].stage+1)
			return
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s%d jobs, want %d", name, len(got), len(want))
	}
}

// checkLag holds the walk's worst send lag of every second against want (none where unset).
func checkLag(t *testing.T, name string, f *fakeRun, want map[int]time.Duration, end time.Duration) {
	t.Helper()
	for sec := range int(end/time.Second) + 1 {
		if got := f.r.s.lags.worst(sec); got != want[sec] {
			t.Errorf("%ssecond %d: worst send lag %s, want %s", name, sec, got, want[sec])
		}
	}
}

// TestSchedulerControls: every control action is obeyed and recorded as an event.
func TestSchedulerControls(t *testing.T) {
	cfg := testConfig(Stage{Rate: 100, Duration: time.Hour}, Stage{Rate: 200, Duration: time.Hour})
	sec := time.Second
	f := &fakeRun{cfg: cfg, ticks: true, reader: true}
	f.begin()
	f.run(t, act{sec, ctlRate, 500}, act{2 * sec, ctlPause, 0}, act{3 * sec, ctlResume, 0},
		act{4 * sec, ctlHold, 0}, act{5 * sec, ctlRelease, 0}, act{6 * sec, ctlNext, 0})
	if st := f.r.s.state.Load(); st.Stage != 1 || st.TargetRate != 200 {
		t.Errorf("after next stage: stage %d target %v, want stage 2 at 200", st.Stage+1, st.TargetRate)
	}
	f.run(t, act{7 * sec, ctlPrev, 0})
	f.stop(8 * sec)
	var kinds []string
	for _, e := range f.r.s.events.List() {
		kinds = append(kinds, e.Kind)
	}
	got := strings.Join(kinds, " ")
	if !strings.Contains(got, "rate pause resume hold unhold next stage prev stage stop") {
		t.Errorf("events = %q", got)
	}
}
