package report

import (
	"errors"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/report/svgchart"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// htmlChart is one chart of the HTML report: its place on the page and its drawing.
type htmlChart struct {
	ID    string
	Title string
	SVG   template.HTML
}

// Colours of the charts' series.
var (
	colourAchieved = color.RGBA{0x1f, 0x77, 0xb4, 0xff}
	colourTarget   = color.RGBA{0x7f, 0x7f, 0x7f, 0xff}
	colourLimited  = color.RGBA{0xd9, 0x82, 0x2b, 0xff}
	colourOK       = color.RGBA{0x2c, 0xa0, 0x2c, 0xff}
	colourFailed   = color.RGBA{0xc2, 0x35, 0x31, 0xff}
	colourError    = color.RGBA{0x7b, 0x1f, 0x1f, 0xff}
	colourSkipped  = color.RGBA{0xaa, 0xaa, 0xaa, 0xff}
	// latencyColours: p50, p90, p99, max, from calm to loud.
	latencyColours = [4]color.Color{colourOK, colourAchieved, color.RGBA{0x94, 0x67, 0xbd, 0xff}, colourFailed}
)

// timelineCharts makes the report's charts over the per-second timeline, each with the stages
// shaded as bands: achieved rps against the target rate, latency percentiles, answers per
// second stacked by status, and the rate-limited share; a watched run the node's CPU and
// memory. A find-limit run adds its probes.
func timelineCharts(s *engine.Snapshot) ([]htmlChart, error) {
	var specs []svgchart.Chart
	if len(s.Timeline) > 0 {
		bands := stageBands(s)
		end := float64(s.Timeline[len(s.Timeline)-1].T + 1)
		over := []svgchart.Chart{throughputChart(s), latencyChart(s), statusChart(s), limitedChart(s)}
		if len(s.Targets) > 0 {
			over, end = targetsCharts(s), targetsEnd(s)
		}
		for _, ch := range append(over, watchCharts(s)...) {
			ch.Bands, ch.XMax, ch.XLabel = bands, end, "seconds since the start"
			specs = append(specs, ch)
		}
	}
	specs = append(specs, probeCharts(s.Search)...)
	charts := make([]htmlChart, 0, len(specs))
	for i := range specs {
		doc, err := specs[i].SVG()
		if err != nil {
			return nil, err
		}
		svg, err := inlineSVG(doc, specs[i].Title)
		if err != nil {
			return nil, err
		}
		charts = append(charts, htmlChart{ID: specs[i].ID, Title: specs[i].Title, SVG: svg})
	}
	return charts, nil
}

// The timeline's row T holds the answers of the second [T, T+1): its point is drawn in the
// middle of that second, and a stage's band covers its seconds whole.
func secondMid(r *engine.Row) float64 { return float64(r.T) + 0.5 }

// stageBands marks each run of timeline rows of one stage, labelled "2 · 500/s" (a find-limit
// probe: "probe 3 · 800/s").
func stageBands(s *engine.Snapshot) []svgchart.Band {
	var bands []svgchart.Band
	for i := 0; i < len(s.Timeline); {
		j := i
		for j+1 < len(s.Timeline) && s.Timeline[j+1].Stage == s.Timeline[i].Stage {
			j++
		}
		stage := s.Timeline[i].Stage
		label := strconv.Itoa(stage + 1)
		if stage >= 0 && stage < len(s.Stages) {
			if name := s.Stages[stage].Spec.Name; name != "" {
				label = safetext.Line(name) // the profile's
			}
			if s.Mode != engine.ModeClosed {
				label += " · " + s.Stages[stage].Spec.Rate.String()
			}
		}
		to := float64(s.Timeline[j].T + 1)
		if j+1 < len(s.Timeline) {
			to = float64(s.Timeline[j+1].T) // bands meet: a second skipped between stages is not lost
		}
		bands = append(bands, svgchart.Band{From: float64(s.Timeline[i].T), To: to, Label: label})
		i = j + 1
	}
	return bands
}

// rowSeries is a series of one value per timeline second; keep says which seconds have a
// value at all (a gap breaks the line).
func rowSeries(rows []engine.Row, v func(*engine.Row) float64, keep func(*engine.Row) bool) []svgchart.XYs {
	var segs []svgchart.XYs
	var cur svgchart.XYs
	for i := range rows {
		y := v(&rows[i])
		if (keep != nil && !keep(&rows[i])) || math.IsNaN(y) || math.IsInf(y, 0) {
			if len(cur) > 0 {
				segs, cur = append(segs, cur), nil
			}
			continue
		}
		cur = append(cur, svgchart.XY{X: secondMid(&rows[i]), Y: y})
	}
	if len(cur) > 0 {
		segs = append(segs, cur)
	}
	return segs
}

func answered(r *engine.Row) bool { return r.OK+r.Limited+r.Failed > 0 }

func throughputChart(s *engine.Snapshot) svgchart.Chart {
	ch := svgchart.Chart{ID: "chart_rps", Title: "Throughput: achieved against the target", YLabel: "req/s"}
	ch.Series = append(ch.Series, svgchart.Series{Name: "achieved rps", Colour: colourAchieved,
		Segments: rowSeries(s.Timeline, func(r *engine.Row) float64 { return r.RPS }, nil)})
	if s.Mode == engine.ModeClosed {
		return ch // no rate plan to draw
	}
	// The target holds through each second: a step from its start to the next second's.
	var target svgchart.XYs
	for _, r := range s.Timeline {
		target = append(target, svgchart.XY{X: float64(r.T), Y: r.TargetRate})
	}
	last := s.Timeline[len(s.Timeline)-1]
	target = append(target, svgchart.XY{X: float64(last.T + 1), Y: last.TargetRate})
	ch.Series = append(ch.Series, svgchart.Series{Name: "target rate", Kind: svgchart.Step, Colour: colourTarget,
		Dashed: true, Segments: []svgchart.XYs{target}})
	return ch
}

func latencyChart(s *engine.Snapshot) svgchart.Chart {
	ch := svgchart.Chart{ID: "chart_latency", Title: "Latency per second (from the intended send)", YLabel: "ms"}
	for i, p := range []struct {
		name string
		v    func(*engine.Row) float64
	}{
		{"p50", func(r *engine.Row) float64 { return r.Latency.P50 }},
		{"p90", func(r *engine.Row) float64 { return r.Latency.P90 }},
		{"p99", func(r *engine.Row) float64 { return r.Latency.P99 }},
		{"max", func(r *engine.Row) float64 { return r.Latency.Max }},
	} {
		ch.Series = append(ch.Series, svgchart.Series{Name: p.name, Colour: latencyColours[i],
			Segments: rowSeries(s.Timeline, p.v, answered)})
	}
	return ch
}

// statusChart stacks each second's answers by HTTP status, with the requests that got no
// status (transport errors) on top, so the top edge is the second's completed count. Layers
// are drawn top first, each area reaching down to zero, so each shows as its own band.
func statusChart(s *engine.Snapshot) svgchart.Chart {
	ch := svgchart.Chart{ID: "chart_status", Title: "Answers per second by status", YLabel: "answers/s"}
	statuses, _, _ := timelineKeys(s)
	type layer struct {
		name   string
		colour color.Color
		count  func(*engine.Row) int64
	}
	var layers []layer
	for i, code := range statuses {
		layers = append(layers, layer{safetext.Line(code), statusColour(code, i), func(r *engine.Row) int64 { return r.Status[code] }})
	}
	if textfmt.SumCounts(s.Totals.Errors) > 0 || timelineHasErrors(s.Timeline) {
		layers = append(layers, layer{"transport error", colourError, func(r *engine.Row) int64 { return textfmt.SumCounts(r.Errors) }})
	}
	for top := len(layers) - 1; top >= 0; top-- {
		below := layers[:top+1]
		ch.Series = append(ch.Series, svgchart.Series{Name: layers[top].name, Kind: svgchart.Area, Colour: layers[top].colour,
			Segments: rowSeries(s.Timeline, func(r *engine.Row) float64 {
				var n int64
				for _, l := range below {
					n += l.count(r)
				}
				return float64(n)
			}, nil)})
	}
	return ch
}

// statusColour: greens for 2xx, orange for 429, reds for 5xx, others in turn.
func statusColour(code string, i int) color.Color {
	switch {
	case code == "429":
		return colourLimited
	case strings.HasPrefix(code, "2"):
		return color.RGBA{0x2c, uint8(0xa0 - 0x18*(i%4)), 0x2c, 0xff}
	case strings.HasPrefix(code, "5"):
		return color.RGBA{uint8(0xe0 - 0x18*(i%4)), 0x50, 0x50, 0xff}
	}
	others := [...]color.Color{color.RGBA{0xbc, 0xbd, 0x22, 0xff}, color.RGBA{0x17, 0xbe, 0xcf, 0xff}, color.RGBA{0x94, 0x67, 0xbd, 0xff}}
	return others[i%len(others)]
}

func timelineHasErrors(rows []engine.Row) bool {
	for i := range rows {
		if textfmt.SumCounts(rows[i].Errors) > 0 {
			return true
		}
	}
	return false
}

// limitedChart is the share of each second's answers that were rate-limited (429 and the
// profile's limit codes): during a limit sweep, where it leaves zero is the node's limit.
func limitedChart(s *engine.Snapshot) svgchart.Chart {
	ch := svgchart.Chart{ID: "chart_limited", Title: "Rate-limited share of answers (429 and limit codes)", YLabel: "%", YMax: 100}
	ch.Series = append(ch.Series, svgchart.Series{Name: "limited %", Kind: svgchart.Area, Colour: colourLimited,
		Segments: rowSeries(s.Timeline, func(r *engine.Row) float64 {
			return 100 * float64(r.Limited) / float64(r.OK+r.Limited+r.Failed)
		}, answered)})
	return ch
}

// probeCharts show a find-limit search by its probes: the goodput each offered rate got, and
// the SLO's latency percentile against its bound, with the answer marked.
func probeCharts(r *engine.SearchResult) []svgchart.Chart {
	if r == nil || len(r.Probes) == 0 {
		return nil
	}
	var pass, fail, other, lat svgchart.XYs
	top := 0.0
	for _, p := range r.Probes {
		pt := svgchart.XY{X: p.Rate, Y: p.Goodput}
		switch {
		case p.Superseded || p.Verdict == "stopped":
			other = append(other, pt)
		case p.Verdict == "pass":
			pass = append(pass, pt)
		default:
			fail = append(fail, pt)
		}
		lat = append(lat, svgchart.XY{X: p.Rate, Y: p.LatencyMs})
		top = math.Max(top, p.Rate)
	}
	top *= 1.05 // the highest probe's dot whole, not cut by the chart's edge
	marks := answerMarks(r.Answer)
	goodput := svgchart.Chart{ID: "chart_probes", Title: "Probes: goodput against the offered rate",
		XLabel: "offered rate (req/s)", YLabel: "ok/s", Marks: marks, XFromZero: true, XMax: top}
	goodput.Series = append(goodput.Series,
		svgchart.Series{Name: "all answered ok", Colour: colourTarget, Dashed: true, Segments: []svgchart.XYs{{{X: 0, Y: 0}, {X: top, Y: top}}}})
	for _, g := range []struct {
		name   string
		colour color.Color
		pts    svgchart.XYs
	}{{"probe passed", colourOK, pass}, {"probe failed", colourFailed, fail}, {"superseded or cut", colourSkipped, other}} {
		if len(g.pts) > 0 {
			goodput.Series = append(goodput.Series, svgchart.Series{Name: g.name, Kind: svgchart.Points, Colour: g.colour, Segments: []svgchart.XYs{g.pts}})
		}
	}
	key := runtext.PercentileKey(r.SLO.Percentile)
	latency := svgchart.Chart{ID: "chart_probe_latency", Title: "Probes: " + key + " latency against the offered rate",
		XLabel: "offered rate (req/s)", YLabel: "ms", Marks: marks, XFromZero: true, XMax: top}
	if r.SLO.LatencyMs > 0 {
		latency.Series = append(latency.Series, svgchart.Series{Name: "SLO " + key + " ≤ " + textfmt.Ms(r.SLO.LatencyMs) + " ms",
			Colour: colourFailed, Dashed: true, Segments: []svgchart.XYs{{{X: 0, Y: r.SLO.LatencyMs}, {X: top, Y: r.SLO.LatencyMs}}}})
	}
	latency.Series = append(latency.Series, svgchart.Series{Name: key + " per probe", Kind: svgchart.Points, Colour: colourAchieved, Segments: []svgchart.XYs{lat}})
	return []svgchart.Chart{goodput, latency}
}

// answerMarks are the search's answer on a rate axis: the limit and the first rate that failed.
func answerMarks(a engine.SearchAnswer) []svgchart.Mark {
	var m []svgchart.Mark
	if a.Found {
		m = append(m, svgchart.Mark{X: a.Rate, Label: "limit " + textfmt.PerSec(a.Rate), Colour: colourOK})
	}
	if a.FirstBad > 0 {
		m = append(m, svgchart.Mark{X: a.FirstBad, Label: fmt.Sprintf("first bad %s", textfmt.PerSec(a.FirstBad)), Colour: colourFailed, Row: len(m)})
	}
	return m
}

// inlineSVG turns gonum's SVG document into an element for an HTML page: without the XML
// prologue and comment, labelled for screen readers. gonum escapes every text it writes, so
// the markup is safe to trust as HTML.
func inlineSVG(doc, title string) (template.HTML, error) {
	i := strings.Index(doc, "<svg")
	if i < 0 {
		return "", errors.New("chart: the renderer wrote no <svg> element")
	}
	el := doc[i:]
	el = strings.Replace(el, "<svg ", `<svg role="img" aria-label="`+template.HTMLEscapeString(title)+`" `, 1)
	return template.HTML(el), nil //nolint:gosec // gonum/plot's SVG: every text in it is escaped by vgsvg
}
