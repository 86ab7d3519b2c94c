package engine

import (
	"encoding/json"
	"math"
	"sort"
	"time"
)

// mergeRows aligns the timelines by wall clock: row T of a run that started S seconds after the
// earliest lands in merged second T+S (S rounded to whole seconds). Counts and rates add up.
// A second's percentiles have no histogram to merge, so p50/p90/p99 are the count-weighted mean
// of the runs' values and max is the largest: an approximation, marked as such in the docs; the
// stage and total percentiles are exact.
func mergeRows(snaps []*Snapshot, base time.Time) []Row {
	byT := map[int]*Row{}
	weight := map[int]float64{}
	for _, s := range snaps {
		shift := int(math.Round(s.StartedAt.Sub(base).Seconds()))
		for _, r := range s.Timeline {
			t := r.T + shift
			m := byT[t]
			if m == nil {
				m = &Row{T: t, Status: map[string]int64{}, Errors: map[string]int64{}, RPCErrors: map[string]int64{}}
				byT[t] = m
			}
			m.Stage = max(m.Stage, r.Stage)
			m.TargetRate += r.TargetRate
			m.RPS += r.RPS
			addCounts(m.Status, r.Status)
			addCounts(m.Errors, r.Errors)
			addCounts(m.RPCErrors, r.RPCErrors)
			m.OK += r.OK
			m.Limited += r.Limited
			m.Failed += r.Failed
			m.Inflight += r.Inflight
			m.Dropped += r.Dropped
			m.BytesIn += r.BytesIn
			m.Saturated = m.Saturated || r.Saturated
			m.CallsOK += r.CallsOK
			m.CallsLimited += r.CallsLimited
			m.CallsFailed += r.CallsFailed
			n := float64(r.OK + r.Limited + r.Failed)
			w := weight[t]
			if n > 0 {
				m.Latency.P50 = (m.Latency.P50*w + r.Latency.P50*n) / (w + n)
				m.Latency.P90 = (m.Latency.P90*w + r.Latency.P90*n) / (w + n)
				m.Latency.P95 = (m.Latency.P95*w + r.Latency.P95*n) / (w + n)
				m.Latency.P99 = (m.Latency.P99*w + r.Latency.P99*n) / (w + n)
				m.Latency.P999 = (m.Latency.P999*w + r.Latency.P999*n) / (w + n)
				weight[t] = w + n
			}
			m.Latency.Max = math.Max(m.Latency.Max, r.Latency.Max)
		}
	}
	out := make([]Row, 0, len(byT))
	for _, r := range byT {
		l := r.Latency
		r.Latency = RowLatency{P50: roundMs(l.P50), P90: roundMs(l.P90), P95: roundMs(l.P95), P99: roundMs(l.P99),
			P999: roundMs(l.P999), Max: l.Max}
		r.RPS = roundMs(r.RPS)
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

// profileName reads the name from a snapshot's redacted profile.
func profileName(s *Snapshot) string {
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(s.Profile, &p) // a profile without a name compares as ""
	return p.Name
}
