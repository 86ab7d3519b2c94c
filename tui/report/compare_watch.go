package report

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// nodeMetrics are what compare shows of each watched process in a stage: what the node paid
// for the stage's load. Less is better: the same load for less CPU and memory. A CPU's Δ is in
// points ("-44.5 pt"), so it does not read as the Δ% beside it.
func nodeMetrics(label string) []metricOf[engine.ProcStage] {
	label = textfmt.Truncate(label, maxLabelCells) // numbers never give way: a long name does
	return []metricOf[engine.ProcStage]{
		{label + " cpu", LowerIsBetter, func(p *engine.ProcStage) float64 { return p.CPUMean }, runtext.CPU, formatPoints, nil},
		{label + " cpu max", LowerIsBetter, func(p *engine.ProcStage) float64 { return p.CPUMax }, runtext.CPU, formatPoints, nil},
		{label + " memory", LowerIsBetter, func(p *engine.ProcStage) float64 { return float64(p.RSSEnd) }, textfmt.Bytes, nil, nil},
	}
}

// maxLabelCells is the most of a process's name a row of compare shows.
const maxLabelCells = 16

// writeCompareNode writes, under stage i's block, the watched processes of run A over that
// stage against the process of the same name in the other runs (CPU mean and highest second,
// memory at the stage's end); nothing when run A watched nothing there.
func writeCompareNode(ew *textfmt.Writer, c *Comparison, i int) {
	ref := c.Runs[0].Snapshot.Watch
	if ref == nil {
		return
	}
	var t *textfmt.Table
	withAbs := true
	for again := true; again; {
		again, t = false, nil
		for _, label := range nodeLabels(ref) {
			procs := make([]*engine.ProcStage, len(c.Runs))
			found := false
			for r, j := range c.Stages[i].Index {
				procs[r] = stageProc(c.Runs[r].Snapshot, j, label)
				found = found || procs[r] != nil
			}
			if !found {
				continue
			}
			part := compareTable(labels(c.Runs), procs, nodeMetrics(label), withAbs)
			if t == nil {
				t = part
			} else {
				t.Rows = append(t.Rows, part.Rows[1:]...) // one head for all
			}
		}
		if t != nil && withAbs && t.NaturalWidth("  ") > ew.Width() {
			again, withAbs = true, false // as the block above: without the absolute Δ
		}
	}
	if t == nil {
		return
	}
	t.Rows = t.Rows[1:] // the block above named the runs
	ew.Line("  node (cpu as top shows it: 100% is one core)")
	for _, l := range t.Lines("  ", 0) {
		ew.Line(l)
	}
}

// nodeLabels are the processes a run watched, then rpcstress itself.
func nodeLabels(w *engine.WatchInfo) []string {
	var out []string
	for _, p := range w.Procs {
		out = append(out, p.Label)
	}
	return append(out, engine.SelfLabel)
}

// stageProc is the process labelled label over stage j of a run (rpcstress's own for
// engine.SelfLabel), or nil.
func stageProc(s *engine.Snapshot, j int, label string) *engine.ProcStage {
	if s.Watch == nil || j < 0 || j >= len(s.Watch.Stages) {
		return nil
	}
	sw := &s.Watch.Stages[j]
	if label == engine.SelfLabel {
		return sw.Self
	}
	for k, p := range s.Watch.Procs {
		if p.Label == label && k < len(sw.Procs) {
			return sw.Procs[k]
		}
	}
	return nil
}
