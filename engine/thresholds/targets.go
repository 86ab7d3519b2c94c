package thresholds

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// Evaluate judges every threshold against the run s; nil when there are none. In a run with
// several targets a plain condition is judged on each target, in the targets' order, so that
// "p99 < 50ms" holds only when it holds on every node; one of [thresholds.target.NAME] on that
// target alone; a condition on the answers compared once, on the run.
func Evaluate(ts []Threshold, s *engine.Snapshot) []engine.ThresholdResult {
	if len(ts) == 0 {
		return nil
	}
	out := make([]engine.ThresholdResult, 0, len(ts))
	names := s.TargetNames()
	for _, t := range ts {
		m, _ := lookup(t.Metric)
		switch {
		case m.answers != nil:
			out = append(out, evaluateAnswers(t, m, s.Answers))
		case t.Target != "":
			i := slices.Index(names, t.Target)
			if i < 0 {
				r := resultOf(t)
				r.Note = noTargetNote(t.Target, names)
				out = append(out, r)
				continue
			}
			out = append(out, evaluate(t, s.TargetView(i)))
		case len(names) > 0:
			for i, name := range names {
				r := evaluate(t, s.TargetView(i))
				r.Target = name
				out = append(out, r)
			}
		default:
			out = append(out, evaluate(t, s))
		}
	}
	return out
}

// noTargetNote says why a condition on a target was not measured: the run did not send to it.
func noTargetNote(name string, names []string) string {
	if len(names) == 0 {
		return fmt.Sprintf("the run had no target %s (it sent to a single target)", name)
	}
	return fmt.Sprintf("the run had no target %s (its targets: %s)", name, strings.Join(names, ", "))
}
