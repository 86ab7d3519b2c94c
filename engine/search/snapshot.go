package search

import (
	"fmt"
	"math"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/rpcstress/rpcstress/engine"
)

// Snapshot assembles the find-limit run as one snapshot, readable by report, compare and merge
// like any other: each probe's measured window is a stage (named "probe N", at its rate, with
// its own histograms), the totals are those windows together (settle windows and the burst
// probe are not counted: the search section describes them), the timeline is every probe's
// seconds one after another, and the events are the search's. The search section itself is
// Search. endReason is the run's ("completed", "quit", "signal:SIGINT" …).
func (o *Outcome) Snapshot(meta engine.SnapshotMeta, target string, endReason string) (*engine.Snapshot, error) {
	res := o.Result
	snap := &engine.Snapshot{
		Schema: engine.SnapshotSchema, Tool: meta.Tool, Host: meta.Host, Profile: meta.Profile,
		Target: target, Mode: engine.ModeOpen, StartedAt: o.Started.UTC(), EndedAt: o.Ended.UTC(),
		EndReason: endReason, RPCMessages: map[string]string{}, RateLimitHeaders: map[string]string{},
		Search: &res,
	}
	if snap.Profile == nil {
		snap.Profile = []byte("{}")
	}
	h := newHistSet()
	var totals engine.SummarySum
	lastT := -1
	for i, m := range o.Measures {
		p := res.Probes[i]
		snap.Stages = append(snap.Stages, engine.StageStats{
			Index:   i,
			Spec:    engine.Stage{Name: fmt.Sprintf("probe %d", p.N), Rate: m.Rate, Duration: time.Duration(p.MeasureS * float64(time.Second))},
			Summary: m.Summary,
		})
		// Connections are dialed per run, not per stage: the probe's run's count.
		counts := m.Summary
		counts.Connections = engine.Connections{}
		if m.Snapshot != nil {
			counts.Connections = m.Snapshot.Totals.Connections
		}
		totals.Add(counts)
		if err := h.addStage(m.Snapshot); err != nil {
			return nil, fmt.Errorf("probe %d: %w", p.N, err)
		}
		snap.Events = append(snap.Events, engine.Event{T: p.StartS, Kind: "probe", Detail: probeEventText(p)})
		if m.Snapshot == nil {
			continue
		}
		for k, v := range m.Snapshot.RPCMessages {
			snap.RPCMessages[k] = v
		}
		for k, v := range m.Snapshot.RateLimitHeaders {
			snap.RateLimitHeaders[k] = v
		}
		shift := int(math.Round(m.Snapshot.StartedAt.Sub(o.Started).Seconds()))
		for _, r := range m.Snapshot.Timeline {
			r.T = max(r.T+shift, lastT+1) // a rounding second never makes two rows one
			r.Stage = i
			lastT = r.T
			if r.Saturated {
				snap.SaturatedSeconds++
			}
			snap.Timeline = append(snap.Timeline, r)
		}
	}
	if o.Burst != nil {
		snap.Events = append(snap.Events, engine.Event{T: round3(o.Burst.Snapshot.StartedAt.Sub(o.Started).Seconds()), Kind: "burst",
			Detail: fmt.Sprintf("burst probe at %s: %d ok, %d limited of %d", rateText(float64(o.Burst.Rate)), o.Burst.Summary.OK, o.Burst.Summary.Limited, o.Burst.Summary.Sent)})
	}
	snap.Events = append(snap.Events, engine.Event{T: res.ElapsedS, Kind: "answer", Detail: res.Answer.Text})
	if res.Limiter != nil && res.Limiter.Nginx != "" {
		snap.Events = append(snap.Events, engine.Event{T: res.ElapsedS, Kind: "limiter", Detail: "like nginx limit_req " + res.Limiter.Nginx})
	}
	snap.Events = append(snap.Events, engine.Event{T: res.ElapsedS, Kind: "end", Detail: "search " + res.EndReason})
	snap.Totals = totals.Total()
	h.apply(&snap.Totals)
	var measured float64
	for _, p := range res.Probes {
		measured += p.MeasureS
	}
	if measured > 0 {
		snap.Totals.DurationS = round3(measured)
		snap.Totals.RPS = round3(float64(snap.Totals.Completed) / measured)
	}
	var err error
	if snap.Histograms, err = h.encode(); err != nil {
		return nil, err
	}
	return snap, nil
}

func probeEventText(p engine.SearchProbe) string {
	t := fmt.Sprintf("probe %d at %s (%s): %s, goodput %s ok/s", p.N, rateText(p.Rate), p.Step, p.Verdict, fmtNum(p.Goodput))
	for _, b := range p.Breaches {
		t += "; " + b.Text
	}
	return t
}

// histSet gathers the measured windows' histograms: per stage as they are, and merged for the
// totals.
type histSet struct {
	latency, service hdrList
	byOutcome        map[string]*hdrList
	stages           int
}

