package search

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// TestBurstLateTesterWidensError: the burst probe of a limiter of 1000/s burst 60 as a tester
// that fell 200 ms behind sees it (CI's race build on 2 cores: 506 of 1300 passed in a planned
// 0.26 s). Its window was longer than planned, so more passed; the error bar must cover the true
// burst, and the note must say why it is wide. With no send lag the same counts would claim a
// far tighter bar.
func TestBurstLateTesterWidensError(t *testing.T) {
	plan := burstPlan{gap: time.Second, window: 260 * time.Millisecond, rate: 5000}
	pl := plateau{rate: 1000.5, err: 1}
	tests := []struct {
		name     string
		sendLag  float64 // ms, the largest
		limited  float64 // ms, the slowest rejection
		covers60 bool
	}{
		// The tester and node on time: counts like these would mean a burst near 246, ± a little.
		{"on time", 0, 2, false},
		// The tester 200 ms late at the end: up to 200 more passed; the bar covers the true 60.
		{"tester 200 ms late", 200, 2, true},
		// The node (in process, race build) reached the last ones 200 ms late: the same.
		{"node 200 ms late", 0, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Measure{Seconds: 0.26, Summary: engine.Summary{Sent: 1300, OK: 506, Limited: 794}}
			m.Summary.SendLag.Max = tt.sendLag
			m.Summary.LatencyByOutcome = map[string]engine.Percentiles{"limited": {Max: tt.limited}}
			est := &engine.LimiterEstimate{}
			(&Searcher{}).burstEstimate(est, m, plan, pl, nil)
			if covers := math.Abs(est.Burst-60) <= est.BurstErr; covers != tt.covers60 {
				t.Errorf("burst %.1f ± %.1f covers 60: %v, want %v", est.Burst, est.BurstErr, covers, tt.covers60)
			}
			late := strings.Contains(strings.Join(est.Notes, " "), "late (a busy tester or node), which widens the uncertainty")
			if want := tt.sendLag > 26 || tt.limited > 26; late != want {
				t.Errorf("notes %q: say requests were late %v", est.Notes, want)
			}
		})
	}
}
