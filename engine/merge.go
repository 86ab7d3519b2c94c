package engine

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Merge combines runs of several machines (shards of one plan, run together) into one snapshot.
// Counters are summed; every percentile of the totals and stages comes from the merged HDR
// histograms, so it is exact to the histograms' precision. Timeline rows are aligned by wall
// clock; their per-second percentiles, which have no histogram, are approximated (see mergeRows).
// Runs of different profiles are refused unless force is set, and so is one run given twice
// (see sameRunTwice). names label the inputs in errors.
func Merge(snaps []*Snapshot, names []string, force bool) (*Snapshot, error) {
	if len(snaps) == 0 {
		return nil, errors.New("merge needs at least one snapshot")
	}
	if len(names) != len(snaps) {
		names = make([]string, len(snaps))
		for i := range names {
			names[i] = fmt.Sprintf("snapshot %d", i+1)
		}
	}
	if !force {
		if err := sameRunTwice(snaps, names); err != nil {
			return nil, err
		}
		if err := sameRun(snaps, names); err != nil {
			return nil, err
		}
	}
	first := snaps[0]
	out := &Snapshot{
		Schema: SnapshotSchema, Tool: first.Tool, Profile: first.Profile, Target: first.Target,
		Mode: first.Mode, StartedAt: first.StartedAt, EndedAt: first.EndedAt,
		RPCMessages: map[string]string{}, RateLimitHeaders: map[string]string{},
	}
	var hosts, reasons []string
	for i, s := range snaps {
		if s.StartedAt.Before(out.StartedAt) {
			out.StartedAt = s.StartedAt
		}
		if s.EndedAt.After(out.EndedAt) {
			out.EndedAt = s.EndedAt
		}
		hosts = appendUnique(hosts, s.Host)
		reasons = appendUnique(reasons, s.EndReason)
		out.Merged = append(out.Merged, fmt.Sprintf("%s (host %s, shard %s, started %s)", names[i], s.Host, orDash(s.Shard), s.StartedAt.Format(time.RFC3339)))
		for k, v := range s.RPCMessages {
			if _, ok := out.RPCMessages[k]; !ok {
				out.RPCMessages[k] = v
			}
		}
		for k, v := range s.RateLimitHeaders {
			out.RateLimitHeaders[k] = v
		}
	}
	out.Host = strings.Join(hosts, ", ")
	out.EndReason = strings.Join(reasons, ", ")
	hists, err := mergeHistograms(snaps, names)
	if err != nil {
		return nil, err
	}
	out.Totals = sumShards(snaps, func(s *Snapshot) (Summary, bool) { return s.Totals, true })
	hists.apply(&out.Totals, -1)
	if wall := out.EndedAt.Sub(out.StartedAt).Seconds(); wall > 0 {
		out.Totals.DurationS = roundMs(wall)
		out.Totals.RPS = roundMs(float64(out.Totals.Completed) / wall)
	}
	nStages := 0
	for _, s := range snaps {
		nStages = max(nStages, len(s.Stages))
	}
	for i := 0; i < nStages; i++ {
		st := StageStats{Index: i}
		for _, s := range snaps {
			if i < len(s.Stages) {
				st.Spec = s.Stages[i].Spec
				break
			}
		}
		st.Summary = sumShards(snaps, func(s *Snapshot) (Summary, bool) {
			if i < len(s.Stages) {
				return s.Stages[i].Summary, true
			}
			return Summary{}, false
		})
		hists.apply(&st.Summary, i)
		out.Stages = append(out.Stages, st)
	}
	if err := mergeByRequest(out, snaps, names); err != nil {
		return nil, err
	}
	out.Timeline = mergeRows(snaps, out.StartedAt)
	for _, r := range out.Timeline {
		if r.Saturated {
			out.SaturatedSeconds++
		}
	}
	out.Events = mergeEvents(snaps, out.StartedAt)
	byRequest := out.Histograms.ByRequest // set by mergeByRequest
	if out.Histograms, err = hists.encode(); err != nil {
		return nil, err
	}
	out.Histograms.ByRequest = byRequest
	return out, nil
}

