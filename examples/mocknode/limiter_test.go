package mocknode

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

// every returns n arrival offsets step apart, starting at 0.
func every(step time.Duration, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(i) * step
	}
	return out
}

// ms is a shorthand for millisecond offsets.
func ms(v ...int) []time.Duration {
	out := make([]time.Duration, len(v))
	for i, x := range v {
		out[i] = time.Duration(x) * time.Millisecond
	}
	return out
}

// limiterFor makes a Limiter from limit_req's settings written as in nginx.conf
// ("rate=10r/s burst=5 nodelay"), its clock starting at start.
func limiterFor(t *testing.T, zone string, start time.Time) *Limiter {
	t.Helper()
	var rate Rate
	var burst int
	var nodelay bool
	for _, setting := range strings.Fields(zone) {
		var err error
		switch key, value, _ := strings.Cut(setting, "="); key {
		case "rate":
			rate, err = parseRate(value)
		case "burst":
			burst, err = strconv.Atoi(value)
		case "nodelay":
			nodelay = true
		default:
			err = fmt.Errorf("unknown setting")
		}
		if err != nil {
			t.Fatalf("zone %q: %s: %v", zone, setting, err)
		}
	}
	l, err := NewLimiter(rate, burst, nodelay, start)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLimiterMatchesNginx(t *testing.T) {
	tests := []struct {
		name       string
		zone       string          // limit_req's settings, as nginx.conf writes them
		arrivals   []time.Duration // offsets from the fake clock's start
		accepted   int
		delays     []time.Duration // per accepted request, in order; nil = not checked
		maxDelay   time.Duration   // largest delay of any accepted request; checked when delays is nil
		checkDelay bool
	}{
		// The brief's example: 10 instant requests, 10r/s burst=5 nodelay → the first plus 5 of burst.
		{name: "instant burst nodelay", zone: "rate=10/s burst=5 nodelay", arrivals: make([]time.Duration, 10), accepted: 6, delays: make([]time.Duration, 6)},
		// Same without nodelay: the same 6 pass, spaced at the rate (0, 100, …, 500 ms), as nginx queues them.
		{name: "instant burst delaying", zone: "rate=10/s burst=5", arrivals: make([]time.Duration, 10), accepted: 6, delays: ms(0, 100, 200, 300, 400, 500)},
		// burst 0: only the first of simultaneous requests passes.
		{name: "burst 0 instant", zone: "rate=10/s", arrivals: make([]time.Duration, 3), accepted: 1, delays: ms(0)},
		// burst 0 at exactly the rate: every request fits, none waits.
		{name: "burst 0 at the rate", zone: "rate=10/s", arrivals: every(100*time.Millisecond, 20), accepted: 20, maxDelay: 0, checkDelay: true},
		// burst 0, a request 1 ms too early is rejected (excess 10 > 0) and does not move the bucket.
		{name: "burst 0 one ms early", zone: "rate=10/s", arrivals: ms(0, 99, 100), accepted: 2, delays: ms(0, 0)},
		// The brief's sustained case: 20/s for 10 s into 10r/s burst=5 → 10×10 + 5 = 105.
		{name: "sustained double rate nodelay", zone: "rate=10/s burst=5 nodelay", arrivals: every(50*time.Millisecond, 200), accepted: 105, maxDelay: 0, checkDelay: true},
		// Delaying accepts the same requests; the queue never holds one longer than burst/rate.
		{name: "sustained double rate delaying", zone: "rate=10/s burst=5", arrivals: every(50*time.Millisecond, 200), accepted: 105, maxDelay: 500 * time.Millisecond, checkDelay: true},
		// r/m: 240r/m is 4 r/s; 8/s for 60 s at burst 0 → every other request, 240 in all.
		{name: "per-minute rate", zone: "rate=240/m", arrivals: every(125*time.Millisecond, 480), accepted: 240},
		// nginx-style spelling reaches the same numbers.
		{name: "nginx spelling r/m", zone: "rate=240r/m", arrivals: every(125*time.Millisecond, 480), accepted: 240},
		// 10r/m is 166 thousandths/s in nginx, so a slot refills after 6025 ms, not 6000: 6025 is still early.
		{name: "10r/m integer truncation", zone: "rate=10/m burst=1 nodelay", arrivals: ms(0, 1, 2, 6025, 6026), accepted: 3},
		// Without nodelay the truncated rate shows in the delay too: 1000×1000/166 = 6024 ms.
		{name: "10r/m delay", zone: "rate=10/m burst=1", arrivals: ms(0, 0), accepted: 2, delays: ms(0, 6024)},
		// Long idle empties the bucket completely: the next burst gets the full allowance again.
		{name: "idle refills", zone: "rate=1/s burst=2 nodelay", arrivals: append(make([]time.Duration, 5), 3*time.Second, 3*time.Second, 3*time.Second, 3*time.Second), accepted: 6},
		// A clock jump back of more than 60 s counts as 1 ms (nginx's guard), not as a refill.
		{name: "clock jump back", zone: "rate=1/s nodelay", arrivals: ms(120000, 0, 1), accepted: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Unix(1_700_000_000, 0)
			l := limiterFor(t, tt.zone, start)
			var delays []time.Duration
			for _, at := range tt.arrivals {
				if ok, d := l.Admit(start.Add(at)); ok {
					delays = append(delays, d)
				}
			}
			if len(delays) != tt.accepted {
				t.Fatalf("accepted %d of %d, want %d", len(delays), len(tt.arrivals), tt.accepted)
			}
			if tt.delays != nil {
				for i := range tt.delays {
					if delays[i] != tt.delays[i] {
						t.Fatalf("delays %v, want %v", delays, tt.delays)
					}
				}
			}
			if tt.checkDelay {
				var most time.Duration
				for _, d := range delays {
					most = max(most, d)
				}
				if most != tt.maxDelay {
					t.Fatalf("largest delay %s, want %s", most, tt.maxDelay)
				}
			}
		})
	}
}

func TestNewLimiterRejects(t *testing.T) {
	tests := []struct {
		name  string
		rate  Rate
		burst int
	}{
		{"zero rate", 0, 0},                   // a limiter needs a rate; Config uses nil for off
		{"below nginx resolution", 0.0005, 0}, // nginx would store 0 thousandths
		{"negative burst", 1, -1},             // nonsense
		{"absurd burst", 1, maxBurst + 1},     // would overflow thousandths
		{"above max rate", maxRate * 2, 0},    // typo territory
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewLimiter(tt.rate, tt.burst, false, time.Now()); err == nil {
				t.Fatal("no error")
			}
		})
	}
}

// TestLimiterConcurrent checks that concurrent Admits never let more through than nginx's
// arithmetic allows (run with -race for the locking).
func TestLimiterConcurrent(t *testing.T) {
	start := time.Now()
	l, err := NewLimiter(1, 99, true, start)
	if err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 100
	got := make(chan int, workers)
	for range workers {
		go func() {
			n := 0
			for range each {
				if ok, _ := l.Admit(start); ok {
					n++
				}
			}
			got <- n
		}()
	}
	total := 0
	for range workers {
		total += <-got
	}
	if total != 100 {
		t.Fatalf("accepted %d instant requests, want 1 + burst 99 = 100", total)
	}
}
