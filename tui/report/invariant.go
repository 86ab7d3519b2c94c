package report

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// writeInvariant shows the bookkeeping every report promises, with the numbers, and the engine's
// own verdict (Summary.CheckInvariant) for the run and for each stage.
func writeInvariant(ew *textfmt.Writer, s *engine.Snapshot) {
	tot := &s.Totals
	err := tot.CheckInvariant()
	var broken []string
	if err != nil {
		broken = append(broken, errLines(err, "")...)
	}
	for i := range s.Stages {
		if err := s.Stages[i].Summary.CheckInvariant(); err != nil {
			broken = append(broken, errLines(err, fmt.Sprintf("stage %d: ", i+1))...)
		}
	}
	ew.Line("")
	if len(broken) == 0 {
		ew.Line("Invariant ✓ (run and every stage)")
	} else {
		ew.Line("Invariant ✗ the counts do not add up: a bug in rpcstress, please report it")
	}
	if tot.Queued > 0 { // a snapshot taken while the run went on: some still waited to be sent
		ew.Printf("  scheduled %d = sent %d + dropped %d + queued %d\n", tot.Scheduled, tot.Sent, tot.Dropped, tot.Queued)
	} else {
		ew.Printf("  scheduled %d = sent %d + dropped %d\n", tot.Scheduled, tot.Sent, tot.Dropped)
	}
	ew.Printf("  sent %d = completed %d + inflight %d\n", tot.Sent, tot.Completed, tot.Inflight)
	ew.Printf("  completed %d = Σ status %d + Σ errors %d\n", tot.Completed, textfmt.SumCounts(tot.Status), textfmt.SumCounts(tot.Errors))
	for _, l := range broken {
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
