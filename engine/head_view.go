package engine

import "time"

// This file derives the head's figures from the timeline, for every reader alike: the
// dashboard's and the line output's "+5 in 10s", and the report's advance and lag per stage.

// HeadWindow is the span, in seconds of the timeline, over which the head's progress is told
// live ("head 20,123,456 (+5 in 10s)").
const HeadWindow = 10

// HeadAdvance is how far the head moved over the last window seconds of rows up to and
// including rows[last]: from the first row of that span that holds a head to the last one
// that does. over is 0 when fewer than two rows there hold one.
func HeadAdvance(rows []Row, last, window int) (advance int64, over time.Duration) {
	if last < 0 || last >= len(rows) {
		return 0, 0
	}
	end := -1
	for i := last; i >= 0; i-- {
		if rows[i].Head != nil {
			end = i
			break
		}
	}
	if end < 0 {
		return 0, 0
	}
	begin := end
	for i := end - 1; i >= 0 && rows[end].T-rows[i].T <= window; i-- {
		if rows[i].Head != nil {
			begin = i
		}
	}
	if begin == end {
		return 0, 0
	}
	return int64(*rows[end].Head) - int64(*rows[begin].Head), time.Duration(rows[end].T-rows[begin].T) * time.Second
}

// rowHeads files the tracker's state into a timeline row as the row closes.
func rowHeads(r *Row, s *HeadState) {
	if s == nil {
		return
	}
	if s.Target.Known {
		h := s.Target.Head
		r.Head = &h
	}
	r.HeadStale = s.Target.Failing
	if s.Ref != nil && s.Ref.Known {
		h := s.Ref.Head
		r.RefHead = &h
	}
}

// ChainStats is the snapshot's record of the head a run followed: which chain, how often it
// was read, and per node the last head, the reads and the failed ones.
type ChainStats struct {
	Name       Chain   `json:"name"`
	HeadEveryS float64 `json:"head_every_s"`
	// HeadStart is the target's head read before the first request.
	HeadStart uint64   `json:"head_start"`
	Target    NodeHead `json:"target"`
	// Ref is the reference node's, when the run had one.
	Ref *NodeHead `json:"ref,omitempty"`
}

// NodeHead is one node's head reads over a run.
type NodeHead struct {
	// URL is the reference node's display URL (the target's is the snapshot's target).
	URL       string `json:"url,omitempty"`
	Head      uint64 `json:"head"`
	Reads     int64  `json:"reads"`
	Failures  int64  `json:"failures"`
	LastError string `json:"last_error,omitempty"`
}

// chainStats is the record of a run's head as of its end.
func chainStats(s *HeadState) *ChainStats {
	if s == nil {
		return nil
	}
	node := func(r HeadReading) NodeHead {
		return NodeHead{Head: r.Head, Reads: r.Reads, Failures: r.Failures, LastError: r.LastErr}
	}
	c := &ChainStats{Name: s.Chain, HeadEveryS: s.Every.Seconds(), HeadStart: s.Start, Target: node(s.Target)}
	if s.Ref != nil {
		ref := node(*s.Ref)
		ref.URL = s.RefDisplay
		c.Ref = &ref
	}
	return c
}

// StageHead is what the head did during one stage.
type StageHead struct {
	// Known is set when the head was read during the stage; Last is the head at its last
	// second that held one.
	Known bool
	Last  uint64
	// Advance is how far the target's head moved while the stage ran (each visit of it
	// added up).
	Advance int64
	// MaxLag is the target's largest lag behind the reference node in a second of the stage
	// (negative: it was ahead all along); HasLag is set when both heads were known then.
	MaxLag int64
	HasLag bool
}

// StageHeads is the head's advance and lag per stage of a snapshot, from its timeline: a
// second's advance is its head less the one before it (the head read before the run for the
// first), filed under the second's stage. Nil when the run followed no head.
func StageHeads(s *Snapshot) []StageHead {
	if s.Chain == nil {
		return nil
	}
	out := make([]StageHead, len(s.Stages))
	prev := s.Chain.HeadStart
	for _, r := range s.Timeline {
		if r.Stage < 0 || r.Stage >= len(out) || r.Head == nil {
			continue
		}
		st := &out[r.Stage]
		st.Advance += int64(*r.Head) - int64(prev)
		prev = *r.Head
		st.Known, st.Last = true, *r.Head
		if r.RefHead != nil {
			lag := int64(*r.RefHead) - int64(*r.Head)
			if !st.HasLag || lag > st.MaxLag {
				st.MaxLag = lag
			}
			st.HasLag = true
		}
	}
	return out
}

// maxHead is the higher of two heads, either of which may be unknown: shards that follow one
// target read the same chain, a moment apart.
func maxHead(a, b *uint64) *uint64 {
	if a == nil || (b != nil && *b > *a) {
		return b
	}
	return a
}

// mergeChain joins the head records of runs made side by side (shards of one target): reads
// and failures add up, the last heads are the highest, the start is the earliest run's.
func mergeChain(snaps []*Snapshot) *ChainStats {
	var out *ChainStats
	add := func(dst *NodeHead, n NodeHead) {
		dst.Head = max(dst.Head, n.Head)
		dst.Reads += n.Reads
		dst.Failures += n.Failures
		if n.LastError != "" {
			dst.LastError = n.LastError
		}
	}
	for _, s := range snaps {
		c := s.Chain
		if c == nil {
			continue
		}
		if out == nil {
			out = &ChainStats{Name: c.Name, HeadEveryS: c.HeadEveryS, HeadStart: c.HeadStart}
		}
		out.HeadStart = min(out.HeadStart, c.HeadStart)
		add(&out.Target, c.Target)
		if c.Ref != nil {
			if out.Ref == nil {
				out.Ref = &NodeHead{URL: c.Ref.URL}
			}
			add(out.Ref, *c.Ref)
		}
	}
	return out
}
