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
	return a.build(meta, a.Stats(), a.endedAt, a.endReason)
}

// snapshotReq asks the Run goroutine, the histograms' only owner, for a snapshot of a run that
// goes on.
type snapshotReq struct {
	meta  SnapshotMeta
	reply chan snapshotReply
}

type snapshotReply struct {
	snap *Snapshot
	err  error
}

// SnapshotNow is a snapshot of the run so far, with end_reason "running": the seconds still open
// are not in its timeline yet, everything else is. After the run has ended it is the final one.
func (a *Aggregator) SnapshotNow(meta SnapshotMeta) (*Snapshot, error) {
	req := snapshotReq{meta: meta, reply: make(chan snapshotReply, 1)}
	select {
	case a.snapReq <- req:
		r := <-req.reply
		return r.snap, r.err
	case <-a.finished:
		return a.Snapshot(meta)
	}
}

// serveSnapshot answers a SnapshotNow request on the Run goroutine.
func (a *Aggregator) serveSnapshot(req snapshotReq) {
	now := time.Since(a.start)
	a.refreshStages(now)
	st := a.view(false)
	snap, err := a.build(req.meta, st, now, EndRunning)
	req.reply <- snapshotReply{snap, err}
}

// build assembles a snapshot from a view and the aggregator's own records; Run goroutine only,
// or after Finish.
func (a *Aggregator) build(meta SnapshotMeta, st *Stats, ended time.Duration, reason string) (*Snapshot, error) {
	// After Finish, callers may build at once from several goroutines, and building updates
	// the kept encodings of per-request histograms.
	a.buildMu.Lock()
	defer a.buildMu.Unlock()
	n := len(a.timeline)
	snap := &Snapshot{
		Schema:    SnapshotSchema,
		Tool:      meta.Tool,
		Host:      meta.Host,
		Profile:   meta.Profile,
		Target:    a.cfg.DisplayURL,
		Mode:      a.cfg.Mode,
		StartedAt: a.start.UTC(),
		EndedAt:   a.start.Add(ended).UTC(),
		EndReason: reason,
		Totals:    st.Total,
		Stages:    a.stageView,
		Timeline:  a.timeline[:n:n],
		Events:    st.Events,
		RunNotes:  RunNotes{RPCMessages: st.RPCMessage, RateLimitHeaders: st.Headers},
	}
	if snap.Profile == nil {
		snap.Profile = []byte("{}")
	}
	// The run's rates are over its whole wall time, the honest figure for "how fast did it go".
	snap.Totals.SetDuration(ended)
	for _, r := range snap.Timeline {
		if r.Saturated {
			snap.SaturatedSeconds++
		}
	}
	if st.Head != nil {
		snap.Chain = chainStats(st.Head)
	}
	if st.Watch != nil {
		w := *st.Watch // the view's is shared: the stages are the snapshot's own
		w.Stages = WatchStages(snap.Timeline, len(snap.Stages))
		snap.Watch = &w
	}
	if a.subs != nil {
		// Taken apart from the view, with their histograms, so that a merge is exact.
		subs, err := a.subs.Snapshot()
		if err != nil {
			return nil, err
		}
		snap.Subscriptions = subs
	}
	if a.cfg.ShardCount > 1 {
		snap.Shard = fmt.Sprintf("%d/%d", a.cfg.Shard, a.cfg.ShardCount)
	}
	if err := a.encodeHistograms(&snap.Histograms); err != nil {
		return nil, err
	}
	return snap, nil
}

// StartTime is when the run began (for partial snapshots and file names).
func (a *Aggregator) StartTime() time.Time { return a.start }

