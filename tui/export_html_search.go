package tui

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
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

func htmlSearchSection(r *engine.SearchResult) *htmlSearch {
	if r == nil {
		return nil
	}
	h := &htmlSearch{Answer: safetext.Line(r.Answer.Text)}
	h.Settings = newHTMLTable("How the limit was searched", "ll")
	for _, row := range searchSettingsRows(r) {
		h.Settings.Add(row...)
	}
	h.Probes = newHTMLTable("Probes", "rlrrrrrl", probeHead(r.SLO)...)
	for _, p := range r.Probes {
		h.Probes.Add(probeRow(p)...)
	}
	if len(r.Probes) == 0 {
		h.Probes.Note = "no probe ran"
	}
	h.Result = newHTMLTable("", "ll")
	for _, row := range searchAnswerRows(r) {
		h.Result.Add(row...)
	}
	if l := r.Limiter; l != nil {
		h.Limiter = safetext.Line(searchLimiterHeading(l))
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
