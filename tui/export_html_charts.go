package tui

import (
	"html/template"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"

	"github.com/rpcstress/rpcstress/engine"
)

// htmlChart is one chart of the HTML report: where it goes on the page and the script that
// draws it into that place (ECharts' option, with the run's data, inside).
type htmlChart struct {
	ID      string
	Title   string
	Element template.HTML
	Script  template.HTML
}

// chartHeight is each chart's height on the page; the width follows the page.
const chartHeight = "340px"

// Colours of the charts. The stage bands alternate two light greys so that a stage boundary
// shows on every chart without a legend.
const (
	stageBandA    = "rgba(120,120,120,0.10)"
	stageBandB    = "rgba(120,120,120,0.03)"
	colourTarget  = "#7f7f7f"
	colourLimited = "#d9822b"
)

// timelineCharts makes the report's four charts over the per-second timeline, each with the
// stages marked as bands: achieved rps against the target rate, latency percentiles, status
// codes stacked per second, and the rate-limited share of answers.
func timelineCharts(s *engine.Snapshot) []htmlChart {
	if len(s.Timeline) == 0 {
		return nil
	}
	x := make([]string, len(s.Timeline))
	for i, r := range s.Timeline {
		x[i] = strconv.Itoa(r.T)
	}
	lines, bars := stageBands(s, false), stageBands(s, true)
	return []htmlChart{
		throughputChart(s, x, lines),
		latencyChart(s, x, lines),
		statusChart(s, x, bars),
		limitedChart(s, x, lines),
	}
}

// stageBands marks each stage's seconds on the time axis: one band per run of timeline rows
// with the same stage, labelled "2 · 500/s". On a line chart a second is a point, so a band
// reaches to the next stage's first second and bands meet; on a bar chart a second is a slot,
// so a band covers its own last second's bar and no more.
func stageBands(s *engine.Snapshot, bars bool) [][]opts.MarkAreaData {
	var bands [][]opts.MarkAreaData
	for i := 0; i < len(s.Timeline); {
		j := i
		for j+1 < len(s.Timeline) && s.Timeline[j+1].Stage == s.Timeline[i].Stage {
			j++
		}
		stage := s.Timeline[i].Stage
		name := strconv.Itoa(stage + 1)
		if stage >= 0 && stage < len(s.Stages) && s.Mode != engine.ModeClosed {
			name += " · " + s.Stages[stage].Spec.Rate.String()
		}
		colour := stageBandA
		if len(bands)%2 == 1 {
			colour = stageBandB
		}
		style := opts.MarkAreaStyle{
			ItemStyle: &opts.ItemStyle{Color: colour},
			Label:     &opts.Label{Show: opts.Bool(true), Position: "insideTop", Color: "#555"},
		}
		end := s.Timeline[j].T
		if j+1 < len(s.Timeline) && !bars {
			end = s.Timeline[j+1].T
		}
		bands = append(bands, []opts.MarkAreaData{
			{Name: name, XAxis: strconv.Itoa(s.Timeline[i].T), MarkAreaStyle: style},
			{XAxis: strconv.Itoa(end)},
		})
		i = j + 1
	}
	return bands
}

// baseOptions are what every chart shares: a fixed ID (so the page is the same for the same
// run), SVG rendering (sharp in print; its text is in the page), no animation, an axis tooltip.
func baseOptions(id, title, yName string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{
			ChartID: id, Width: "100%", Height: chartHeight, Renderer: "svg",
		}),
		charts.WithTitleOpts(opts.Title{Title: title}),
		charts.WithAnimation(false),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "28"}),
		charts.WithGridOpts(opts.Grid{Top: "70", Left: "60", Right: "30", Bottom: "50"}),
		charts.WithXAxisOpts(opts.XAxis{Name: "s", NameLocation: "end"}),
		charts.WithYAxisOpts(opts.YAxis{Name: yName}),
	}
}

func lineData(rows []engine.Row, v func(*engine.Row) float64) []opts.LineData {
	d := make([]opts.LineData, len(rows))
	for i := range rows {
		d[i] = opts.LineData{Value: chartNumber(v(&rows[i]))}
	}
	return d
}

// chartNumber rounds to what the report shows (three decimals at most), so the page does not
// carry float noise; NaN and infinities, which JSON cannot hold, become 0.
func chartNumber(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return math.Round(v*1000) / 1000
}

var plainLine = charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)})

func throughputChart(s *engine.Snapshot, x []string, bands [][]opts.MarkAreaData) htmlChart {
	c := charts.NewLine()
	c.SetGlobalOptions(baseOptions("chart_rps", "Throughput: achieved vs target", "req/s")...)
	c.SetXAxis(x).
		AddSeries("achieved rps", lineData(s.Timeline, func(r *engine.Row) float64 { return r.RPS }),
			plainLine, charts.WithMarkAreaData(bands...)).
		AddSeries("target rate", lineData(s.Timeline, func(r *engine.Row) float64 { return r.TargetRate }),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), Step: "end"}),
			charts.WithLineStyleOpts(opts.LineStyle{Type: "dashed", Color: colourTarget}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colourTarget}))
	return snippet("chart_rps", "Throughput", c)
}

