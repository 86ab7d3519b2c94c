package report

import (
	"fmt"
	"image/color"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/report/svgchart"
)

// targetColours are the targets' lines, in turn: each target keeps its colour on every chart.
var targetColours = [...]color.Color{colourAchieved, color.RGBA{0xff, 0x7f, 0x0e, 0xff},
	color.RGBA{0x94, 0x67, 0xbd, 0xff}, color.RGBA{0x17, 0xbe, 0xcf, 0xff}}

// targetsCharts are the charts of a run with several targets over its timeline: each target's
// achieved rps against the one target rate, its p50 and p99 (dashed), its rate-limited share,
// then each target's answers by status (the single-target charts, one per target).
func targetsCharts(s *engine.Snapshot) []svgchart.Chart {
	views := targetViews(s)
	rps := throughputChart(views[0])
	rps.Series = rps.Series[1:] // the target rate, the same for every target
	lat := svgchart.Chart{ID: "chart_latency", Title: "Latency per second (from the intended send): p50, p99 dashed", YLabel: "ms"}
	lim := limitedChart(views[0])
	lim.Series = nil
	for i, v := range views {
		name, colour := targetLabel(s, i), targetColours[i%len(targetColours)]
		rps.Series = append(rps.Series, svgchart.Series{Name: name, Colour: colour,
			Segments: rowSeries(v.Timeline, func(r *engine.Row) float64 { return r.RPS }, nil)})
		lat.Series = append(lat.Series,
			svgchart.Series{Name: name + " p50", Colour: colour, Segments: rowSeries(v.Timeline, func(r *engine.Row) float64 { return r.Latency.P50 }, answered)},
			svgchart.Series{Name: name + " p99", Colour: colour, Dashed: true, Segments: rowSeries(v.Timeline, func(r *engine.Row) float64 { return r.Latency.P99 }, answered)})
		share := limitedChart(v).Series[0]
		share.Name, share.Kind, share.Colour = name, svgchart.Line, colour
		lim.Series = append(lim.Series, share)
	}
	charts := []svgchart.Chart{rps, lat, lim}
	for i, v := range views {
		st := statusChart(v)
		st.ID, st.Title = fmt.Sprintf("chart_status_%d", i+1), targetLabel(s, i)+": "+st.Title
		charts = append(charts, st)
	}
	return charts
}

// targetsEnd is where the charts of a run with several targets end: after the last second any
// target answered in.
func targetsEnd(s *engine.Snapshot) float64 {
	end := 0
	for i := range s.Targets {
		if tl := s.Targets[i].Timeline; len(tl) > 0 {
			end = max(end, tl[len(tl)-1].T+1)
		}
	}
	return float64(end)
}