// encodeHistograms writes every histogram the aggregator keeps, so a merge can rebuild every
// percentile exactly.
func (a *Aggregator) encodeHistograms(h *Histograms) error {
	set := func(pick func(*spanAcc) *latencyHist) (HistogramSet, error) {
		var hs HistogramSet
		var err error
		if hs.Total, err = pick(a.total).encode(a.enc); err != nil {
			return hs, fmt.Errorf("encoding the run's histogram: %w", err)
		}
		for i, acc := range a.stages {
			e, err := pick(acc).encode(a.enc)
			if err != nil {
				return hs, fmt.Errorf("encoding stage %d's histogram: %w", i+1, err)
			}
			hs.Stages = append(hs.Stages, e)
		}
		return hs, nil
	}
	lat, err := set(func(s *spanAcc) *latencyHist { return s.latency })
	if err != nil {
		return err
	}
	h.Total, h.Stages = lat.Total, lat.Stages
	if h.Service, err = set(func(s *spanAcc) *latencyHist { return s.service }); err != nil {
		return err
	}
	h.ByOutcome = map[string]HistogramSet{}
	for o := Outcome(0); o < outcomeCount; o++ {
		if h := a.total.byOutcome[o]; h == nil || h.TotalCount() == 0 {
			continue
		}
		if h.ByOutcome[o.String()], err = set(func(s *spanAcc) *latencyHist { return s.byOutcome[o] }); err != nil {
			return err
		}
	}
	return a.encodeRequestHistograms(h)
}

// encodeRequestHistograms writes each request's latency and service histograms, for the run and
// per stage (an empty one where the request was not sent in a stage), so merged per-request
// numbers are exact.
func (a *Aggregator) encodeRequestHistograms(h *Histograms) error {
	// Every empty histogram encodes the same, and each encoding walks and compresses the whole
	// counts array (about a quarter of a millisecond): a target file's many requests, most
	// sent in few stages, would otherwise pay that for every request and stage at every save.
	empty := ""
	emptyHist := func() (string, error) {
		if empty != "" {
			return empty, nil
		}
		var err error
		empty, err = newRequestAcc(false).latency.encode(a.enc)
		return empty, err
	}
	for i, tot := range a.reqTotal {
		if tot == nil {
			continue
		}
		name := a.rows.names[i]
		var rh Histograms
		var err error
		if rh.Total, rh.Service.Total, err = tot.encodings(a.enc); err != nil {
			return fmt.Errorf("encoding %s's histogram: %w", name, err)
		}
		for s := range a.stages {
			var lat, svc string
			if s < len(a.reqStages) && a.reqStages[s] != nil && a.reqStages[s][i] != nil {
				lat, svc, err = a.reqStages[s][i].encodings(a.enc)
			} else {
				lat, err = emptyHist()
				svc = lat
			}
			if err != nil {
				return fmt.Errorf("encoding %s's histogram of stage %d: %w", name, s+1, err)
			}
			rh.Stages = append(rh.Stages, lat)
			rh.Service.Stages = append(rh.Service.Stages, svc)
		}
		if h.ByRequest == nil {
			h.ByRequest = map[string]Histograms{}
		}
		h.ByRequest[name] = rh
	}
	return nil
}

// requestEncoding is a per-request accumulator's histograms as last encoded for a snapshot, and
// the number of answers they held then.
type requestEncoding struct {
	completed int64
	lat, svc  string
}

// encodings are acc's latency and service histograms encoded for a snapshot. They change only
// with an answer, so an encoding is kept until the next one: a stage that has ended is encoded
// once, not at every save (an encoding costs a quarter of a millisecond, mostly setting up its
// compressor; a thousand requests over a few stages spent seconds at each save).
func (acc *spanAcc) encodings(e *histEncoder) (lat, svc string, err error) {
	if e := acc.encoded; e != nil && e.completed == acc.completed {
		return e.lat, e.svc, nil
	}
	if lat, err = acc.latency.encode(e); err != nil {
		return "", "", err
	}
	if svc, err = acc.service.encode(e); err != nil {
		return "", "", err
	}
	acc.encoded = &requestEncoding{completed: acc.completed, lat: lat, svc: svc}
	return lat, svc, nil
}
