package report

import (
	"image/color"
	"math"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/report/svgchart"
)

// procColours are the watched processes' lines, in turn; rpcstress's own is grey and dashed.
var procColours = [...]color.Color{
	color.RGBA{0x8c, 0x56, 0x4b, 0xff}, color.RGBA{0x17, 0xbe, 0xcf, 0xff},
	color.RGBA{0xbc, 0xbd, 0x22, 0xff}, color.RGBA{0xe3, 0x77, 0xc2, 0xff},
}

// watchCharts are the node's resources over time, for a watched run: each process's CPU (as
// top shows it) and resident memory, rpcstress's own dashed beside them. None when nothing was
// watched.
func watchCharts(s *engine.Snapshot) []svgchart.Chart {
	if s.Watch == nil {
		return nil
	}
	cpu := svgchart.Chart{ID: "chart_node_cpu", Title: "Node CPU per second (100% is one core)", YLabel: "%"}
	mem := svgchart.Chart{ID: "chart_node_memory", Title: "Node resident memory", YLabel: "MB"}
	add := func(name string, colour color.Color, dashed bool, pick func(*engine.WatchRow) *engine.ProcUse) {
		// A second without a reading of the process breaks its line (NaN), as a second without
		// answers breaks the latency's: 0 would read as idle.
		value := func(v func(*engine.ProcUse) float64) func(*engine.Row) float64 {
			return func(r *engine.Row) float64 {
				if r.Watch == nil || pick(r.Watch) == nil {
					return math.NaN()
				}
				return v(pick(r.Watch))
			}
		}
		cpu.Series = append(cpu.Series, svgchart.Series{Name: name, Colour: colour, Dashed: dashed,
			Segments: rowSeries(s.Timeline, value(func(p *engine.ProcUse) float64 { return p.CPU }), nil)})
		mem.Series = append(mem.Series, svgchart.Series{Name: name, Colour: colour, Dashed: dashed,
			Segments: rowSeries(s.Timeline, value(func(p *engine.ProcUse) float64 { return float64(p.RSS) / 1e6 }), nil)})
	}
	for i := range s.Watch.Procs {
		add(safetext.Line(s.Watch.Procs[i].Label), procColours[i%len(procColours)], false, func(w *engine.WatchRow) *engine.ProcUse {
			if i < len(w.Procs) {
				return w.Procs[i]
			}
			return nil
		})
	}
	add(engine.SelfLabel, colourTarget, true, func(w *engine.WatchRow) *engine.ProcUse { return w.Self })
	return []svgchart.Chart{cpu, mem}
}
