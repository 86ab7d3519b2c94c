package tui

import (
	"math"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// nodePane shows what the load costs the node, second by second: each watched process's CPU
// (as top shows it) and memory with a sparkline each, its threads, open files and disk I/O
// where there is room, rpcstress's own, the node's metrics, and two alarms: rpcstress itself
// past 80 % of its cores (it measures itself), and scrapes of the node's metrics that fail.
// It takes no room when the run watches nothing.
type nodePane struct {
	paneBase
}

// nameWidth is the width of a process's or a series' name in the pane.
const nameWidth = 11

// Lines is the least the pane needs (one row: the first process) and the most it uses (the
// alarms, every process, rpcstress, every series).
func (p *nodePane) Lines() (least, most int) {
	w := p.c.st.Watch
	if w == nil {
		return 0, 0
	}
	rows := len(w.Procs) + 1
	if w.Metrics != nil {
		rows += len(w.Metrics.Series)
	}
	title := p.titleLines()
	return title + 1, title + rows + len(p.alarms())
}

// View draws the alarms above the rows; short of room, the first process's row comes first,
// then the alarms, then the other rows.
func (p *nodePane) View() string {
	w := p.c.st.Watch
	if w == nil || p.height <= 0 {
		return ""
	}
	lines := p.title("Node", "  (cpu as top: 100% is one core)")
	room := p.height - len(lines)
	rows, alarms := p.rows(w), p.alarms()
	alarms = alarms[:min(len(alarms), max(room-1, 0))]
	rows = rows[:min(len(rows), max(room-len(alarms), 0))]
	return strings.Join(clip(append(append(lines, alarms...), rows...), p.height), "\n")
}

// rows are the pane's rows: a process a row, rpcstress, then the series.
func (p *nodePane) rows(w *engine.WatchInfo) []string {
	timeline := p.c.st.Timeline
	var rows []string
	for i := range w.Procs {
		proc := &w.Procs[i]
		name := textfmt.OneLine(proc.Label) // a process names itself: escaped
		if proc.ExitedAt != nil {
			rows = append(rows, p.c.groupLabel("node", len(rows))+padRight(textfmt.Truncate(name, nameWidth-1), nameWidth)+
				p.c.styles.Muted.Render(textfmt.Truncate("exited at "+textfmt.Seconds(*proc.ExitedAt), p.width-labelWidth-nameWidth)))
			continue
		}
		rows = append(rows, p.procRow(len(rows), name, procValues(timeline, func(r *engine.WatchRow) *engine.ProcUse {
			if i < len(r.Procs) {
				return r.Procs[i]
			}
			return nil
		})))
	}
	rows = append(rows, p.procRow(len(rows), engine.SelfLabel, procValues(timeline, func(r *engine.WatchRow) *engine.ProcUse { return r.Self })))
	if w.Metrics != nil {
		for j, ser := range w.Metrics.Series {
			rows = append(rows, p.seriesRow(j, &ser))
		}
	}
	return rows
}

// procValues are a process's readings over the timeline in view, oldest first (nil where
// there is none), and its latest.
func procValues(rows []engine.Row, pick func(*engine.WatchRow) *engine.ProcUse) []*engine.ProcUse {
	out := make([]*engine.ProcUse, len(rows))
	for i := range rows {
		if rows[i].Watch != nil {
			out[i] = pick(rows[i].Watch)
		}
	}
	return out
}

// latest is the newest reading of a series of them, or nil.
func latest[T any](vals []*T) *T {
	for i := len(vals) - 1; i >= 0; i-- {
		if vals[i] != nil {
			return vals[i]
		}
	}
	return nil
}

// procRow: "node  geth  cpu 85.2% ▂▃▅▇  mem 1.20 GB ▁▁▂▃  thr 40  fd 120  io r 0 B/s w 12 kB/s",
// the sparklines as wide as the room allows after the threads and files; those, and the disk
// I/O, while they fit.
func (p *nodePane) procRow(row int, name string, vals []*engine.ProcUse) string {
	s := p.c.styles
	head := p.c.groupLabel("node", row) + padRight(textfmt.Truncate(name, nameWidth-1), nameWidth)
	last := latest(vals)
	if last == nil {
		return head + s.Muted.Render("reading…")
	}
	extras := procExtras(last)
	cpu, mem := runtext.CPU(last.CPU), textfmt.Bytes(float64(last.RSS))
	fixed := labelWidth + nameWidth + len("cpu ") + 6 + 2 + len(" mem ") + 8 + 1
	room := p.width - fixed
	if len(extras) > 1 && room-2*minSpark >= cellWidth(extras[0])+cellWidth(extras[1])+4 {
		room -= cellWidth(extras[0]) + cellWidth(extras[1]) + 4 // threads and files before wide sparklines
	}
	width := min(max(room/2, 0), maxSpark)
	cpuVals, memVals := make([]float64, len(vals)), make([]float64, len(vals))
	for i, v := range vals {
		cpuVals[i], memVals[i] = math.NaN(), math.NaN()
		if v != nil {
			cpuVals[i], memVals[i] = v.CPU, float64(v.RSS)
		}
	}
	cores := float64(max(p.c.st.Watch.Cores, 1))
	line := head + "cpu " + s.Value.Render(padLeft(cpu, 6)) + " " + p.spark(cpuVals, width, true, 100*cores, 0) +
		" mem " + padLeft(mem, 8) + " " + p.spark(memVals, width, false, 0, 0.05)
	for _, extra := range extras {
		if cellWidth(line)+2+cellWidth(extra) > p.width {
			break
		}
		line += "  " + s.Muted.Render(extra)
	}
	return line
}

// Widths of the pane's sparklines.
const (
	minSpark = 4
	maxSpark = 20
)

// procExtras are a process's other figures, in the order they are dropped last to first.
func procExtras(u *engine.ProcUse) []string {
	out := []string{"thr " + textfmt.Int(int64(u.Threads))}
	if u.FDs != nil {
		out = append(out, "fd "+textfmt.Int(int64(*u.FDs)))
	}
	if u.ReadBps != nil && u.WriteBps != nil {
		out = append(out, "io r "+textfmt.Bytes(*u.ReadBps)+"/s w "+textfmt.Bytes(*u.WriteBps)+"/s")
	}
	return out
}

// spark draws values (NaN: no reading) over the seconds in view, width cells, newest at the
// right. A rate (CPU, a counter) is drawn from zero up to fullScale (or its highest, when
// higher): a CPU's is all the cores, so a full column is a machine busy; a level (memory, a
// gauge) over the range it moved in, at least minShare of its level (memory's 5 %: a few
// pages more or less are noise), so that its growth shows: from zero, a gigabyte that grows by
// ten megabytes, or a head that climbs from 20,123,400 to 20,123,456, is a flat line.
func (p *nodePane) spark(values []float64, width int, fromZero bool, fullScale, minShare float64) string {
	if width < minSpark {
		return ""
	}
	if len(values) > width {
		values = values[len(values)-width:]
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if math.IsInf(lo, 0) {
		return strings.Repeat(" ", width)
	}
	out := make([]float64, len(values))
	top := 0.0 // the sparkline's own: its largest value
	span := max(hi-lo, math.Abs(hi)*minShare, 1e-9)
	if !fromZero {
		top = span * 1.1 // from a tenth of the span under the lowest: the lowest step at least
	}
	for i, v := range values {
		switch {
		case math.IsNaN(v):
		case fromZero:
			out[i] = v
		default:
			out[i] = v - (lo - span*0.1)
		}
	}
	if fromZero {
		top = max(hi, fullScale)
	}
	return p.c.styles.Spark.Render(sparkline(out, width, 1, top)[0])
}

// seriesRow: "metrics  chain_head_block  20123456  ▁▂▃▅", a counter per second.
func (p *nodePane) seriesRow(j int, ser *engine.WatchedSeries) string {
	s := p.c.styles
	head := p.c.groupLabel("metrics", j) + padRight(textfmt.Truncate(textfmt.OneLine(ser.Selector), nameWidth+9), nameWidth+10)
	vals := make([]float64, len(p.c.st.Timeline))
	var last *float64
	for i := range p.c.st.Timeline {
		vals[i] = math.NaN()
		if r := p.c.st.Timeline[i].Watch; r != nil && j < len(r.Series) && r.Series[j] != nil {
			vals[i], last = *r.Series[j], r.Series[j]
		}
	}
	if last == nil {
		return head + s.Muted.Render("not found yet")
	}
	line := head + s.Value.Render(padLeft(runtext.SeriesValue(ser.Kind, *last), 12))
	if room := min(p.width-cellWidth(line)-1, maxSpark); room >= minSpark {
		line += " " + p.spark(vals, room, ser.Kind == engine.SeriesCounter, 0, 0)
	}
	return line
}

// alarms are the pane's loud lines: rpcstress past 80 % of its cores in the last second it was
// read (it measures itself), the node's last scrape failed; and, quieter, how many scrapes
// failed before.
func (p *nodePane) alarms() []string {
	w, s := p.c.st.Watch, p.c.styles
	var out []string
	if self := latest(procValues(p.c.st.Timeline, func(r *engine.WatchRow) *engine.ProcUse { return r.Self })); self != nil && w.SelfBusy(self.CPU) {
		out = append(out, s.Warn.Render(textfmt.Truncate("! "+runtext.SelfBusyShort(w, self.CPU), p.width)))
	}
	m := w.Metrics
	if m == nil || m.Failures == 0 {
		return out
	}
	text := textfmt.OneLine("metrics: " + runtext.ScrapeText(m))
	if last := latestRow(p.c.st.Timeline); last != nil && last.MetricsStale {
		return append(out, s.Bad.Render(textfmt.Truncate("! "+text, p.width)))
	}
	return append(out, s.Muted.Render(textfmt.Truncate(text, p.width)))
}

// latestRow is the newest reading in the timeline in view, or nil.
func latestRow(rows []engine.Row) *engine.WatchRow {
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].Watch != nil {
			return rows[i].Watch
		}
	}
	return nil
}
