package report

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/svgtest"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
)

// writeHTMLPage is the page of s.
func writeHTMLPage(t *testing.T, s *engine.Snapshot) string {
	t.Helper()
	return written(t, func(w io.Writer) error { return WriteHTML(w, s) })
}

// chartFigure is the figure of the chart id on the page, which must draw it as SVG with the
// texts (legend entries, stage labels, marks).
func chartFigure(t *testing.T, page, id string, texts ...string) string {
	t.Helper()
	fig, ok := svgtest.Figure(page, id)
	if !ok || !strings.Contains(fig, "<svg") {
		t.Fatalf("%s: no SVG chart", id)
	}
	checkContains(t, id, strings.Join(svgtest.Texts(fig), "\n"), texts...)
	return fig
}

// checkSelfContained: the page loads nothing and runs nothing, so it reads the same on a
// machine with no network, in a browser with scripts off, and in ten years.
func checkSelfContained(t *testing.T, page string) {
	t.Helper()
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)<script`), regexp.MustCompile(`(?i)\ssrc=`), regexp.MustCompile(`(?i)<link`),
		regexp.MustCompile(`(?i)\shref="(?:https?:)?//`), regexp.MustCompile(`(?i)url\(`), regexp.MustCompile(`(?i)@import`),
	} {
		if m := bad.FindString(page); m != "" {
			t.Errorf("the page is not self-contained: it has %q", m)
		}
	}
}

// rowPoints is what a chart should draw for a timeline: one point per second, in the middle
// of it, with the value v gives.
func rowPoints(rows []engine.Row, v func(*engine.Row) float64) []svgtest.Point {
	pts := make([]svgtest.Point, len(rows))
	for i := range rows {
		pts[i] = svgtest.Point{X: float64(rows[i].T) + 0.5, Y: v(&rows[i])}
	}
	return pts
}

// variedTimeline gives every second of the fixture its own numbers: a chart that drew one
// series in place of another, or a layer unstacked, would otherwise still fit, since the
// fixture's series take only two values each.
func variedTimeline(s *engine.Snapshot) *engine.Snapshot {
	varyRows(s.Timeline, 1)
	return s
}

// varyRows varies the seconds by pattern k (1, 2 …): the patterns differ, so that a chart that
// drew one target's series in place of another's is caught too.
func varyRows(rows []engine.Row, k int) {
	for i := range rows {
		r := &rows[i]
		r.Latency.P50 += float64((r.T*k)%3) * 0.4
		r.Latency.P90 += float64((r.T*3*k)%7) * 0.3
		r.Latency.P99 += float64((r.T*5*k)%11) * 0.9
		r.Latency.Max += float64((r.T*7*k)%13) * 2
		if r.Stage == 1 {
			ok, lim := int64(100+(r.T*5*k)%17), int64(60+(r.T*7*k)%31)
			r.Status["200"], r.Status["429"], r.OK, r.Limited = ok, lim, ok, lim
		}
		r.RPS = float64(r.OK + r.Limited + r.Failed)
	}
}

// TestWriteHTML: one page with the tables in plain HTML and four SVG charts drawn from the
// timeline, with the stages marked, needing nothing from outside, and no way for the run's
// text to break out of the markup.
func TestWriteHTML(t *testing.T) {
	s := variedTimeline(fixture.SnapshotWithTimeline())
	s.RPCMessages["-32602"] = `bad <script>alert(1)</script> params`
	s.Stages[1].Spec.Name = `<b>peak</b>`
	page := writeHTMLPage(t, s)
	checkSelfContained(t, page)
	checkContains(t, "the page", page,
		"<title>rpcstress: getBalance · 2025-03-01T10:00:00Z</title>",
		// the tables: totals, stages, status, errors, events, invariant
		`<td class="num">2485</td>`, `<td class="num">200/s</td>`, `<td class="num">198.5</td>`,
		`<td class="num">429</td>`, `<td>timeout</td>`, "stage 2/2: 200/s for 10s", "Invariant ✓",
		"Tester saturated for 2 s")
	if strings.Contains(page, "<script>alert(1)") || !strings.Contains(page, "bad &lt;script&gt;alert(1)&lt;/script&gt; params") {
		t.Error("a message from the target is not escaped")
	}

	rows := s.Timeline
	charts := []struct {
		id     string
		texts  []string          // legend entries and stage labels drawn in the chart
		series [][]svgtest.Point // data lines the chart must draw exactly
	}{
		// achieved rps per second, the target as a dashed step
		{"chart_rps", []string{"achieved rps", "target rate", "1 · 50/s", "<b>peak</b> · 200/s"},
			[][]svgtest.Point{rowPoints(rows, func(r *engine.Row) float64 { return r.RPS })}},
		// the four percentiles
		{"chart_latency", []string{"p50", "p90", "p99", "max"}, [][]svgtest.Point{
			rowPoints(rows, func(r *engine.Row) float64 { return r.Latency.P50 }),
			rowPoints(rows, func(r *engine.Row) float64 { return r.Latency.P90 }),
			rowPoints(rows, func(r *engine.Row) float64 { return r.Latency.P99 }),
			rowPoints(rows, func(r *engine.Row) float64 { return r.Latency.Max }),
		}},
		// stacked: 200 at the bottom, then 429, transport errors on top (the completed count)
		{"chart_status", []string{"200", "429", "transport error"}, [][]svgtest.Point{
			rowPoints(rows, func(r *engine.Row) float64 { return float64(r.Status["200"]) }),
			rowPoints(rows, func(r *engine.Row) float64 { return float64(r.Status["200"] + r.Status["429"]) }),
			rowPoints(rows, func(r *engine.Row) float64 { return float64(r.OK + r.Limited + r.Failed) }),
		}},
		// the limited share of each second's answers
		{"chart_limited", []string{"limited %"}, [][]svgtest.Point{
			rowPoints(rows, func(r *engine.Row) float64 { return 100 * float64(r.Limited) / float64(r.OK+r.Limited+r.Failed) }),
		}},
	}
	for _, c := range charts {
		fig := chartFigure(t, page, c.id, c.texts...)
		for i, want := range c.series {
			if !svgtest.Carries(svgtest.Lines(fig), want) {
				t.Errorf("%s: series %d is not drawn from the timeline", c.id, i)
			}
		}
	}
	if !strings.Contains(page, "&lt;b&gt;peak&lt;/b&gt;") || strings.Contains(page, "<b>peak</b>") {
		t.Error("a stage name is not escaped in the charts")
	}
}

