package engine

import (
	"context"
	"math"
	"sync/atomic"
	"testing"
	"testing/quick"
	"time"
)

// TestSegmentDue checks the pacing math against exact arithmetic: send n of a segment is due at
// start + n/rate, so n sends fall in [start, start+T) exactly when n = ceil(T·rate).
func TestSegmentDue(t *testing.T) {
	tests := []struct {
		rate float64
		span time.Duration
		want int64
	}{
		{200, time.Second, 200},    // whole numbers: exactly rate × time
		{4, 30 * time.Second, 120}, // 240/m for 30 s, seed 002's first step
		{3, time.Second, 3},        // a rate whose interval is not a whole number of ns
		{1000, 1500 * time.Millisecond, 1500},
		{0.5, 3 * time.Second, 2}, // sends at 0 s and 2 s; 4 s is past the end
	}
	for _, tt := range tests {
		s := segment{start: 1000, rate: tt.rate, every: 1}
		var n int64
		for s.due() < 1000+int64(tt.span) {
			s.n++
			n++
		}
		if n != tt.want {
			t.Errorf("rate %v for %s: %d sends, want %d", tt.rate, tt.span, n, tt.want)
		}
	}
}

// TestSegmentMonotone: due times never go backwards and keep the rate's spacing (property test).
func TestSegmentMonotone(t *testing.T) {
	f := func(rate16 uint16, n16 uint16) bool {
		rate := float64(rate16%50000) + 0.25
		s := segment{start: 0, rate: rate, n: int64(n16), every: 1}
		a := s.due()
		s.n++
		b := s.due()
		gap := float64(b - a)
		return b >= a && math.Abs(gap-1e9/rate) <= 1
	}
	if err := quick.Check(f, nil); err != nil {
		t.Error(err)
	}
}

func testConfig(stages ...Stage) *Config {
	return &Config{Name: "t", Connections: 4, Timeout: time.Second, Plan: Plan{Stages: stages},
		Requests: []Request{{Name: "r", Body: []byte("{}"), Weight: 1, Items: 1}}, Backlog: 1 << 16}
}

// TestSchedulerRun is the one real-time test of Scheduler.Run (the walk itself is tested on a
// fake clock, scheduler_walk_test.go): a timed plan hands out exactly rate × duration per stage
// however late the goroutine wakes, because stage ends are planned times, not wake-up times;
// intended times never go backwards, and a plan run to its end has no stop reason.
func TestSchedulerRun(t *testing.T) {
	cfg := testConfig(Stage{Rate: 200, Duration: 300 * time.Millisecond}, Stage{Rate: 400, Duration: 300 * time.Millisecond})
	c := NewCounters(len(cfg.Plan.Stages))
	start := time.Now()
	s := NewScheduler(cfg, c, NewEventLog(start), start)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	go s.Run(ctx)
	per := make([]int, len(cfg.Plan.Stages))
	last := int64(-1)
	for j := range s.Jobs() {
		per[j.stage]++
		if j.intended < last {
			t.Errorf("intended times went backwards: %d after %d", j.intended, last)
		}
		last = j.intended
	}
	if per[0] != 60 || per[1] != 120 {
		t.Errorf("jobs per stage = %v, want [60 120]", per)
	}
	sched, _, dropped := c.Totals()
	if sched != 180 || dropped != 0 {
		t.Errorf("scheduled %d dropped %d, want 180 and 0", sched, dropped)
	}
	if s.StopReason() != "" {
		t.Errorf("stop reason %q for a completed plan", s.StopReason())
	}
}

func TestCeilTick(t *testing.T) {
	ms := int64(time.Millisecond)
	for _, tt := range []struct{ in, tick, want int64 }{
		// The default 1 ms grain: a time rounds up to the next whole millisecond.
		{-5, ms, 0}, {0, ms, 0}, {1, ms, ms}, {ms - 1, ms, ms}, {ms, ms, ms}, {ms + 1, ms, 2 * ms},
		{90*ms + 50_000, ms, 91 * ms},
		// A 10 ms grain (send_tick = "10ms").
		{1, 10 * ms, 10 * ms}, {10 * ms, 10 * ms, 10 * ms}, {10*ms + 1, 10 * ms, 20 * ms},
		// The finest, 100 µs.
		{150_000, 100_000, 200_000},
	} {
		if got := ceilTick(tt.in, tt.tick); got != tt.want {
			t.Errorf("ceilTick(%d, %d) = %d, want %d", tt.in, tt.tick, got, tt.want)
		}
	}
}

// TestSchedulerKicksForAFarWake: when Run is to sleep longer than lazyHold (here a zero rate,
// which sleeps until a control request), it kicks the event loops, which may be leaving their
// answers to be read at its next wake (evLoop.mayBeLazy), and says when it wakes (wakeAt).
// The plan hands out nothing, so every kick is that one.
func TestSchedulerKicksForAFarWake(t *testing.T) {
	cfg := testConfig(Stage{Rate: 0, Duration: 10 * time.Second})
	start := time.Now()
	s := NewScheduler(cfg, NewCounters(1), NewEventLog(start), start)
	var kicks atomic.Int32
	s.kicks = []func(){func() { kicks.Add(1) }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	for deadline := time.Now().Add(5 * time.Second); kicks.Load() == 0; {
		if time.Now().After(deadline) {
			t.Fatal("no kick in 5 s from a Scheduler sleeping until a control request")
		}
		time.Sleep(time.Millisecond)
	}
	if ahead := time.Duration(s.wakeAt.Load()) - time.Since(start); ahead <= lazyHold {
		t.Errorf("wakeAt is %v ahead, want more than lazyHold (%v): the sleep is until a control request", ahead, lazyHold)
	}
	s.Stop("test")
}
