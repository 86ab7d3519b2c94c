package report

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// html.tmpl is the page; its "table" template is the HTML renderer of a textfmt.Table, the text
// report's tables drawn as HTML tables.
//
//go:embed html.tmpl
var htmlPageText string

var htmlPage = template.Must(template.New("report").Parse(htmlPageText))

// htmlReport is what the page template draws.
type htmlReport struct {
	Title      string
	Subtitle   string
	Header     *textfmt.Table
	Search     *htmlSearch     // a find-limit run's answer, probes and limiter
	Thresholds *htmlThresholds // the [thresholds] verdict, if the profile had any
	Saturated  string
	Summary    []*textfmt.Table // totals and latency, above the charts
	Charts     []htmlChart
	// Targets are each target's sections, in a run with several, below the charts.
	Targets   []htmlTarget
	Tables    []*textfmt.Table // the rest of the report, below them
	Invariant *invariant       // the run's; nil when each target has its own
}

// htmlTarget is one target's sections of a run with several, as a run of one has them.
type htmlTarget struct {
	ID, Heading string
	Saturated   string
	Tables      []*textfmt.Table
	Invariant   invariant
}

// WriteHTML writes the run as one self-contained HTML page: the report's tables, and charts
// over time of the achieved rate against the target, latency percentiles, status codes and
// the rate-limited share, with the stages marked (a find-limit run adds its probes). The
// charts are SVG drawn here, inside the page: it needs no network, no script and no library.
func WriteHTML(w io.Writer, s *engine.Snapshot) error {
	if s == nil {
		return errors.New("write html: no snapshot to report")
	}
	charts, err := timelineCharts(s)
	if err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	name := runtext.ProfileName(s.Profile)
	r := htmlReport{
		Title:      name + " · " + formatTime(s.StartedAt),
		Subtitle:   "rpcstress report of " + name + " against " + safetext.Line(s.Target),
		Header:     headerTable(s),
		Search:     htmlSearchSection(s.Search),
		Thresholds: htmlThresholdsSection(s.Thresholds),
		Charts:     charts,
	}
	if len(s.Targets) > 0 {
		htmlTargetsReport(&r, s)
	} else {
		inv := invariantOf(s)
		r.Summary, r.Invariant = []*textfmt.Table{htmlTotals(s), latencyTable(&s.Totals)}, &inv
		r.Tables = shownTables(detailTables(s))
		r.Saturated = htmlSaturated(s)
	}
	var page bytes.Buffer
	if err := htmlPage.Execute(&page, r); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	// The fields above are escaped where they are filled; this is the last guard for one
	// that is not (the page's own text has no control characters but newlines).
	if _, err := io.WriteString(w, safetext.Text(page.String())); err != nil {
		return fmt.Errorf("write html: %w", err)
	}
	return nil
}

// htmlTotals is the run's totals as the page shows them, with the room a page has: one row of
// numbers, what has no column in a note (the text report's totalsTable lists them by label).
func htmlTotals(s *engine.Snapshot) *textfmt.Table {
	tot := &s.Totals
	secs := runtext.RunSeconds(s)
	head := []string{"scheduled", "sent", "completed", "inflight", "dropped", "req/s", "ok", "limited", "failed"}
	cells := []string{textfmt.Int(tot.Scheduled), textfmt.Int(tot.Sent), textfmt.Int(tot.Completed), textfmt.Int(tot.Inflight),
		textfmt.Int(tot.Dropped), textfmt.RPS(tot.RPS), countPct(tot.OK, tot.Completed),
		countPct(tot.Limited, tot.Completed), countPct(tot.Failed, tot.Completed)}
	if tot.Expect != nil { // among the failed, beside them
		head, cells = append(head, "invalid"), append(cells, countPct(tot.Expect.Invalid, tot.Completed))
	}
	if tot.Cost != nil {
		head, cells = append(head, "cost/s offered", "cost/s accepted"), append(cells, textfmt.RPS(tot.Cost.OfferedRate), textfmt.RPS(tot.Cost.AcceptedRate))
	}
	head, cells = append(head, "in"), append(cells, textfmt.BytesRate(tot.BytesIn, secs))
	t := textfmt.NewTable(strings.Repeat("r", len(head)), head...)
	t.Caption = "Totals"
	t.Add(cells...)
	t.Note = fmt.Sprintf("over %s; in %s, out %s (%s); connections: %s", textfmt.Seconds(secs),
		textfmt.Bytes(float64(tot.BytesIn)), textfmt.Bytes(float64(tot.BytesOut)),
		textfmt.BytesRate(tot.BytesOut, secs), dialText(tot.Connections))
	if calls := callsText(tot.Calls); calls != "" {
		t.Note += "; JSON-RPC calls: " + calls
	}
	return t
}

// htmlTargetsReport fills the page of a run with several targets: the targets side by side,
// their answers compared and the differences kept above the charts; each target's sections
// below them; the run's own tables (the node's resources, the events) last.
func htmlTargetsReport(r *htmlReport, s *engine.Snapshot) {
	r.Subtitle = "rpcstress report of " + runtext.ProfileName(s.Profile) + " against " + targetsWords(s.TargetNames())
	r.Summary = append([]*textfmt.Table{sideBySideTable(s)}, answersTables(s.Answers)...)
	if s.Answers != nil {
		for i, e := range s.Answers.Examples {
			r.Summary = append(r.Summary, exampleTable(i+1, e))
		}
	}
	for i := range s.Targets {
		v := s.TargetView(i)
		r.Targets = append(r.Targets, htmlTarget{ID: fmt.Sprintf("target_%d", i+1),
			Heading:   fmt.Sprintf("Target %s: %s · %s", runLabel(i), safetext.Line(s.Targets[i].Name), safetext.Line(v.Target)),
			Saturated: htmlSaturated(v),
			Tables:    shownTables(append([]*textfmt.Table{htmlTotals(v), latencyTable(&v.Totals)}, targetTables(v, subsTables(v)...)...)),
			Invariant: invariantOf(v)})
	}
	r.Tables = shownTables(append(nodeTables(s), eventsTable(s.Events)))
}

// shownTables are the tables that show (Shown): a table that says nothing is left out.
func shownTables(tables []*textfmt.Table) []*textfmt.Table {
	var out []*textfmt.Table
	for _, t := range tables {
		if t.Shown() {
			out = append(out, t)
		}
	}
	return out
}

// htmlSaturated is the page's warning that the tester fell behind; "" when it did not.
func htmlSaturated(s *engine.Snapshot) string {
	if s.SaturatedSeconds == 0 {
		return ""
	}
	return "Tester " + saturatedText(s.SaturatedSeconds)
}
