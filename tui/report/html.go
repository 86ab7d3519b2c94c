package report

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

//go:embed html.tmpl
var htmlPageText string

var htmlPage = template.Must(template.New("report").Parse(htmlPageText))

// htmlReport is what the page template draws.
type htmlReport struct {
	Title      string
	Subtitle   string
	Header     htmlTable
	Search     *htmlSearch     // a find-limit run's answer, probes and limiter
	Thresholds *htmlThresholds // the [thresholds] verdict, if the profile had any
	Saturated  string
	Summary    []htmlTable // totals and latency, above the charts
	Charts     []htmlChart
	Tables     []htmlTable // the rest of the report, below them
	Invariant  htmlInvariant
}

// htmlTable is one table of the page: a caption, a head row and rows of cells. Right says
// which columns hold numbers (right-aligned), as the text report's align strings do.
type htmlTable struct {
	Caption string
	Note    string
	Head    []string
	Rows    [][]string
	Right   []bool
}

type htmlInvariant struct {
	OK     bool
	Lines  []string
	Broken []string
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
		Header:     htmlHeader(s),
		Search:     htmlSearchSection(s.Search),
		Thresholds: htmlThresholdsSection(s.Thresholds),
		Summary:    []htmlTable{htmlTotals(s), htmlLatency(&s.Totals)},
		Charts:     charts,
		Tables: nonEmpty(htmlStages(s), htmlRequests(&s.Totals), htmlStatuses(&s.Totals),
			htmlTransportErrors(&s.Totals), htmlRPCErrors(&s.Totals, s.RPCMessages), htmlCallFaults(&s.Totals),
			htmlRateLimitHeaders(s.RateLimitHeaders), htmlEvents(s.Events)),
		Invariant: invariantFor(s),
	}
	if s.SaturatedSeconds > 0 {
		r.Saturated = fmt.Sprintf("Tester saturated for %d s: the generator could not keep its own "+
			"schedule, so those seconds' latency includes the tester's own delay.", s.SaturatedSeconds)
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

func nonEmpty(tables ...htmlTable) []htmlTable {
	var out []htmlTable
	for _, t := range tables {
		if len(t.Rows) > 0 || t.Note != "" {
			out = append(out, t)
		}
	}
	return out
}

// newHTMLTable starts a table; align is one letter a column, 'l' or 'r', as for newTable.
func newHTMLTable(caption, align string, head ...string) htmlTable {
	t := htmlTable{Caption: caption, Head: head, Right: make([]bool, len(align))}
	for i, a := range align {
		t.Right[i] = a == 'r'
	}
	return t
}

// add appends a row of cells made safe to show (safetext): html/template escapes what HTML
// would obey, not what a terminal would, and the page may well be read with cat.
func (t *htmlTable) Add(cells ...string) {
	row := make([]string, len(t.Right))
	for i := range min(len(cells), len(row)) {
		row[i] = safetext.Line(cells[i])
	}
	t.Rows = append(t.Rows, row)
}

func htmlHeader(s *engine.Snapshot) htmlTable {
	t := newHTMLTable("", "ll")
	t.Add("target", s.Target)
	t.Add("mode", runtext.ModeText(s.Mode))
	t.Add("started", formatTime(s.StartedAt))
	ended := formatTime(s.EndedAt)
	if s.EndedAt.IsZero() {
		ended = "- (partial run: not ended)"
	}
	t.Add("ended", ended)
	t.Add("duration", textfmt.Seconds(runtext.WallSeconds(s)))
	t.Add("end reason", orDash(s.EndReason))
	t.Add("host", orDash(strings.TrimSpace(s.Host+"  "+strings.TrimSpace(s.Tool.Name+" "+s.Tool.Version))))
	if s.Shard != "" {
		t.Add("shard", s.Shard)
	}
	if len(s.Merged) > 0 {
		t.Add("merged from", strings.Join(s.Merged, ", "))
	}
	return t
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func htmlTotals(s *engine.Snapshot) htmlTable {
	tot := &s.Totals
	secs := runtext.RunSeconds(s)
	t := newHTMLTable("Totals", "rrrrrrrrrr", "scheduled", "sent", "completed", "inflight", "dropped",
		"req/s", "ok", "limited", "failed", "in")
	t.Add(textfmt.Int(tot.Scheduled), textfmt.Int(tot.Sent), textfmt.Int(tot.Completed), textfmt.Int(tot.Inflight),
		textfmt.Int(tot.Dropped), textfmt.RPS(tot.RPS),
		fmt.Sprintf("%d (%s)", tot.OK, textfmt.Pct(tot.OK, tot.Completed)),
		fmt.Sprintf("%d (%s)", tot.Limited, textfmt.Pct(tot.Limited, tot.Completed)),
		fmt.Sprintf("%d (%s)", tot.Failed, textfmt.Pct(tot.Failed, tot.Completed)),
		textfmt.BytesRate(tot.BytesIn, secs))
	c := tot.Connections
	t.Note = fmt.Sprintf("over %s; in %s, out %s (%s); %d connections dialed, dial time mean %s ms, max %s ms (not in latency)",
		textfmt.Seconds(secs), textfmt.Bytes(float64(tot.BytesIn)), textfmt.Bytes(float64(tot.BytesOut)),
		textfmt.BytesRate(tot.BytesOut, secs), c.Dialed, textfmt.Ms(c.DialMean), textfmt.Ms(c.DialMax))
	if calls := callsText(tot.Calls); calls != "" {
		t.Note += "; JSON-RPC calls: " + calls
	}
	return t
}

func htmlLatency(tot *engine.Summary) htmlTable {
	t := newHTMLTable("Latency (ms)", "lrrrrrrrrr", "", "min", "p50", "p75", "p90", "p95", "p99", "p99.9", "max", "mean")
	t.Add(percentileRow("latency (from intended send)", tot.Latency)...)
	t.Add(percentileRow("service (from actual send)", tot.Service)...)
	for _, o := range []struct {
		key, label string
		count      int64
	}{{"ok", "ok only", tot.OK}, {"limited", "limited only", tot.Limited}, {"failed", "failed only", tot.Failed}} {
		if p, ok := tot.LatencyByOutcome[o.key]; ok && o.count > 0 {
			t.Add(percentileRow(o.label, p)...)
		}
	}
	return t
}

func htmlStages(s *engine.Snapshot) htmlTable {
	t := newHTMLTable("Stages (latency in ms, from intended send)", "rrrrrrrrrrrrr",
		"#", "rate", "planned", "ran", "rps", "p50", "p90", "p99", "2xx", "limited", "failed", "rpcerr", "dropped")
	for i, st := range s.Stages {
		sum := &st.Summary
		rate := st.Spec.Rate.String()
		if s.Mode == engine.ModeClosed {
			rate = "-"
		}
		planned := "open"
		if st.Spec.Duration > 0 {
			planned = st.Spec.Duration.String()
		}
		t.Add(textfmt.Int(int64(i+1)), rate, planned, textfmt.Seconds(sum.DurationS), textfmt.RPS(sum.RPS),
			textfmt.Ms(sum.Latency.P50), textfmt.Ms(sum.Latency.P90), textfmt.Ms(sum.Latency.P99),
			textfmt.Int(textfmt.Sum2xx(sum.Status)), textfmt.Int(sum.Limited), textfmt.Int(sum.Failed),
			textfmt.Int(textfmt.SumCounts(sum.RPCErrors)), textfmt.Int(sum.Dropped))
	}
	if len(t.Rows) == 0 {
		t.Note = "none recorded"
	}
	return t
}

func htmlRequests(tot *engine.Summary) htmlTable {
	t := newHTMLTable("Requests (latency in ms, from intended send)", "lrrrrrrrrrr",
		"name", "count", "share", "p50", "p90", "p99", "max", "2xx", "limited", "failed", "rpcerr")
	if len(tot.ByRequest) < 2 {
		return t // a mix of one: the totals are that request
	}
	for _, name := range runtext.RequestsByCount(tot.ByRequest) {
		r := tot.ByRequest[name]
		t.Add(name, textfmt.Int(r.Completed), textfmt.Pct(r.Completed, tot.Completed),
			textfmt.Ms(r.Latency.P50), textfmt.Ms(r.Latency.P90), textfmt.Ms(r.Latency.P99), textfmt.Ms(r.Latency.Max),
			textfmt.Int(textfmt.Sum2xx(r.Status)), textfmt.Int(r.Limited), textfmt.Int(r.Failed),
			textfmt.Int(textfmt.SumCounts(r.RPCErrors)))
	}
	return t
}

func htmlStatuses(tot *engine.Summary) htmlTable {
	t := newHTMLTable(fmt.Sprintf("HTTP status (share of %d completed)", tot.Completed), "rrr", "code", "count", "share")
	for _, code := range textfmt.SortedCodes(tot.Status) {
		t.Add(code, textfmt.Int(tot.Status[code]), textfmt.Pct(tot.Status[code], tot.Completed))
	}
	if len(t.Rows) == 0 {
		t.Caption, t.Note = "HTTP status", "none received"
	}
	return t
}

func htmlTransportErrors(tot *engine.Summary) htmlTable {
	t := newHTMLTable("Transport errors (no HTTP status)", "lrr", "class", "count", "share")
	for _, class := range textfmt.SortedByCount(tot.Errors) {
		if tot.Errors[class] > 0 {
			t.Add(class, textfmt.Int(tot.Errors[class]), textfmt.Pct(tot.Errors[class], tot.Completed))
		}
	}
	if len(t.Rows) == 0 {
		t.Caption, t.Note = "Transport errors", "none"
	}
	return t
}

func htmlRPCErrors(tot *engine.Summary, messages map[string]string) htmlTable {
	t := newHTMLTable("JSON-RPC errors (inside HTTP answers; batch items counted apart)", "rrrl",
		"code", "count", "share", "message")
	for _, code := range textfmt.SortedByCount(tot.RPCErrors) {
		t.Add(code, textfmt.Int(tot.RPCErrors[code]), textfmt.Pct(tot.RPCErrors[code], tot.Completed), textfmt.OneLine(messages[code]))
	}
	if len(t.Rows) == 0 {
		t.Caption, t.Note = "JSON-RPC errors", "none"
	}
	return t
}

func htmlRateLimitHeaders(headers map[string]string) htmlTable {
	t := newHTMLTable("Rate-limit headers (last seen)", "ll", "header", "value")
	for _, n := range sortedKeys(headers) {
		t.Add(n, textfmt.OneLine(headers[n]))
	}
	return t
}

func htmlEvents(events []engine.Event) htmlTable {
	t := newHTMLTable("Events", "rll", "t", "kind", "detail")
	for _, e := range events {
		t.Add(fmt.Sprintf("%.1fs", e.T), e.Kind, textfmt.OneLine(e.Detail))
	}
	if len(t.Rows) == 0 {
		t.Note = "none"
	}
	return t
}

func invariantFor(s *engine.Snapshot) htmlInvariant {
	tot := &s.Totals
	inv := htmlInvariant{Lines: []string{
		fmt.Sprintf("scheduled %d = sent %d + dropped %d", tot.Scheduled, tot.Sent, tot.Dropped),
		fmt.Sprintf("sent %d = completed %d + inflight %d", tot.Sent, tot.Completed, tot.Inflight),
		fmt.Sprintf("completed %d = Σ status %d + Σ errors %d", tot.Completed, textfmt.SumCounts(tot.Status), textfmt.SumCounts(tot.Errors)),
	}}
	if err := tot.CheckInvariant(); err != nil {
		inv.Broken = append(inv.Broken, errLines(err, "")...)
	}
	for i := range s.Stages {
		if err := s.Stages[i].Summary.CheckInvariant(); err != nil {
			inv.Broken = append(inv.Broken, errLines(err, fmt.Sprintf("stage %d: ", i+1))...)
		}
	}
	inv.OK = len(inv.Broken) == 0
	return inv
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
