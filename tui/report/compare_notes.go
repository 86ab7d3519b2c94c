package report

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
)

// runNote says what a run's plan alone does not: that it ended before its plan did, or was
// paused, held or steered by hand. Its numbers are then not the plan's, and a difference from
// another run may be the hand's, not the node's. "" when the run went as planned.
func runNote(s *engine.Snapshot) string {
	var parts []string
	if endedEarly(s) {
		parts = append(parts, "ended early ("+s.EndReason+")")
	}
	counts := map[string]int{}
	for _, e := range s.Events {
		if strings.HasPrefix(e.Detail, "already at") {
			continue // a key that did nothing
		}
		counts[e.Kind]++
	}
	times := func(n int) string {
		if n == 1 {
			return ""
		}
		return fmt.Sprintf(" %d×", n)
	}
	if n := counts["pause"]; n > 0 {
		parts = append(parts, "paused"+times(n))
	}
	if n := counts["hold"]; n > 0 {
		parts = append(parts, "held"+times(n))
	}
	if n := counts["rate"]; n > 0 {
		parts = append(parts, "rate set by hand"+times(n))
	}
	if n := counts["next"] + counts["prev"]; n > 0 {
		parts = append(parts, "stage changed by hand"+times(n))
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + ": not the plan's numbers alone"
}

// endedEarly says a run stopped before its plan was done: stopped by hand or by a signal, or
// its snapshot was saved while it ran. A plan that ends by itself (completed, or a request
// count or a target file that ran out) is the plan done.
func endedEarly(s *engine.Snapshot) bool {
	switch {
	case s.EndReason == engine.EndCompleted, s.EndReason == "":
		return false
	case s.EndReason == engine.EndRunning:
		return true
	}
	for i := range s.Stages {
		if !runtext.StageRan(&s.Stages[i]) {
			return true
		}
	}
	return s.EndReason == "quit" || strings.HasPrefix(s.EndReason, "signal:")
}

// plansDiffer says why the runs' totals do not measure the same load, or "" when they do: their
// stages do not pair one to one, or a run ended before its plan did.
func (c *Comparison) plansDiffer() string {
	var why []string
	if len(c.Extra) > 0 {
		why = append(why, "their stages do not pair up")
	} else {
	pairs:
		for _, m := range c.Stages {
			for _, j := range m.Index {
				if j < 0 {
					why = append(why, "their stages do not pair up")
					break pairs
				}
			}
		}
	}
	for i, r := range c.Runs {
		if endedEarly(r.Snapshot) {
			why = append(why, r.label(i)+" ended early")
		}
	}
	return strings.Join(why, "; ")
}
