package report

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// nodeTables are the watched resources per stage, after the stages table: what the node paid
// for each stage's load, beside the load's rate and p95 (seed 000's table), then the node's
// metrics. None when the run watched nothing.
func nodeTables(s *engine.Snapshot) []*textfmt.Table {
	if s.Watch == nil {
		return nil
	}
	return []*textfmt.Table{nodeStagesTable(s), seriesStagesTable(s)}
}

// nodeStagesTable has a row per stage and process (the watched ones, then rpcstress): CPU mean
// and highest second, memory at the stage's start and end.
func nodeStagesTable(s *engine.Snapshot) *textfmt.Table {
	w := s.Watch
	t := textfmt.NewTable("rrrrlrrl", "#", "rate", "rps", "p95", "process", "cpu", "max", "memory").GiveWay(4, false)
	t.Caption, t.Title, t.Empty = "Node resources per stage (p95 in ms; cpu as top shows it: 100% is one core)", "Node resources", "none read"
	var notes, busy []string
	for i := range w.Procs {
		notes = append(notes, runtext.ProcText(&w.Procs[i]))
		if n := w.Procs[i].Note; n != "" {
			notes = append(notes, w.Procs[i].Label+": "+n)
		}
	}
	for i := range s.Stages {
		st := &s.Stages[i]
		if !runtext.StageRan(st) || i >= len(w.Stages) || w.Stages[i].Seconds == 0 {
			continue
		}
		sw := &w.Stages[i]
		rate := st.Spec.Rate.String()
		if s.Mode == engine.ModeClosed {
			rate = "-"
		}
		lead := []string{textfmt.Int(int64(i + 1)), rate, textfmt.RPS(st.Summary.RPS), textfmt.Ms(st.Summary.Latency.P95)}
		for j, p := range sw.Procs {
			if p != nil && j < len(w.Procs) {
				t.Add(append(lead, w.Procs[j].Label, runtext.CPU(p.CPUMean), runtext.CPU(p.CPUMax), memoryText(p))...)
				lead = []string{"", "", "", ""}
			}
		}
		if p := sw.Self; p != nil {
			t.Add(append(lead, engine.SelfLabel, runtext.CPU(p.CPUMean), runtext.CPU(p.CPUMax), memoryText(p))...)
			if w.SelfBusy(p.CPUMax) {
				busy = append(busy, fmt.Sprintf("In stage %d, %s", i+1, runtext.SelfBusyText(w, p.CPUMax)))
			}
		}
	}
	notes = append(notes, busy...)
	if len(notes) > 0 {
		t.Note = strings.Join(notes, ". ") + "."
	}
	return t
}

// memoryText is a process's resident memory over a stage: "1.20 GB → 1.31 GB", or one figure
// when it did not move.
func memoryText(p *engine.ProcStage) string {
	a, b := textfmt.Bytes(float64(p.RSSStart)), textfmt.Bytes(float64(p.RSSEnd))
	if a == b {
		return a
	}
	return a + " → " + b
}

// seriesStagesTable has a row per stage and series of the node's metrics: the mean and the
// highest of its per-second values.
func seriesStagesTable(s *engine.Snapshot) *textfmt.Table {
	m := s.Watch.Metrics
	if m == nil {
		return &textfmt.Table{} // not shown
	}
	t := textfmt.NewTable("rlrr", "#", "series", "mean", "max").GiveWay(1, true)
	t.Caption = "Node metrics per stage (counters per second)"
	t.Title, t.Empty = "Node metrics", "none read"
	for i := range s.Stages {
		if i >= len(s.Watch.Stages) {
			break
		}
		lead := textfmt.Int(int64(i + 1))
		for j, v := range s.Watch.Stages[i].Series {
			if v == nil || j >= len(m.Series) {
				continue
			}
			kind := m.Series[j].Kind
			t.Add(lead, m.Series[j].Selector, runtext.SeriesValue(kind, v.Mean), runtext.SeriesValue(kind, v.Max))
			lead = ""
		}
	}
	t.Note = m.URL + ": " + runtext.ScrapeText(m)
	t.Empty = fmt.Sprintf("none read (%d of %d scrapes failed)", m.Failures, m.Scrapes)
	return t
}
