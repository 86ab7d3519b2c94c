package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// Merge combines runs of several machines (shards of one plan, run together) into one snapshot.
// Counters are summed; every percentile of the totals and stages comes from the merged HDR
// histograms, so it is exact to the histograms' precision. Timeline rows are aligned by wall
// clock; their per-second percentiles, which have no histogram, are approximated (see mergeRows).
// Runs of different profiles are refused unless force is set, and so is one run given twice
// (see sameRunTwice). names label the inputs in errors.
//
// Shards of a run with several targets merge target by target (mergeTargets); a run of one
// target and a run of several are refused, --force or not.
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
	if err := sameTargets(snaps, names); err != nil {
		return nil, err
	}
	if len(snaps[0].Targets) > 0 {
		return mergeTargets(snaps, names, force)
	}
	return mergeRuns(snaps, names, force)
}

// mergeRuns merges the shards of a single-target run (or one target's views of the shards).
func mergeRuns(snaps []*Snapshot, names []string, force bool) (*Snapshot, error) {
	if !force {
		if err := sameRunTwice(snaps, names); err != nil {
			return nil, err
		}
		if err := sameRun(snaps, names); err != nil {
			return nil, err
		}
	}
	out := mergeHeader(snaps, names)
	var hists MergedHistograms
	for i, s := range snaps {
		if s.Histograms.Total == "" {
			return nil, fmt.Errorf("%s has no histograms: it cannot be merged exactly", names[i])
		}
		if err := hists.Add(s.Histograms); err != nil {
			return nil, fmt.Errorf("%s: %w", names[i], err)
		}
	}
	out.Totals = sumShards(snaps, func(s *Snapshot) (Summary, bool) { return s.Totals, true })
	hists.SetPercentiles(&out.Totals, -1)
	if wall := out.EndedAt.Sub(out.StartedAt); wall > 0 {
		out.Totals.SetDuration(wall) // the rates too: over the merged run's wall time
	}
	out.Stages = mergeStages(snaps, &hists)
	byRequest, err := mergeByRequest(out, snaps, names)
	if err != nil {
		return nil, err
	}
	out.Timeline = mergeRows(snaps, out.StartedAt)
	for _, r := range out.Timeline {
		if r.Saturated {
			out.SaturatedSeconds++
		}
	}
	if out.Subscriptions, err = mergeSubs(snaps, names, out.EndedAt.Sub(out.StartedAt)); err != nil {
		return nil, err
	}
	out.Events = mergeEvents(snaps, out.StartedAt)
	out.Chain = mergeChain(snaps)
	if out.Histograms, err = hists.Encode(0); err != nil {
		return nil, err
	}
	out.Histograms.ByRequest = byRequest
	return out, nil
}

