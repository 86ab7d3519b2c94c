package report

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// htmlSearch is a find-limit search on the page: the answer first, then how it was found and
// what the limiter looks like. The rows and words are the text report's.
type htmlSearch struct {
	Answer   string
	Settings htmlTable
	Probes   htmlTable
	Result   htmlTable
	Limiter  string   // "Limiter: token bucket, rate 1000 ± 0.67/s, …"; empty without an estimate
	Nginx    string   // the equivalent limit_req setting, if one
	Notes    []string // how the limiter figures were obtained
}

// htmlOf is t as the page's table (until the page draws textfmt.Table itself).
func htmlOf(t *textfmt.Table) htmlTable {
	h := htmlTable{Caption: t.Caption, Head: t.Head, Right: t.Right}
	for _, r := range t.Rows {
		h.Rows = append(h.Rows, r.Cells)
	}
	if len(t.Rows) == 0 {
		h.Note = t.Empty
	}
	return h
}

func htmlSearchSection(r *engine.SearchResult) *htmlSearch {
	if r == nil {
		return nil
	}
	h := &htmlSearch{Answer: safetext.Line(r.Answer.Text)}
	h.Settings = htmlOf(runtext.SettingsTable(r))
	h.Probes = htmlOf(runtext.ProbeTable(r))
	h.Result = htmlOf(runtext.AnswerTable(r))
	if l := r.Limiter; l != nil {
		h.Limiter = safetext.Line(runtext.LimiterHeading(l))
		if l.Nginx != "" {
			h.Nginx = "limit_req " + safetext.Line(l.Nginx)
		}
		for _, n := range l.Notes {
			h.Notes = append(h.Notes, safetext.Line(n))
		}
	}
	return h
}

// htmlThresholds is a run's [thresholds] verdict: the heading says whether all held.
type htmlThresholds struct {
	Heading string
	OK      bool
	Table   htmlTable
}

func htmlThresholdsSection(rs []engine.ThresholdResult) *htmlThresholds {
	if len(rs) == 0 {
		return nil
	}
	rows, failed := thresholdRows(rs)
	t := newHTMLTable("", "lllrll", "", "metric", "bound", "measured", "by", "where")
	for _, r := range rows {
		t.Add(r...)
	}
	return &htmlThresholds{Heading: thresholdsHeading(failed, len(rs)), OK: failed == 0, Table: t}
}
