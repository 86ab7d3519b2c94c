package mocknode

import (
	"testing"
	"time"
)

func TestLatencyModel(t *testing.T) {
	epoch := time.Unix(1_700_000_000, 0)
	type req struct {
		at           time.Duration // arrival, from epoch
		calls, items int
		want         time.Duration // due, from epoch
	}
	tests := []struct {
		name string
		cfg  Config
		reqs []req
	}{
		// No knobs: answers are due on arrival.
		{"plain", Config{}, []req{{at: time.Second, calls: 1, items: 1, want: time.Second}}},
		// Base latency is added once per HTTP request.
		{"base", Config{Latency: 5 * time.Millisecond}, []req{{at: 0, calls: 3, items: 3, want: 5 * time.Millisecond}}},
		// Per-item cost scales with items (a getBlocks range or a batch).
		{"per item", Config{Latency: time.Millisecond, PerItem: 10 * time.Microsecond}, []req{{at: 0, calls: 1, items: 1000, want: 11 * time.Millisecond}}},
		// Capacity 10/s: simultaneous requests queue 100 ms apart, latency climbing.
		{"capacity queue", Config{Capacity: 10}, []req{
			{at: 0, calls: 1, items: 1, want: 100 * time.Millisecond},
			{at: 0, calls: 1, items: 1, want: 200 * time.Millisecond},
			{at: 0, calls: 1, items: 1, want: 300 * time.Millisecond},
			// After the queue drains, a request waits only its own service time.
			{at: time.Second, calls: 1, items: 1, want: 1100 * time.Millisecond},
			// A batch of 3 calls takes 3 service slots.
			{at: 2 * time.Second, calls: 3, items: 3, want: 2300 * time.Millisecond},
		}},
		// Latency is added after the service slot.
		{"capacity then latency", Config{Capacity: 10, Latency: 5 * time.Millisecond}, []req{{at: 0, calls: 1, items: 1, want: 105 * time.Millisecond}}},
		// Stalls: [1s, 1.2s), [2s, 2.2s) …; the first StallEvery is stall-free.
		{"stalls", Config{StallEvery: time.Second, StallFor: 200 * time.Millisecond}, []req{
			{at: 100 * time.Millisecond, calls: 1, items: 1, want: 100 * time.Millisecond},   // before the first stall
			{at: time.Second, calls: 1, items: 1, want: 1200 * time.Millisecond},             // at a window's start
			{at: 1050 * time.Millisecond, calls: 1, items: 1, want: 1200 * time.Millisecond}, // inside: held to its end
			{at: 1200 * time.Millisecond, calls: 1, items: 1, want: 1200 * time.Millisecond}, // at the end: free
			{at: 5199 * time.Millisecond, calls: 1, items: 1, want: 5200 * time.Millisecond}, // a later window
		}},
		// Latency pushing an answer into a stall window gets held too.
		{"latency into stall", Config{Latency: 100 * time.Millisecond, StallEvery: time.Second, StallFor: 200 * time.Millisecond}, []req{
			{at: 950 * time.Millisecond, calls: 1, items: 1, want: 1200 * time.Millisecond},
		}},
		// Absurd per-item products are capped instead of overflowing.
		{"cap", Config{PerItem: time.Hour}, []req{{at: 0, calls: 1, items: 1 << 30, want: maxExtra}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newLatencyModel(tt.cfg, epoch)
			for i, r := range tt.reqs {
				if got := m.due(epoch.Add(r.at), r.calls, r.items).Sub(epoch); got != r.want {
					t.Fatalf("request %d: due at %s, want %s", i, got, r.want)
				}
			}
		})
	}
}

func TestLatencyJitterIsUniform(t *testing.T) {
	epoch := time.Now()
	m := newLatencyModel(Config{Latency: 10 * time.Millisecond, Jitter: 10 * time.Millisecond}, epoch)
	lo, hi := time.Hour, time.Duration(0)
	for range 2000 {
		d := m.due(epoch, 1, 1).Sub(epoch)
		if d < 10*time.Millisecond || d >= 20*time.Millisecond {
			t.Fatalf("latency %s outside [10ms, 20ms)", d)
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo > 11*time.Millisecond || hi < 19*time.Millisecond { // 2000 uniform draws miss a 10% edge with p ≈ 1e-92
		t.Fatalf("jitter spans only [%s, %s]", lo, hi)
	}
}
