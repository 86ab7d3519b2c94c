package engine

import (
	"testing"
	"time"
)

func TestLagBook(t *testing.T) {
	var b lagBook
	ms := time.Millisecond
	b.record(3, 12*ms)
	b.record(3, 40*ms) // the worst of a second wins …
	b.record(3, 20*ms) // … whatever the order
	b.record(4, 2*ms)
	if got := b.worst(3); got != 40*ms {
		t.Errorf("second 3: %s, want 40ms", got)
	}
	if got := b.worst(4); got != 2*ms {
		t.Errorf("second 4: %s, want 2ms", got)
	}
	if got := b.worst(5); got != 0 {
		t.Errorf("second 5 (nothing late): %s, want 0", got)
	}
	b.record(3+lagSlots, 5*ms) // the slot is reused lagSlots seconds later
	if got, now := b.worst(3), b.worst(3+lagSlots); got != 0 || now != 5*ms {
		t.Errorf("after reuse: second 3 reads %s (want 0), second %d reads %s (want 5ms)", got, 3+lagSlots, now)
	}
	b.record(0, time.Minute) // beyond what a slot holds: capped, never wrapped into another second
	if got := b.worst(0); got < 16*time.Second {
		t.Errorf("a minute's lag reads %s", got)
	}
}

func TestTesterBehind(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		lag    time.Duration
		p99ms  float64
		behind bool
	}{
		{0, 5, false},           // on time
		{8 * ms, 2, false},      // under 10 ms: too few sends delayed to reach p99
		{15 * ms, 5, true},      // a 15 ms stall against 5 ms answers: most of the tail is the tester's
		{15 * ms, 500, false},   // the same stall against 500 ms answers: 3 % of them, noise
		{109 * ms, 500, true},   // a 109 ms stall is a fifth of 500 ms answers
		{60 * ms, 0, true},      // nothing answered in that second: the lag is all there is
		{10 * ms, 1, false},     // exactly the floor is not over it
		{11 * ms, 110, false},   // exactly a tenth of p99 is not over it
		{12 * ms, 110, true},    // just over both
		{time.Second, 0, true},  // a frozen process
		{2 * ms, 0.05, false},   // a fast target, a tick late: nothing to say
		{20 * ms, 199.9, true},  // a tenth of 199.9 ms is under 20 ms
		{20 * ms, 200.1, false}, // and over it here
	}
	for _, tt := range tests {
		if got := testerBehind(tt.lag, tt.p99ms); got != tt.behind {
			t.Errorf("lag %s, p99 %v ms: behind %v, want %v", tt.lag, tt.p99ms, got, tt.behind)
		}
	}
}

// TestAggregatorFlagsLateSeconds: a row is flagged "tester behind" by the lag of its own second,
// weighed against its own latency, not by a flag left up for a second after a late wake and
// read when the row closes (which marked seconds without any lag).
func TestAggregatorFlagsLateSeconds(t *testing.T) {
	cfg := testConfig(Stage{Rate: 100, Duration: 5 * time.Second})
	c := NewCounters(1)
	start := time.Now()
	a := NewAggregator(cfg, c, NewEventLog(start), fixedPlan, start, time.Hour)
	ms := time.Millisecond
	lags := map[int]time.Duration{1: 15 * ms, 2: 3 * ms, 3: 15 * ms}
	a.lagIn = func(s int) time.Duration { return lags[s] }
	answer := map[int]time.Duration{0: 4 * ms, 1: 4 * ms, 2: 4 * ms, 3: 400 * ms}
	for sec := range 4 {
		b := a.getBatch()
		for i := range 10 {
			done := time.Duration(sec)*time.Second + time.Duration(i+1)*50*ms + answer[sec]
			b.Samples = append(b.Samples, Sample{Intended: int64(done - answer[sec]), Sent: int64(done - answer[sec]), Done: int64(done), Status: 200})
		}
		a.ingest(b)
	}
	a.advance(4600*ms, false) // closes seconds 0 to 3
	want := []bool{false, true, false, false}
	if len(a.timeline) < len(want) {
		t.Fatalf("%d rows, want %d", len(a.timeline), len(want))
	}
	for i, w := range want {
		if got := a.timeline[i].Saturated; got != w {
			t.Errorf("second %d (lag %s, p99 %v ms): saturated %v, want %v", i, lags[i], a.timeline[i].Latency.P99, got, w)
		}
	}
	st := a.view(false)
	if st.Tester.Lag != 15*ms || st.Tester.Behind || st.Plan.Saturated {
		t.Errorf("the view's tester health is not the last closed second's (lag 15ms, not behind): %+v, plan saturated %v", st.Tester, st.Plan.Saturated)
	}
}
