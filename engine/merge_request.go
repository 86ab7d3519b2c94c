package engine

import (
	"fmt"
	"sort"
)

// requestMerge is one request of the mix across the inputs: its histograms merged, which are
// exact only when every input that sent it kept them.
type requestMerge struct {
	hists MergedHistograms
	exact bool
}

// mergeByRequest fills the per-request numbers of the merged totals and stages: counters summed
// and, when every input that sent a request kept its histograms, percentiles from the merged
// histograms (exact to their precision), which it returns for the merged snapshot to keep too.
// Inputs without them (written before snapshots had them) leave the field-wise maximum of their
// percentiles, an upper bound.
func mergeByRequest(out *Snapshot, snaps []*Snapshot, names []string) (map[string]Histograms, error) {
	reqs := map[string]*requestMerge{}
	var order []string
	for i, s := range snaps {
		for name := range s.Totals.ByRequest {
			rm := reqs[name]
			if rm == nil {
				rm = &requestMerge{exact: true}
				reqs[name] = rm
				order = append(order, name)
			}
			h, ok := s.Histograms.ByRequest[name]
			if !ok || h.Total == "" {
				rm.exact = false
				continue
			}
			if err := rm.hists.Add(h); err != nil {
				return nil, fmt.Errorf("%s: %s %w", names[i], name, err)
			}
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	sort.Strings(order)
	out.Totals.ByRequest = requestSummaries(snaps, reqs, order, -1)
	for i := range out.Stages {
		out.Stages[i].Summary.ByRequest = requestSummaries(snaps, reqs, order, i)
	}
	var hists map[string]Histograms
	for _, name := range order {
		if rm := reqs[name]; rm.exact {
			h, err := rm.hists.Encode(0)
			if err != nil {
				return nil, err
			}
			h.ByOutcome = nil // a request keeps no histograms by outcome
			if hists == nil {
				hists = map[string]Histograms{}
			}
			hists[name] = h
		}
	}
	return hists, nil
}

// requestSummaries are the merged numbers of each request in a stage (the totals for a stage
// below 0); a request neither sent nor answered there is left out.
func requestSummaries(snaps []*Snapshot, reqs map[string]*requestMerge, order []string, stage int) map[string]Summary {
	m := map[string]Summary{}
	for _, name := range order {
		pick := func(s *Snapshot) (Summary, bool) { return requestOf(s, name, stage) }
		sum := sumShards(snaps, pick)
		if sum.Completed == 0 && sum.Sent == 0 {
			continue
		}
		if rm := reqs[name]; rm.exact {
			rm.hists.SetPercentiles(&sum, stage)
		} else {
			for _, s := range snaps {
				if v, ok := pick(s); ok {
					sum.Latency = maxPercentiles(sum.Latency, v.Latency)
					sum.Service = maxPercentiles(sum.Service, v.Service)
				}
			}
		}
		m[name] = sum
	}
	return m
}

// requestOf is a request's summary in a snapshot's stage (its totals for a stage below 0).
func requestOf(s *Snapshot, name string, stage int) (Summary, bool) {
	by := s.Totals.ByRequest
	if stage >= 0 {
		if stage >= len(s.Stages) {
			return Summary{}, false
		}
		by = s.Stages[stage].Summary.ByRequest
	}
	v, ok := by[name]
	return v, ok
}
