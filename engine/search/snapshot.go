package search

import (
	"fmt"
	"math"
	"time"

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
		EndReason: endReason, RunNotes: engine.RunNotes{RPCMessages: map[string]string{}, RateLimitHeaders: map[string]string{}},
		Search: &res,
	}
	if snap.Profile == nil {
		snap.Profile = []byte("{}")
	}
	var hists engine.MergedHistograms
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
		snap.Events = append(snap.Events, engine.Event{T: p.StartS, Kind: "probe", Detail: probeEventText(p)})
		if m.Snapshot == nil {
			continue
		}
		// The probe's run's last stage is its measured window.
		if err := hists.AddStage(i, m.Snapshot.Histograms, len(m.Snapshot.Histograms.Stages)-1); err != nil {
			return nil, fmt.Errorf("probe %d: %w", p.N, err)
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
	hists.SetPercentiles(&snap.Totals, -1)
	var measured float64
	for _, p := range res.Probes {
		measured += p.MeasureS
	}
	if measured > 0 {
		// The rates (answers, cost) are over the measured windows alone.
		snap.Totals.SetDuration(time.Duration(measured * float64(time.Second)))
	}
	var err error
	if snap.Histograms, err = hists.Encode(len(o.Measures)); err != nil {
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