// TestWriteHTMLChartGaps: a second without answers breaks the latency line rather than
// drawing 0 ms, which would read as measured.
func TestWriteHTMLChartGaps(t *testing.T) {
	s := variedTimeline(fixture.SnapshotWithTimeline())
	gap := &s.Timeline[12]
	gap.Status, gap.OK, gap.Limited, gap.Failed, gap.RPS, gap.Latency = map[string]int64{}, 0, 0, 0, 0, engine.RowLatency{}
	fig, _ := svgtest.Figure(writeHTMLPage(t, s), "chart_latency")
	p99 := func(r *engine.Row) float64 { return r.Latency.P99 }
	before, after := rowPoints(s.Timeline[:12], p99), rowPoints(s.Timeline[13:], p99)
	if lines := svgtest.Lines(fig); !svgtest.Carries(lines, before) || !svgtest.Carries(lines, after) {
		t.Error("the p99 line is not two pieces around the second without answers")
	}
}

func TestWriteHTMLNoTimeline(t *testing.T) {
	page := writeHTMLPage(t, fixture.Snapshot())
	checkSelfContained(t, page)
	if !strings.Contains(page, "nothing to chart") || strings.Contains(page, "<svg") {
		t.Errorf("want no charts and a note:\n%s", page)
	}
}

// TestWriteHTMLSearchAndThresholds: a find-limit run's answer, probes and limiter, and a
// run's thresholds, are on the page as they are in the text report; the probes are charted.
func TestWriteHTMLSearchAndThresholds(t *testing.T) {
	s := fixture.SnapshotWithTimeline()
	pr := fixture.SearchProgress()
	probes := append(pr.Probes, fixture.Probe(5, "close", 1050, 1000, 1.17, 4.76, "fail", "limited 4.76% > 1%"))
	s.Search = &engine.SearchResult{Settings: pr.Settings, SLO: pr.SLO, Probes: probes, EndReason: "converged",
		Answer: engine.SearchAnswer{Found: true, Rate: 1000, Goodput: 1000, FirstBad: 1050, GapPct: 5,
			Text:     "1000/s met the SLO (goodput 1000 ok/s); 1050/s did not: limited 4.76% > 1%",
			Breaches: []engine.SearchBreach{{Clause: "limited", Measured: 4.76, Bound: 1, Unit: "%", Text: "limited 4.76% > 1%"}}},
		Limiter: &engine.LimiterEstimate{Kind: "token bucket", Rate: 1000, RateErr: 0.67, Burst: 60, BurstErr: 2.6,
			BurstFrom: "burst probe", Delay: "nodelay", Nginx: "rate=1000r/s burst=60 nodelay", Notes: []string{"rate: <1000.2> ok/s accepted"}}}
	s.Thresholds = []engine.ThresholdResult{
		{Metric: "p99", Condition: "< 50ms", Op: "<", Bound: 50, Unit: "ms", Measured: 22.8, Pass: true, Margin: 27.2, Where: "/x/th.toml:13"},
		{Metric: "limited", Stage: 2, Condition: "< 1%", Op: "<", Bound: 1, Unit: "%", Measured: 39.4, Margin: -38.4, Where: "/x/th.toml:19"},
	}
	page := writeHTMLPage(t, s)
	checkSelfContained(t, page)
	checkContains(t, "the page", page,
		"Answer: 1000/s met the SLO (goodput 1000 ok/s); 1050/s did not: limited 4.76% &gt; 1%",
		"<td>first bad</td><td>1050/s: limited 4.76% &gt; 1%</td>",
		"Limiter: token bucket, rate 1000 ± 0.67/s, burst 60 ± 2.6 (burst probe), nodelay",
		"<code>limit_req rate=1000r/s burst=60 nodelay</code>", "<li>rate: &lt;1000.2&gt; ok/s accepted</li>",
		"<td>FAIL limited 4.76% &gt; 1%</td>", // the probe table
		"Thresholds ✗ 1 of 2 failed", "<td>✗ FAIL</td><td>stage 2 limited</td>", "38.4 points over", "<td>th.toml:19</td>")
	fig := chartFigure(t, page, "chart_probes", "limit 1000/s", "first bad 1050/s", "probe passed", "probe failed")
	// Passed probes, then failed ones, each at (offered rate, goodput).
	var want []svgtest.Point
	for _, verdict := range []string{"pass", "fail"} {
		for _, p := range probes {
			if p.Verdict == verdict {
				want = append(want, svgtest.Point{X: p.Rate, Y: p.Goodput})
			}
		}
	}
	if !svgtest.CarriesDots(svgtest.Dots(fig), want) {
		t.Errorf("the probe chart does not draw the probes: %v", svgtest.Dots(fig))
	}
}