// mergeHeader is what the merged snapshot says of itself: the first input's tool, profile,
// target and mode; the earliest start and the latest end; every host and end reason; the inputs
// it was merged from; every JSON-RPC message and rate-limit header seen.
func mergeHeader(snaps []*Snapshot, names []string) *Snapshot {
	first := snaps[0]
	out := &Snapshot{
		Schema: SnapshotSchema, Tool: first.Tool, Profile: first.Profile, Target: first.Target,
		Mode: first.Mode, StartedAt: first.StartedAt, EndedAt: first.EndedAt,
		RunNotes: RunNotes{RPCMessages: map[string]string{}, RateLimitHeaders: map[string]string{}},
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
		if len(s.Merged) > 0 { // a merge of merges lists the runs themselves, so each stays found
			out.Merged = append(out.Merged, s.Merged...)
		} else {
			out.Merged = append(out.Merged, mergedEntry(names[i], s))
		}
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
	return out
}

// mergeStages are the merged run's stages, as many as the longest input has: each one's spec
// from the first input that ran it, its counts summed across the inputs that did, and its
// percentiles from the merged histograms.
func mergeStages(snaps []*Snapshot, hists *MergedHistograms) []StageStats {
	var out []StageStats
	for i := 0; ; i++ {
		first := slices.IndexFunc(snaps, func(s *Snapshot) bool { return i < len(s.Stages) })
		if first < 0 {
			return out // no input ran this many stages
		}
		st := StageStats{Index: i, Spec: snaps[first].Stages[i].Spec}
		st.Summary = sumShards(snaps, func(s *Snapshot) (Summary, bool) {
			if i < len(s.Stages) {
				return s.Stages[i].Summary, true
			}
			return Summary{}, false
		})
		hists.SetPercentiles(&st.Summary, i)
		out = append(out, st)
	}
}

// sameRunTwice refuses a run given twice: its requests would be counted twice. Two snapshots
// are of one run when they started at the same instant (to the nanosecond the snapshot keeps)
// on the same host as the same shard: the shards of one plan differ in host or shard (--shard,
// a machine each), and one machine cannot start two runs at one instant. The identity is the
// run's, not the file's content, so a periodic snapshot of a run (end_reason "running") and
// its final one, or a copy edited since, are found to be the same run too; and so is a run
// inside a merged snapshot given again beside it (see runsOf).
func sameRunTwice(snaps []*Snapshot, names []string) error {
	runs := make([][]runID, len(snaps)) // each snapshot's read once, not once per pair
	for i, s := range snaps {
		runs[i] = runsOf(s)
	}
	for i := range snaps {
		for j := range i {
			for _, a := range runs[j] {
				for _, b := range runs[i] {
					if a.same(b) {
						return fmt.Errorf("%s and %s hold the same run (host %s, shard %s, started %s): merging it with "+
							"itself would count its requests twice; give each machine's snapshot once (merge anyway "+
							"with --force)", names[j], names[i], orDash(a.host), orDash(a.shard), a.start.Format(time.RFC3339Nano))
					}
				}
			}
		}
	}
	return nil
}

// runID is what makes a run one: its host, shard and start; coarse when the start is known
// only to the second (read back from a merged snapshot's list).
type runID struct {
	host, shard string
	start       time.Time
	coarse      bool
}

func (a runID) same(b runID) bool {
	if a.host != b.host || a.shard != b.shard {
		return false
	}
	if a.coarse || b.coarse {
		return a.start.Truncate(time.Second).Equal(b.start.Truncate(time.Second))
	}
	return a.start.Equal(b.start)
}

// mergedEntry is a merged snapshot's entry for the run s, read from file name:
// "NAME (host H, shard S, started T)", T to the second. runsOf reads it back.
func mergedEntry(name string, s *Snapshot) string {
	return fmt.Sprintf("%s (host %s, shard %s, started %s)", name, s.Host, orDash(s.Shard), s.StartedAt.Format(time.RFC3339))
}

// runsOf are the runs a snapshot holds: its own, or a merged snapshot's, read back from its
// Merged entries (mergedEntry's form). An entry that does not read so is passed over: it
// cannot be matched, as before these were read.
func runsOf(s *Snapshot) []runID {
	if len(s.Merged) == 0 {
		return []runID{{host: s.Host, shard: s.Shard, start: s.StartedAt}}
	}
	var out []runID
	for _, e := range s.Merged {
		i := strings.LastIndex(e, " (host ")
		if i < 0 || !strings.HasSuffix(e, ")") {
			continue
		}
		host, rest, ok1 := strings.Cut(e[i+len(" (host "):len(e)-1], ", shard ")
		shard, started, ok2 := strings.Cut(rest, ", started ")
		at, err := time.Parse(time.RFC3339, started)
		if !ok1 || !ok2 || err != nil {
			continue
		}
		if shard == "-" {
			shard = ""
		}
		out = append(out, runID{host: host, shard: shard, start: at, coarse: true})
	}
	return out
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
	var rps, offered, accepted, duration float64
	var lag Percentiles
	for _, s := range snaps {
		if v, ok := pick(s); ok {
			sum.Add(v)
			rps += v.RPS
			if v.Cost != nil {
				offered, accepted = offered+v.Cost.OfferedRate, accepted+v.Cost.AcceptedRate
			}
			duration = math.Max(duration, v.DurationS)
			lag = maxPercentiles(lag, v.SendLag)
		}
	}
	out := sum.Total()
	out.RPS, out.DurationS, out.SendLag = roundMs(rps), duration, lag
	if out.Cost != nil {
		out.Cost.OfferedRate, out.Cost.AcceptedRate = roundMs(offered), roundMs(accepted)
	}
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

// maxPercentiles is the field-wise maximum: send lag has no histogram in a snapshot, so a merge
// keeps the worst shard's figures, an upper bound.
func maxPercentiles(a, b Percentiles) Percentiles {
	return Percentiles{Min: math.Max(a.Min, b.Min), P50: math.Max(a.P50, b.P50), P75: math.Max(a.P75, b.P75),
		P90: math.Max(a.P90, b.P90), P95: math.Max(a.P95, b.P95), P99: math.Max(a.P99, b.P99),
		P999: math.Max(a.P999, b.P999), Max: math.Max(a.Max, b.Max), Mean: math.Max(a.Mean, b.Mean)}
}
