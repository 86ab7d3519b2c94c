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
	type merged struct {
		row    Row
		counts SummarySum
		weight float64 // the answers whose percentiles row.Latency averages so far
		subs   subRowsSum
	}
	byT := map[int]*merged{}
	for _, s := range snaps {
		shift := int(math.Round(s.StartedAt.Sub(base).Seconds()))
		for _, r := range s.Timeline {
			t := r.T + shift
			m := byT[t]
			if m == nil {
				m = &merged{row: Row{T: t}}
				byT[t] = m
			}
			m.counts.Add(r.counts())
			m.subs.add(r.Subs)
			m.row.Stage = max(m.row.Stage, r.Stage)
			m.row.TargetRate += r.TargetRate
			m.row.RPS += r.RPS
			m.row.CostOffered += r.CostOffered
			m.row.CostAccepted += r.CostAccepted
			m.row.Saturated = m.row.Saturated || r.Saturated
			m.row.Head, m.row.RefHead = maxHead(m.row.Head, r.Head), maxHead(m.row.RefHead, r.RefHead)
			m.row.HeadStale = m.row.HeadStale || r.HeadStale
			l, w, n := &m.row.Latency, m.weight, float64(r.OK+r.Limited+r.Failed)
			if n > 0 {
				l.P50 = (l.P50*w + r.Latency.P50*n) / (w + n)
				l.P90 = (l.P90*w + r.Latency.P90*n) / (w + n)
				l.P95 = (l.P95*w + r.Latency.P95*n) / (w + n)
				l.P99 = (l.P99*w + r.Latency.P99*n) / (w + n)
				l.P999 = (l.P999*w + r.Latency.P999*n) / (w + n)
				m.weight = w + n
			}
			l.Max = math.Max(l.Max, r.Latency.Max)
		}
	}
	out := make([]Row, 0, len(byT))
	for _, m := range byT {
		r := m.row
		r.setCounts(m.counts.Total())
		r.Subs = m.subs.total()
		l := r.Latency
		r.Latency = RowLatency{P50: roundMs(l.P50), P90: roundMs(l.P90), P95: roundMs(l.P95), P99: roundMs(l.P99),
			P999: roundMs(l.P999), Max: l.Max}
		r.RPS = roundMs(r.RPS)
		r.CostOffered, r.CostAccepted = roundMs(r.CostOffered), roundMs(r.CostAccepted)
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

// counts are the row's counts as a Summary holds them, for SummarySum to add up.
func (r Row) counts() Summary {
	return Summary{Status: r.Status, Errors: r.Errors, RPCErrors: r.RPCErrors, OK: r.OK, Limited: r.Limited, Failed: r.Failed,
		Inflight: r.Inflight, Dropped: r.Dropped, BytesIn: r.BytesIn,
		Calls:  CallStats{OK: r.CallsOK, Limited: r.CallsLimited, Failed: r.CallsFailed},
		Expect: &ExpectStats{Invalid: r.Invalid}}
}

// setCounts sets the row's counts from a Summary's (the inverse of counts).
func (r *Row) setCounts(s Summary) {
	r.Status, r.Errors, r.RPCErrors = s.Status, s.Errors, s.RPCErrors
	r.OK, r.Limited, r.Failed = s.OK, s.Limited, s.Failed
	r.Inflight, r.Dropped, r.BytesIn = s.Inflight, s.Dropped, s.BytesIn
	r.CallsOK, r.CallsLimited, r.CallsFailed = s.Calls.OK, s.Calls.Limited, s.Calls.Failed
	if s.Expect != nil {
		r.Invalid = s.Expect.Invalid
	}
}

// profileName reads the name from a snapshot's redacted profile.
func profileName(s *Snapshot) string {
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(s.Profile, &p) // a profile without a name compares as ""
	return p.Name
}