// mergeByRequest fills the per-request numbers of the merged totals and stages: counters summed
// and, when every input that sent a request kept its histograms, percentiles from the merged
// histograms (exact to their precision), which go into the merged snapshot too. Inputs without
// them (written before snapshots had them) leave the field-wise maximum of their percentiles, an
// upper bound.
func mergeByRequest(out *Snapshot, snaps []*Snapshot, names []string) error {
	type reqHists struct {
		latency, service sets
		exact            bool
	}
	hists := map[string]*reqHists{}
	var order []string
	for i, s := range snaps {
		for name := range s.Totals.ByRequest {
			rh := hists[name]
			if rh == nil {
				rh = &reqHists{exact: true}
				rh.latency.likeInput, rh.service.likeInput = true, true
				hists[name] = rh
				order = append(order, name)
			}
			h, ok := s.Histograms.ByRequest[name]
			if !ok || h.Total == "" {
				rh.exact = false
				continue
			}
			if err := rh.latency.add(HistogramSet{Total: h.Total, Stages: h.Stages}, name+" latency"); err != nil {
				return fmt.Errorf("%s: %w", names[i], err)
			}
			if err := rh.service.add(h.Service, name+" service"); err != nil {
				return fmt.Errorf("%s: %w", names[i], err)
			}
		}
	}
	if len(order) == 0 {
		return nil
	}
	sort.Strings(order)
	span := func(stage int) map[string]Summary {
		m := map[string]Summary{}
		for _, name := range order {
			pick := func(s *Snapshot) (Summary, bool) {
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
			sum := sumShards(snaps, pick)
			if sum.Completed == 0 && sum.Sent == 0 {
				continue
			}
			if rh := hists[name]; rh.exact {
				sum.Latency = percentilesOf(rh.latency.get(stage))
				sum.Service = percentilesOf(rh.service.get(stage))
			} else {
				for _, s := range snaps {
					if v, ok := pick(s); ok {
						sum.Latency = maxPercentiles(sum.Latency, v.Latency)
						sum.Service = maxPercentiles(sum.Service, v.Service)
					}
				}
			}
			sum.LatencyByOutcome = map[string]Percentiles{}
			m[name] = sum
		}
		return m
	}
	out.Totals.ByRequest = span(-1)
	for i := range out.Stages {
		out.Stages[i].Summary.ByRequest = span(i)
	}
	for _, name := range order {
		rh := hists[name]
		if !rh.exact {
			continue
		}
		lat, err := rh.latency.encode()
		if err != nil {
			return fmt.Errorf("encoding merged histograms: %w", err)
		}
		svc, err := rh.service.encode()
		if err != nil {
			return fmt.Errorf("encoding merged histograms: %w", err)
		}
		if out.Histograms.ByRequest == nil {
			out.Histograms.ByRequest = map[string]Histograms{}
		}
		out.Histograms.ByRequest[name] = Histograms{Total: lat.Total, Stages: lat.Stages, Service: svc}
	}
	return nil
}

// sameRunTwice refuses a run given twice: its requests would be counted twice. Two snapshots
// are of one run when they started at the same instant (to the nanosecond the snapshot keeps)
// on the same host as the same shard: the shards of one plan differ in host or shard (--shard,
// a machine each), and one machine cannot start two runs at one instant. The identity is the
// run's, not the file's content, so a periodic snapshot of a run (end_reason "running") and
// its final one, or a copy edited since, are found to be the same run too.
func sameRunTwice(snaps []*Snapshot, names []string) error {
	for i := range snaps {
		for j := range i {
			a, b := snaps[j], snaps[i]
			if a.StartedAt.Equal(b.StartedAt) && a.Host == b.Host && a.Shard == b.Shard {
				return fmt.Errorf("%s and %s are the same run (host %s, shard %s, started %s): merging it with itself "+
					"would count its requests twice; give each machine's snapshot once (merge anyway with --force)",
					names[j], names[i], orDash(a.Host), orDash(a.Shard), a.StartedAt.Format(time.RFC3339Nano))
			}
		}
	}
	return nil
}

// sameRun checks the snapshots ran one plan: same profile name, mode and stages.
func sameRun(snaps []*Snapshot, names []string) error {
	a := snaps[0]
	for i, b := range snaps[1:] {
		var diffs []string
		if an, bn := profileName(a), profileName(b); an != bn {
			diffs = append(diffs, fmt.Sprintf("profile %q vs %q", an, bn))
		}
		if a.Mode != b.Mode {
			diffs = append(diffs, fmt.Sprintf("mode %s vs %s", a.Mode, b.Mode))
		}
		if len(a.Stages) != len(b.Stages) {
			diffs = append(diffs, fmt.Sprintf("%d stages vs %d", len(a.Stages), len(b.Stages)))
		} else {
			for k := range a.Stages {
				if a.Stages[k].Spec.Rate != b.Stages[k].Spec.Rate || a.Stages[k].Spec.Duration != b.Stages[k].Spec.Duration {
					diffs = append(diffs, fmt.Sprintf("stage %d %s for %s vs %s for %s", k+1,
						a.Stages[k].Spec.Rate, a.Stages[k].Spec.Duration, b.Stages[k].Spec.Rate, b.Stages[k].Spec.Duration))
				}
			}
		}
		if len(diffs) > 0 {
			return fmt.Errorf("%s and %s are not runs of the same plan (%s): merge them anyway with --force",
				names[0], names[i+1], strings.Join(diffs, "; "))
		}
	}
	return nil
}

// sumShards adds up one span across shards that ran side by side: their counts (SummarySum),
// and their rates too; the span lasted as long as its longest shard, and its send lag, which no
// histogram keeps, is the worst shard's, an upper bound. Percentiles come later, from the merged
// histograms.
func sumShards(snaps []*Snapshot, pick func(*Snapshot) (Summary, bool)) Summary {
	var sum SummarySum
	var rps, duration float64
	var lag Percentiles
	for _, s := range snaps {
		if v, ok := pick(s); ok {
			sum.Add(v)
			rps += v.RPS
			duration = math.Max(duration, v.DurationS)
			lag = maxPercentiles(lag, v.SendLag)
		}
	}
	out := sum.Total()
	out.RPS, out.DurationS, out.SendLag = roundMs(rps), duration, lag
	return out
}

func appendUnique(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// mergeEvents puts every run's events on the merged clock, labelled with their host.
func mergeEvents(snaps []*Snapshot, base time.Time) []Event {
	var out []Event
	for _, s := range snaps {
		shift := s.StartedAt.Sub(base).Seconds()
		label := s.Host
		if s.Shard != "" {
			label += " shard " + s.Shard
		}
		for _, e := range s.Events {
			out = append(out, Event{T: roundMs(e.T + shift), Kind: e.Kind, Detail: "[" + label + "] " + e.Detail})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

// mergedHists are the decoded histograms of all inputs, merged.
type mergedHists struct {
	latency, service sets
	byOutcome        map[string]*sets
}

type sets struct {
	total  *hdr.Histogram
	stages []*hdr.Histogram
	// likeInput makes merged histograms with the inputs' own precision (the per-request ones
	// keep two significant figures) instead of the run histograms'.
	likeInput bool
}

func (m *sets) add(hs HistogramSet, what string) error {
	if hs.Total == "" {
		return nil
	}
	h, err := DecodeHistogram(hs.Total)
	if err != nil {
		return fmt.Errorf("%s histogram: %w", what, err)
	}
	m.mergeInto(&m.total, h)
	for i, enc := range hs.Stages {
		h, err := DecodeHistogram(enc)
		if err != nil {
			return fmt.Errorf("%s histogram of stage %d: %w", what, i+1, err)
		}
		for len(m.stages) <= i {
			m.stages = append(m.stages, nil)
		}
		m.mergeInto(&m.stages[i], h)
	}
	return nil
}

func (m *sets) mergeInto(dst **hdr.Histogram, h *hdr.Histogram) {
	if *dst == nil {
		if m.likeInput {
			*dst = hdr.New(h.LowestTrackableValue(), h.HighestTrackableValue(), int(h.SignificantFigures()))
		} else {
			*dst = newHist()
		}
	}
	(*dst).Merge(h)
}

func (m *sets) get(stage int) *hdr.Histogram {
	if stage < 0 {
		return m.total
	}
	if stage < len(m.stages) {
		return m.stages[stage]
	}
	return nil
}

func mergeHistograms(snaps []*Snapshot, names []string) (*mergedHists, error) {
	m := &mergedHists{byOutcome: map[string]*sets{}}
	for i, s := range snaps {
		h := s.Histograms
		if h.Total == "" {
			return nil, fmt.Errorf("%s has no histograms: it cannot be merged exactly", names[i])
		}
		if err := m.latency.add(HistogramSet{Total: h.Total, Stages: h.Stages}, "latency"); err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
		if err := m.service.add(h.Service, "service"); err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
		for o, hs := range h.ByOutcome {
			if m.byOutcome[o] == nil {
				m.byOutcome[o] = &sets{}
			}
			if err := m.byOutcome[o].add(hs, o); err != nil {
				return nil, fmt.Errorf("%s: %w", names[i], err)
			}
		}
	}
	return m, nil
}

// apply sets the percentiles of a summary (stage < 0: the totals) from the merged histograms.
func (m *mergedHists) apply(s *Summary, stage int) {
	s.Latency = percentilesOf(m.latency.get(stage))
	s.Service = percentilesOf(m.service.get(stage))
	s.LatencyByOutcome = map[string]Percentiles{}
	for o, hs := range m.byOutcome {
		if h := hs.get(stage); h != nil && h.TotalCount() > 0 {
			s.LatencyByOutcome[o] = percentilesOf(h)
		}
	}
}

// encode writes the merged set as a snapshot holds it.
func (s *sets) encode() (HistogramSet, error) {
	var hs HistogramSet
	var err error
	if s.total == nil {
		return hs, nil
	}
	if hs.Total, err = encodeHist(s.total); err != nil {
		return hs, err
	}
	for _, h := range s.stages {
		if h == nil {
			h = hdr.New(s.total.LowestTrackableValue(), s.total.HighestTrackableValue(), int(s.total.SignificantFigures()))
		}
		e, err := encodeHist(h)
		if err != nil {
			return hs, err
		}
		hs.Stages = append(hs.Stages, e)
	}
	return hs, nil
}

func (m *mergedHists) encode() (Histograms, error) {
	var out Histograms
	lat, err := m.latency.encode()
	if err != nil {
		return out, fmt.Errorf("encoding merged histograms: %w", err)
	}
	out.Total, out.Stages = lat.Total, lat.Stages
	if out.Service, err = m.service.encode(); err != nil {
		return out, fmt.Errorf("encoding merged histograms: %w", err)
	}
	out.ByOutcome = map[string]HistogramSet{}
	for o, s := range m.byOutcome {
		if out.ByOutcome[o], err = s.encode(); err != nil {
			return out, fmt.Errorf("encoding merged histograms: %w", err)
		}
	}
	return out, nil
}

// maxPercentiles is the field-wise maximum: send lag has no histogram in a snapshot, so a merge
// keeps the worst shard's figures, an upper bound.
func maxPercentiles(a, b Percentiles) Percentiles {
	return Percentiles{Min: math.Max(a.Min, b.Min), P50: math.Max(a.P50, b.P50), P75: math.Max(a.P75, b.P75),
		P90: math.Max(a.P90, b.P90), P95: math.Max(a.P95, b.P95), P99: math.Max(a.P99, b.P99),
		P999: math.Max(a.P999, b.P999), Max: math.Max(a.Max, b.Max), Mean: math.Max(a.Mean, b.Mean)}
}
