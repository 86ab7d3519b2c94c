package engine

import (
	"fmt"
	"slices"
	"strings"
)

// A run with several targets keeps each one's numbers as a TargetRun. Everything that reads a
// saved run (report, compare, merge, thresholds) reads one target as it reads a single-target
// run: through TargetView, the run's header with that target's sections. So each of them has
// one code path for a target's numbers, whatever the run held.

// TargetNames are the names of the run's targets in order; nil for a single target.
func (s *Snapshot) TargetNames() []string {
	if len(s.Targets) == 0 {
		return nil
	}
	names := make([]string, len(s.Targets))
	for i := range s.Targets {
		names[i] = s.Targets[i].Name
	}
	return names
}

// TargetView is target i of a run with several as a single-target run of its own: the run's
// header (profile, mode, times, end reason, events, what was watched) with that target's
// sections, and no targets, answers or thresholds (those are the run's). Its slices and maps
// are the snapshot's: read it, do not change it.
func (s *Snapshot) TargetView(i int) *Snapshot {
	t := &s.Targets[i]
	v := *s
	v.Target, v.Totals, v.Stages, v.Timeline, v.RunNotes = t.Target, t.Totals, t.Stages, t.Timeline, t.RunNotes
	v.Histograms, v.Chain, v.Subscriptions = t.Histograms, t.Chain, t.Subscriptions
	v.Targets, v.Answers, v.Thresholds = nil, nil, nil
	return &v
}

// TargetRunOf is the inverse of TargetView: a single-target run's sections as target name.
func TargetRunOf(name string, s *Snapshot) TargetRun {
	return TargetRun{Name: name, Target: s.Target, Totals: s.Totals, Stages: s.Stages, Timeline: s.Timeline,
		RunNotes: s.RunNotes, Histograms: s.Histograms, Chain: s.Chain, Subscriptions: s.Subscriptions}
}

// sameTargets checks that the snapshots all ran the same targets, by name in order: a merge
// of shards sums each target's numbers with the same target's. A run of one target and a run
// of several are not shards of one run: --force does not merge them either.
func sameTargets(snaps []*Snapshot, names []string) error {
	want := snaps[0].TargetNames()
	for i, s := range snaps[1:] {
		got := s.TargetNames()
		switch {
		case (len(want) == 0) != (len(got) == 0):
			return fmt.Errorf("%s ran %s and %s %s: they are not shards of one run (merge each run's shards "+
				"on their own, and compare the runs with rpcstress compare)", names[0], targetsText(want), names[i+1], targetsText(got))
		case !slices.Equal(want, got):
			return fmt.Errorf("%s and %s ran different targets (%s vs %s): merge the shards of one run, which "+
				"all ran the same targets", names[0], names[i+1], strings.Join(want, ", "), strings.Join(got, ", "))
		}
	}
	return nil
}

// targetsText says what a run sent to: "a single target", "2 targets (geth, erigon)".
func targetsText(names []string) string {
	if len(names) == 0 {
		return "a single target"
	}
	return fmt.Sprintf("%d targets (%s)", len(names), strings.Join(names, ", "))
}
