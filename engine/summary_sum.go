package engine

import "math"

// SummarySum adds up the summaries of spans measured apart (the shards of a merge, the probes of
// a find-limit search, one second of several shards' timelines): the one place their counts are
// summed. Add each summary, then take the Total.
//
// What adds up is counted: requests by fate, answers by status, error class and JSON-RPC code,
// outcomes, bytes, calls and connections. Percentiles, duration and rate are left zero: they do
// not add up, and the caller knows how its spans combine (shards run side by side, probes one
// after another) and which histograms were merged. ByRequest is not summed either.
type SummarySum struct {
	sum Summary
	// dialMsSum is Σ dial mean × dials: the sum's dial mean weights each part by its dials.
	dialMsSum float64
}

// Add adds s's counts.
func (a *SummarySum) Add(s Summary) {
	t := &a.sum
	t.Scheduled += s.Scheduled
	t.Sent += s.Sent
	t.Completed += s.Completed
	t.Inflight += s.Inflight
	t.Dropped += s.Dropped
	t.Queued += s.Queued
	t.Status = addCounts(t.Status, s.Status)
	t.Errors = addCounts(t.Errors, s.Errors)
	t.RPCErrors = addCounts(t.RPCErrors, s.RPCErrors)
	t.BytesIn += s.BytesIn
	t.BytesOut += s.BytesOut
	t.OK += s.OK
	t.Limited += s.Limited
	t.Failed += s.Failed
	t.Calls.Add(s.Calls)
	if s.Expect != nil {
		if t.Expect == nil {
			t.Expect = &ExpectStats{}
		}
		t.Expect.Add(s.Expect)
	}
	if s.Cost != nil {
		if t.Cost == nil {
			t.Cost = &CostStats{}
		}
		t.Cost.Add(s.Cost) // counts: the rates go with the sum's duration
	}
	t.Connections.Dialed += s.Connections.Dialed
	t.Connections.Redialed += s.Connections.Redialed
	t.Connections.DialMax = math.Max(t.Connections.DialMax, s.Connections.DialMax)
	a.dialMsSum += s.Connections.DialMean * float64(s.Connections.Dialed)
}

// Total is the sum of what was added, its maps made even when empty. Take it after the last Add:
// it shares the accumulator's maps.
func (a *SummarySum) Total() Summary {
	t := a.sum
	t.Status = addCounts(t.Status, nil)
	t.Errors = addCounts(t.Errors, nil)
	t.RPCErrors = addCounts(t.RPCErrors, nil)
	t.LatencyByOutcome = map[string]Percentiles{}
	if t.Connections.Dialed > 0 {
		t.Connections.DialMean = roundMs(a.dialMsSum / float64(t.Connections.Dialed))
	}
	return t
}

// addCounts adds src's counts to dst, made when nil, and returns it.
func addCounts(dst, src map[string]int64) map[string]int64 {
	if dst == nil {
		dst = make(map[string]int64, len(src))
	}
	for k, n := range src {
		dst[k] += n
	}
	return dst
}
