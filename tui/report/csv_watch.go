package report

import (
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
)

// watchColumns are the CSV's columns of a watched run, after the others: per watched process
// (named by its label) and for rpcstress itself its CPU in percent (100 is one core),
// resident memory, threads, open files and disk reads and writes per second; then a column
// per series of the node's metrics, "m_" and its selector (counters per second). None when
// the run watched nothing.
func watchColumns(s *engine.Snapshot) []string {
	w := s.Watch
	if w == nil {
		return nil
	}
	seen := map[string]int{}
	unique := func(name string) string {
		seen[name]++
		if n := seen[name]; n > 1 {
			name += "_" + strconv.Itoa(n)
		}
		return name
	}
	var out []string
	proc := func(label string) {
		p := unique(columnName(label))
		out = append(out, p+"_cpu_pct", p+"_rss_bytes", p+"_threads", p+"_fds", p+"_read_bps", p+"_write_bps")
	}
	for _, p := range w.Procs {
		proc(p.Label)
	}
	proc(engine.SelfLabel)
	if w.Metrics != nil {
		for _, ser := range w.Metrics.Series {
			out = append(out, unique("m_"+columnName(ser.Selector)))
		}
	}
	return out
}

// columnName keeps letters, digits and _ of a name, the rest as _, for a column a spreadsheet
// or a script names without quotes: "geth#2" → "geth_2", `p2p_peers{dir="in"}` →
// "p2p_peers_dir_in".
func columnName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

// watchCells are a row's cells of the watchColumns: empty where nothing was read (a process
// that had exited, files another user's process does not show, a second without a reading).
func watchCells(s *engine.Snapshot, r *engine.Row) []string {
	w := s.Watch
	if w == nil {
		return nil
	}
	var out []string
	var row engine.WatchRow
	if r.Watch != nil {
		row = *r.Watch
	}
	for i := range w.Procs {
		var p *engine.ProcUse
		if i < len(row.Procs) {
			p = row.Procs[i]
		}
		out = append(out, procCells(p)...)
	}
	out = append(out, procCells(row.Self)...)
	if w.Metrics != nil {
		for i := range w.Metrics.Series {
			cell := ""
			if i < len(row.Series) && row.Series[i] != nil {
				cell = csvFloat(*row.Series[i])
			}
			out = append(out, cell)
		}
	}
	return out
}

func procCells(p *engine.ProcUse) []string {
	if p == nil {
		return make([]string, 6)
	}
	cells := []string{csvFloat(p.CPU), strconv.FormatInt(p.RSS, 10), strconv.Itoa(p.Threads), "", "", ""}
	if p.FDs != nil {
		cells[3] = strconv.Itoa(*p.FDs)
	}
	if p.ReadBps != nil {
		cells[4] = csvFloat(*p.ReadBps)
	}
	if p.WriteBps != nil {
		cells[5] = csvFloat(*p.WriteBps)
	}
	return cells
}
