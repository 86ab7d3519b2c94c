package report

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// invariant is the bookkeeping every report promises, with the numbers (Lines), and the
// engine's own verdict (Summary.CheckInvariant) for the run and for each stage: what does not
// add up (Broken).
type invariant struct {
	OK     bool
	Lines  []string
	Broken []string
}

func invariantOf(s *engine.Snapshot) invariant {
	tot := &s.Totals
	first := fmt.Sprintf("scheduled %d = sent %d + dropped %d", tot.Scheduled, tot.Sent, tot.Dropped)
	if tot.Queued > 0 { // a snapshot taken while the run went on: some still waited to be sent
		first += fmt.Sprintf(" + queued %d", tot.Queued)
	}
	inv := invariant{Lines: []string{first,
		fmt.Sprintf("sent %d = completed %d + inflight %d", tot.Sent, tot.Completed, tot.Inflight),
		fmt.Sprintf("completed %d = Σ status %d + Σ errors %d", tot.Completed, textfmt.SumCounts(tot.Status), textfmt.SumCounts(tot.Errors)),
	}}
	if err := tot.CheckInvariant(); err != nil {
		inv.Broken = append(inv.Broken, errLines(err, "")...)
	}
	for i := range s.Stages {
		if err := s.Stages[i].Summary.CheckInvariant(); err != nil {
			inv.Broken = append(inv.Broken, errLines(err, fmt.Sprintf("stage %d: ", i+1))...)
		}
	}
	inv.OK = len(inv.Broken) == 0
	return inv
}

func writeInvariant(ew *textfmt.Writer, s *engine.Snapshot) {
	inv := invariantOf(s)
	ew.Line("")
	if inv.OK {
		ew.Line("Invariant ✓ (run and every stage)")
	} else {
		ew.Line("Invariant ✗ the counts do not add up: a bug in rpcstress, please report it")
	}
	for _, l := range inv.Lines {
		ew.Line("  " + l)
	}
	for _, l := range inv.Broken {
		ew.Paragraph("  ✗ ", "    ", l)
	}
}

// errLines splits a joined error into one line per problem.
func errLines(err error, prefix string) []string {
	var out []string
	for _, l := range strings.Split(err.Error(), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, prefix+l)
		}
	}
	return out
}
