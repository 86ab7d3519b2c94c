package report

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// nodeStage is what a run watched over one stage: its processes by label (nil: none).
type nodeStage struct{ procs map[string]*engine.ProcStage }

// nodeMetrics are what compare shows of each watched process in a stage: what the node paid
// for the stage's load. Less is better: the same load for less CPU and memory. A CPU's Δ is in
// points ("-44.5 pt"), so it does not read as the Δ% beside it. A run that did not watch the
// process shows "-".
func nodeMetrics(label string) []metricOf[nodeStage] {
	name := textfmt.Truncate(label, maxLabelCells) // numbers never give way: a long name does
	proc := func(n *nodeStage) *engine.ProcStage { return n.procs[label] }
	has := func(n *nodeStage) bool { return proc(n) != nil }
	return []metricOf[nodeStage]{
		{name + " cpu", LowerIsBetter, func(n *nodeStage) float64 { return proc(n).CPUMean }, runtext.CPU, formatPoints, has},
		{name + " cpu max", LowerIsBetter, func(n *nodeStage) float64 { return proc(n).CPUMax }, runtext.CPU, formatPoints, has},
		{name + " memory", LowerIsBetter, func(n *nodeStage) float64 { return float64(proc(n).RSSEnd) }, textfmt.Bytes, nil, has},
	}
}

// maxLabelCells is the most of a process's name a row of compare shows.
const maxLabelCells = 16

// writeCompareNode writes, under stage i's block, the watched processes of run A over that
// stage against the process of the same name in the other runs (CPU mean and highest second,
// memory at the stage's end); nothing when run A watched nothing there. It is laid out as the
// block above (fitCompareTables): split into several tables when the runs do not fit in one.
func writeCompareNode(ew *textfmt.Writer, c *Comparison, i int) {
	ref := c.Runs[0].Snapshot.Watch
	if ref == nil {
		return
	}
	stages := make([]*nodeStage, len(c.Runs))
	for r, j := range c.Stages[i].Index {
		stages[r] = &nodeStage{procs: map[string]*engine.ProcStage{}}
		for _, label := range nodeLabels(ref) {
			if p := stageProc(c.Runs[r].Snapshot, j, label); p != nil {
				stages[r].procs[label] = p
			}
		}
	}
	var metrics []metricOf[nodeStage]
	for _, label := range nodeLabels(ref) {
		for _, s := range stages {
			if s != nil && s.procs[label] != nil {
				metrics = append(metrics, nodeMetrics(label)...)
				break
			}
		}
	}
	if len(metrics) == 0 {
		return
	}
	ew.Line("  node (cpu as top shows it: 100% is one core)")
	tables := fitCompareTables(labels(c.Runs), stages, metrics, ew.Width())
	for k, t := range tables {
		if len(tables) == 1 {
			t.Rows = t.Rows[1:] // the block above named the runs
		} else if k > 0 {
			ew.Line("")
		}
		for _, l := range t.Lines("  ", 0) {
			ew.Line(l)
		}
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
