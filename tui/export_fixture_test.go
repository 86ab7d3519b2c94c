package tui

import (
	"github.com/rpcstress/rpcstress/engine"
)

// testSnapshotWithTimeline is testSnapshot with its 20 seconds of timeline, adding up to the
// stage summaries: stage 1 answers 50 a second with the five -32602 answers in seconds 3 and 7;
// stage 2 answers 120 × 200 and 78 × 429 a second, the 5 timeouts in second 15 and the 10
// dropped requests in second 18; seconds 17 and 18 are saturated.
func testSnapshotWithTimeline() *engine.Snapshot {
	s := testSnapshot()
	for t := range 20 {
		r := engine.Row{T: t, Status: map[string]int64{}, Errors: map[string]int64{}, RPCErrors: map[string]int64{}}
		if t < 10 {
			r.TargetRate = 50
			r.Status["200"], r.OK = 50, 50
			r.Latency = engine.RowLatency{P50: 1.87, P90: 3.55, P99: 13.3, Max: 40.6}
			switch t {
			case 3:
				r.OK, r.Failed, r.RPCErrors["-32602"] = 48, 2, 2
			case 7:
				r.OK, r.Failed, r.RPCErrors["-32602"] = 47, 3, 3
			}
			r.BytesIn = 24_500
		} else {
			r.Stage, r.TargetRate = 1, 200
			r.Status["200"], r.Status["429"], r.OK, r.Limited = 120, 78, 120, 78
			r.Latency = engine.RowLatency{P50: 4.12 + float64(t-10)*0.1, P90: 7.83, P99: 29.25, Max: 89.4}
			r.Inflight = 2
			switch t {
			case 15:
				r.Errors["timeout"], r.Failed = 5, 5
				r.Latency.Max = 5000
			case 17:
				r.Saturated = true
			case 18:
				r.Dropped, r.Saturated = 10, true
			case 19:
				r.Inflight = 5
			}
			r.BytesIn = 98_957
		}
		r.RPS = float64(r.OK + r.Limited + r.Failed)
		s.Timeline = append(s.Timeline, r)
	}
	return s
}