type hdrList struct {
	total  *hdr.Histogram
	stages []string
}

func newHistSet() *histSet { return &histSet{byOutcome: map[string]*hdrList{}} }

// addStage takes the last stage's histograms of a probe's run (nil for a probe without one:
// empty histograms stand in, so stage indexes stay aligned).
func (h *histSet) addStage(s *engine.Snapshot) error {
	idx := h.stages
	h.stages++
	if s == nil || len(s.Histograms.Stages) == 0 {
		h.latency.add("", idx)
		h.service.add("", idx)
		return nil
	}
	last := len(s.Histograms.Stages) - 1
	if err := h.latency.addEncoded(s.Histograms.Stages[last], idx); err != nil {
		return err
	}
	if last < len(s.Histograms.Service.Stages) {
		if err := h.service.addEncoded(s.Histograms.Service.Stages[last], idx); err != nil {
			return err
		}
	}
	for o, set := range s.Histograms.ByOutcome {
		if last >= len(set.Stages) {
			continue
		}
		if h.byOutcome[o] == nil {
			h.byOutcome[o] = &hdrList{}
		}
		if err := h.byOutcome[o].addEncoded(set.Stages[last], idx); err != nil {
			return err
		}
	}
	return nil
}

func (l *hdrList) add(enc string, idx int) {
	for len(l.stages) <= idx {
		l.stages = append(l.stages, "")
	}
	l.stages[idx] = enc
}

func (l *hdrList) addEncoded(enc string, idx int) error {
	l.add(enc, idx)
	if enc == "" {
		return nil
	}
	hist, err := engine.DecodeHistogram(enc)
	if err != nil {
		return fmt.Errorf("decoding a histogram: %w", err)
	}
	if l.total == nil {
		l.total = hdr.New(hist.LowestTrackableValue(), hist.HighestTrackableValue(), int(hist.SignificantFigures()))
	}
	l.total.Merge(hist)
	return nil
}

// apply sets the totals' percentiles from the merged histograms.
func (h *histSet) apply(s *engine.Summary) {
	s.Latency = percentiles(h.latency.total)
	s.Service = percentiles(h.service.total)
	for o, l := range h.byOutcome {
		if l.total != nil && l.total.TotalCount() > 0 {
			s.LatencyByOutcome[o] = percentiles(l.total)
		}
	}
}

// encode writes the histograms the way a snapshot keeps them; an empty histogram stands in for
// a probe that had none.
func (h *histSet) encode() (engine.Histograms, error) {
	empty := ""
	set := func(l *hdrList) (engine.HistogramSet, error) {
		var hs engine.HistogramSet
		if l.total == nil {
			return hs, nil
		}
		b, err := l.total.Encode(hdr.V2CompressedEncodingCookieBase)
		if err != nil {
			return hs, fmt.Errorf("encoding histograms: %w", err)
		}
		hs.Total = string(b)
		for i := 0; i < h.stages; i++ {
			enc := ""
			if i < len(l.stages) {
				enc = l.stages[i]
			}
			if enc == "" {
				if empty == "" {
					e, err := hdr.New(l.total.LowestTrackableValue(), l.total.HighestTrackableValue(), int(l.total.SignificantFigures())).Encode(hdr.V2CompressedEncodingCookieBase)
					if err != nil {
						return hs, fmt.Errorf("encoding histograms: %w", err)
					}
					empty = string(e)
				}
				enc = empty
			}
			hs.Stages = append(hs.Stages, enc)
		}
		return hs, nil
	}
	var out engine.Histograms
	lat, err := set(&h.latency)
	if err != nil {
		return out, err
	}
	out.Total, out.Stages = lat.Total, lat.Stages
	if out.Service, err = set(&h.service); err != nil {
		return out, err
	}
	out.ByOutcome = map[string]engine.HistogramSet{}
	for o, l := range h.byOutcome {
		if out.ByOutcome[o], err = set(l); err != nil {
			return out, err
		}
	}
	return out, nil
}

// summaryPercentiles are the quantiles of engine.Percentiles (0 and 100 for min and max), the
// same definition the engine uses for every summary.
var summaryPercentiles = [...]float64{0, 50, 75, 90, 95, 99, 99.9, 100}

// percentiles derives a Percentiles (ms) from a histogram of microseconds.
func percentiles(h *hdr.Histogram) engine.Percentiles {
	if h == nil || h.TotalCount() == 0 {
		return engine.Percentiles{}
	}
	v := h.ValueAtPercentilesSlice(summaryPercentiles[:])
	msOf := func(us int64) float64 { return round3(float64(us) / 1000) }
	return engine.Percentiles{Min: msOf(v[0]), P50: msOf(v[1]), P75: msOf(v[2]), P90: msOf(v[3]), P95: msOf(v[4]),
		P99: msOf(v[5]), P999: msOf(v[6]), Max: msOf(v[7]), Mean: round3(h.Mean() / 1000)}
}
