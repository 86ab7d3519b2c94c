package engine

import (
	"testing"
	"time"
)

// TestSendTickGrain: Config.SendTick sets how often the walk wakes, never which sends it makes
// or when they are intended: the jobs equal the exact reference at every grain, none leaves
// later than one tick after its intended time, and the timer wakes once per tick that has a
// send due (1000/s for a second: 1000 wakes at 1 ms, 100 at 10 ms, and at 100 µs still one per
// send, not ten). The lag book, which says when the tester fell behind, holds only lateness
// beyond the tick a send was due at: none on time whatever the grain, and a late wake's
// excess when one comes (a wake 493 ms after the 10 ms tick the first waiting send was due
// at).
func TestSendTickGrain(t *testing.T) {
	tests := []struct {
		name  string
		tick  time.Duration // Config.SendTick; 0 is the default
		wakes int
		acts  []act
		lag   map[int]time.Duration
	}{
		// The default, 1 ms: a wake per millisecond, one send each.
		{"default", 0, 1000, nil, nil},
		// send_tick = "10ms": ten sends a wake.
		{"10ms", 10 * time.Millisecond, 100, nil, nil},
		// send_tick = "100us": finer than the sends, so a wake per send.
		{"100us", 100 * time.Microsecond, 1000, nil, nil},
		// The coarsest allowed.
		{"100ms", MaxSendTick, 10, nil, nil},
		// The timer did not fire until 503 ms: the sends due since 1 ms (on the 10 ms tick)
		// left then, 493 ms behind that tick; the walk then wakes on the grain again.
		{"10ms, a late wake", 10 * time.Millisecond, 50, []act{{at: 503 * time.Millisecond}},
			map[int]time.Duration{0: 493 * time.Millisecond}},
	}
	stages := []Stage{{Rate: 1000, Duration: time.Second}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := testConfig(stages...)
			cfg.SendTick = tt.tick
			f := (&fakeRun{cfg: cfg, ticks: true, reader: true}).play(t, tt.acts, 2*time.Second)
			ref := newRefWalk(stages, 0, 1, 0).play(tt.acts, 2*time.Second)
			checkWalk(t, "", f, ref, 0)
			checkLag(t, "", f, tt.lag, 2*time.Second)
			tick := tt.tick
			if tick == 0 {
				tick = DefaultSendTick
			}
			if f.late >= int64(tick) && tt.acts == nil {
				t.Errorf("a send left %s after its intended time, a tick is %s", time.Duration(f.late), tick)
			}
			// The last wake ends the stage (its end falls on a tick): one more than the sends'.
			if f.wakes < tt.wakes || f.wakes > tt.wakes+1 {
				t.Errorf("%d wakes, want %d (+1 for the stage's end)", f.wakes, tt.wakes)
			}
		})
	}
}