// TestWriteHTMLOddSnapshots: a snapshot is a file anyone can edit; whatever its timeline
// holds, the page is written (or an error returned), never a crash.
func TestWriteHTMLOddSnapshots(t *testing.T) {
	tests := []struct {
		name string
		edit func(r *engine.Row)
	}{
		{"an empty status code", func(r *engine.Row) { r.Status[""] = 3 }},
		{"a huge rate", func(r *engine.Row) { r.RPS, r.TargetRate = 1e300, 1e300 }},
		{"negative numbers", func(r *engine.Row) { r.RPS, r.Latency.P99, r.Limited = -5, -1, -3 }},
		{"a negative second", func(r *engine.Row) { r.T = -7 }},
		{"a stage the snapshot does not have", func(r *engine.Row) { r.Stage = 99 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fixture.SnapshotWithTimeline()
			tt.edit(&s.Timeline[4])
			var b bytes.Buffer
			if err := WriteHTML(&b, s); err == nil && !strings.Contains(b.String(), "</html>") {
				t.Error("no error and no whole page")
			}
		})
	}
}

// TestWriteHTMLTargets: the page of a run with two targets draws each target's series on the
// shared charts (rps, p50 and p99, the limited share), each target's answers by status, the
// targets side by side, the answers compared and each kept difference whole, then each
// target's own sections with its invariant, and the run's events once.
func TestWriteHTMLTargets(t *testing.T) {
	s := variedTimeline(fixture.TargetsSnapshot()) // geth's (the top level's) seconds
	varyRows(s.Targets[1].Timeline, 2)             // erigon's otherwise: no series is another's image
	page := writeHTMLPage(t, s)
	checkSelfContained(t, page)
	checkContains(t, "the page", page, "against geth vs erigon", "Targets side by side", `<td>B/A</td>`,
		"Answers compared (geth vs erigon)", "1. eth_getBlockByNumber: the results differ, geth vs erigon",
		`<td>&#34;0x5f0c3bd2a1e6f7c8d9e0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6&#34;</td>`,
		`id="target_1">Target A: geth · http://127.0.0.1:8899`, `id="target_2">Target B: erigon`,
		"header not found")
	if n := strings.Count(page, "Invariant ✓"); n != 2 {
		t.Errorf("%d invariants, want one per target", n)
	}
	if n := strings.Count(page, "stage 2/2: 200/s for 10s"); n != 1 {
		t.Errorf("the events shown %d times, want once", n)
	}
	geth, erigon := s.TargetView(0).Timeline, s.TargetView(1).Timeline
	charts := []struct {
		id     string
		texts  []string
		series [][]svgtest.Point
	}{
		// each target's achieved rps, and the one target rate
		{"chart_rps", []string{"A geth", "B erigon", "target rate"}, [][]svgtest.Point{
			rowPoints(geth, func(r *engine.Row) float64 { return r.RPS }), rowPoints(erigon, func(r *engine.Row) float64 { return r.RPS })}},
		// p50 and p99 of each
		{"chart_latency", []string{"A geth p50", "A geth p99", "B erigon p50", "B erigon p99"}, [][]svgtest.Point{
			rowPoints(geth, func(r *engine.Row) float64 { return r.Latency.P99 }), rowPoints(erigon, func(r *engine.Row) float64 { return r.Latency.P99 })}},
		// the limited share of each: erigon's higher in stage 2
		{"chart_limited", []string{"A geth", "B erigon"}, [][]svgtest.Point{
			rowPoints(erigon, func(r *engine.Row) float64 { return 100 * float64(r.Limited) / float64(r.OK+r.Limited+r.Failed) })}},
		// erigon's answers by status, stacked
		{"chart_status_2", []string{"200", "429"}, [][]svgtest.Point{
			rowPoints(erigon, func(r *engine.Row) float64 { return float64(r.Status["200"]) })}},
	}
	for _, c := range charts {
		fig := chartFigure(t, page, c.id, c.texts...)
		for i, want := range c.series {
			if !svgtest.Carries(svgtest.Lines(fig), want) {
				t.Errorf("%s: series %d is not drawn from its target's timeline", c.id, i)
			}
		}
	}
}
