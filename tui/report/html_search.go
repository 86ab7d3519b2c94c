package report

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// htmlSearch is a find-limit search on the page: the answer first, then how it was found and
// what the limiter looks like. The tables and words are the text report's (runtext's).
type htmlSearch struct {
	Answer   string
	Settings *textfmt.Table
	Probes   *textfmt.Table
	Result   *textfmt.Table
	Limiter  string   // "Limiter: token bucket, rate 1000 ± 0.67/s, …"; empty without an estimate
	Nginx    string   // the equivalent limit_req setting, if one
	Notes    []string // how the limiter figures were obtained
}

func htmlSearchSection(r *engine.SearchResult) *htmlSearch {
	if r == nil {
		return nil
	}
	h := &htmlSearch{Answer: safetext.Line(r.Answer.Text), Settings: runtext.SettingsTable(r),
		Probes: runtext.ProbeTable(r), Result: runtext.AnswerTable(r)}
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
	Table   *textfmt.Table
}

func htmlThresholdsSection(rs []engine.ThresholdResult) *htmlThresholds {
	if len(rs) == 0 {
		return nil
	}
	t, failed := thresholdsTable(rs)
	return &htmlThresholds{Heading: thresholdsHeading(failed, len(rs)), OK: failed == 0, Table: t}
}
