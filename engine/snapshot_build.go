package engine

import (
	"fmt"
	"time"
)

// SnapshotMeta is what the aggregator does not know about a run: who ran it, where, and the
// resolved (redacted) profile.
type SnapshotMeta struct {
	Tool    ToolInfo
	Host    string
	Profile []byte // JSON, secrets already redacted
}

// Snapshot turns the aggregator's final state into a Snapshot. Call it only after Finish: the
// histograms then have no other user.
func (a *Aggregator) Snapshot(meta SnapshotMeta) (*Snapshot, error) {
	select {
	case <-a.finished:
	default:
		return nil, fmt.Errorf("snapshot of a run that has not finished")
	}
	st := a.Stats()
	snap := &Snapshot{
		Schema:           SnapshotSchema,
		Tool:             meta.Tool,
		Host:             meta.Host,
		Profile:          meta.Profile,
		Target:           a.cfg.DisplayURL,
		Mode:             a.cfg.Mode,
		StartedAt:        a.start.UTC(),
		EndedAt:          a.start.Add(a.endedAt).UTC(),
		EndReason:        a.endReason,
		Totals:           st.Total,
		Stages:           a.stageView,
		Timeline:         a.timeline,
		Events:           st.Events,
		RPCMessages:      st.RPCMessage,
		RateLimitHeaders: st.Headers,
	}
	if snap.Profile == nil {
		snap.Profile = []byte("{}")
	}
	snap.Totals.DurationS = roundMs(a.endedAt.Seconds())
	if a.endedAt > 0 {
		// The run's rate is over its whole wall time, the honest figure for "how fast did it go".
		snap.Totals.RPS = roundMs(float64(snap.Totals.Completed) / a.endedAt.Seconds())
	}
	for _, r := range a.timeline {
		if r.Saturated {
			snap.SaturatedSeconds++
		}
	}
	var err error
	if snap.Histograms.Total, err = encodeHist(a.total.latency); err != nil {
		return nil, fmt.Errorf("encoding the run's histogram: %w", err)
	}
	for i, acc := range a.stages {
		h, err := encodeHist(acc.latency)
		if err != nil {
			return nil, fmt.Errorf("encoding stage %d's histogram: %w", i+1, err)
		}
		snap.Histograms.Stages = append(snap.Histograms.Stages, h)
	}
	return snap, nil
}

// StartTime is when the run began (for partial snapshots and file names).
func (a *Aggregator) StartTime() time.Time { return a.start }