func latencyChart(s *engine.Snapshot, x []string, bands [][]opts.MarkAreaData) htmlChart {
	c := charts.NewLine()
	c.SetGlobalOptions(baseOptions("chart_latency", "Latency per second (from intended send)", "ms")...)
	c.SetXAxis(x).
		AddSeries("p50", lineData(s.Timeline, func(r *engine.Row) float64 { return r.Latency.P50 }),
			plainLine, charts.WithMarkAreaData(bands...)).
		AddSeries("p90", lineData(s.Timeline, func(r *engine.Row) float64 { return r.Latency.P90 }), plainLine).
		AddSeries("p99", lineData(s.Timeline, func(r *engine.Row) float64 { return r.Latency.P99 }), plainLine).
		AddSeries("max", lineData(s.Timeline, func(r *engine.Row) float64 { return r.Latency.Max }), plainLine)
	return snippet("chart_latency", "Latency", c)
}

// statusChart stacks the answers of each second by HTTP status, with the requests that got no
// status (transport errors) on top, so a bar's height is the second's completed count.
func statusChart(s *engine.Snapshot, x []string, bands [][]opts.MarkAreaData) htmlChart {
	statuses, _, _ := timelineKeys(s)
	c := charts.NewBar()
	c.SetGlobalOptions(baseOptions("chart_status", "Answers per second by status", "answers")...)
	c.SetXAxis(x)
	stack := charts.WithBarChartOpts(opts.BarChart{Stack: "answers", BarCategoryGap: "10%"})
	for i, code := range statuses {
		d := make([]opts.BarData, len(s.Timeline))
		for j := range s.Timeline {
			d[j] = opts.BarData{Value: s.Timeline[j].Status[code]}
		}
		o := []charts.SeriesOpts{stack}
		if code == "429" {
			o = append(o, charts.WithItemStyleOpts(opts.ItemStyle{Color: colourLimited}))
		}
		if i == 0 {
			o = append(o, charts.WithMarkAreaData(bands...))
		}
		c.AddSeries(code, d, o...)
	}
	if sumCounts(s.Totals.Errors) > 0 || timelineHasErrors(s.Timeline) {
		d := make([]opts.BarData, len(s.Timeline))
		for j := range s.Timeline {
			d[j] = opts.BarData{Value: sumCounts(s.Timeline[j].Errors)}
		}
		c.AddSeries("transport error", d, stack, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#c23531"}))
	}
	return snippet("chart_status", "Status codes", c)
}

func timelineHasErrors(rows []engine.Row) bool {
	for i := range rows {
		if sumCounts(rows[i].Errors) > 0 {
			return true
		}
	}
	return false
}

// limitedChart is the share of each second's answers that were rate-limited (429 and the
// profile's limit codes): during a limit sweep, where it leaves zero is the node's limit.
func limitedChart(s *engine.Snapshot, x []string, bands [][]opts.MarkAreaData) htmlChart {
	c := charts.NewLine()
	c.SetGlobalOptions(baseOptions("chart_limited", "Rate-limited share of answers (429 and limit codes)", "%")...)
	c.SetGlobalOptions(charts.WithYAxisOpts(opts.YAxis{Name: "%", Min: 0, Max: 100}))
	c.SetXAxis(x).
		AddSeries("limited %", lineData(s.Timeline, func(r *engine.Row) float64 {
			done := r.OK + r.Limited + r.Failed
			if done == 0 {
				return 0
			}
			return 100 * float64(r.Limited) / float64(done)
		}), plainLine, charts.WithMarkAreaData(bands...),
			charts.WithAreaStyleOpts(opts.AreaStyle{Opacity: opts.Float(0.25)}),
			charts.WithLineStyleOpts(opts.LineStyle{Color: colourLimited}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: colourLimited}))
	return snippet("chart_limited", "Rate-limited share", c)
}

// scriptEnd finds a closing script tag in any case. The chart options hold only numbers and
// this package's own labels, but a script must never be able to close itself early.
var scriptEnd = regexp.MustCompile(`(?i)</script`)

// snippet renders a chart as a page fragment: its element and its script.
func snippet(id, title string, r render.Renderer) htmlChart {
	sn := r.RenderSnippet()
	// go-echarts wraps the script in its own tags; only what lies between them is escaped.
	script := strings.TrimSpace(sn.Script)
	const open, end = `<script type="text/javascript">`, `</script>`
	if strings.HasPrefix(script, open) && strings.HasSuffix(script, end) {
		body := strings.TrimSuffix(strings.TrimPrefix(script, open), end)
		script = open + scriptEnd.ReplaceAllString(body, `<\/script`) + end
	}
	return htmlChart{
		ID: id, Title: title,
		Element: template.HTML(sn.Element), //nolint:gosec // go-echarts' own element markup
		Script:  template.HTML(script),     //nolint:gosec // go-echarts' script; options escaped above
	}
}
