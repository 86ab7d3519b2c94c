package engine

import (
	"fmt"

	"github.com/rpcstress/rpcstress/engine/answers"
)

// mergeTargets merges the shards of a run with several targets: each target's views of the
// shards (TargetView) merge as single-target runs do (mergeRuns: SummarySum, MergedHistograms,
// the same checks), the first target's merge is the top level, as in any run with targets, and
// the answers compared are summed (answers.Sum).
func mergeTargets(snaps []*Snapshot, names []string, force bool) (*Snapshot, error) {
	targets := snaps[0].TargetNames()
	var out *Snapshot
	runs := make([]TargetRun, len(targets))
	for i, name := range targets {
		views := make([]*Snapshot, len(snaps))
		for k, s := range snaps {
			views[k] = s.TargetView(i)
		}
		m, err := mergeRuns(views, names, force)
		if err != nil {
			return nil, fmt.Errorf("target %s: %w", name, err)
		}
		if i == 0 {
			out = m
		}
		runs[i] = TargetRunOf(name, m)
	}
	out.Targets = runs
	var results []*answers.Result
	for _, s := range snaps {
		if s.Answers != nil {
			results = append(results, s.Answers)
		}
	}
	out.Answers = answers.Sum(results)
	return out, nil
}
