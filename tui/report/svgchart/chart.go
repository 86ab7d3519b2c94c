// Package svgchart draws the HTML report's charts as SVG, with gonum/plot: series over an x
// axis, shaded bands behind them and marked values, in a page's width. It knows nothing of runs;
// package report says what to chart. Like vegeta's lib/plot, the output format with the heavy
// dependency keeps to its own package.
package svgchart

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// XY is a point of a series; XYs a run of them.
type (
	XY  = plotter.XY
	XYs = plotter.XYs
)

// Chart is one chart of the HTML report as data: series over an x axis, optional stage
// bands behind them. gonum/plot draws it as SVG that the page carries inline, so the chart
// shows with no network and no script, and prints as sharply as the text.
type Chart struct {
	ID, Title      string
	XLabel, YLabel string
	// YMax fixes the top of the y axis (100 for a share); 0 takes it from the data, rounded up
	// to a round number with room above the peak for the band labels.
	YMax float64
	// XMax, when above the data's, stretches the x axis (the last stage's band ends there).
	XMax float64
	// XFromZero starts the x axis at 0 (a rate axis), not at the lowest point.
	XFromZero bool
	Bands     []Band
	Series    []Series // drawn in order: areas first, then lines and points over them
	// Marks are vertical lines at an x value with a label (find-limit's answer).
	Marks []Mark
}

// Band is a stretch of the x axis shaded behind the data, labelled at its top: a stage.
type Band struct {
	From, To float64
	Label    string
}

// Mark is a labelled vertical line. Row puts its label that many lines down, so the
// labels of two close marks do not overprint.
type Mark struct {
	X      float64
	Label  string
	Colour color.Color
	Row    int
}

// Kind says how a series is drawn.
type Kind int

// The kinds of series.
const (
	Line   Kind = iota // a line through the points
	Step               // a line held flat until the next point (a planned rate)
	Area               // a line with the area below it filled (stack areas top first)
	Points             // a dot per point, no line
)

// Series is one named series. Segments are runs of points without gaps: a second with
// nothing to show (no answers, so no latency) breaks the line instead of reading as zero.
type Series struct {
	Name     string
	Kind     Kind
	Colour   color.Color
	Dashed   bool
	Segments []XYs
}

// Chart sizes in points: the SVG scales to the page's width, and the text scales with it.
const (
	chartWidth    = 960
	chartHeight   = 300
	chartFontSize = 10
	legendWidth   = 150
)

// chartFont is the charts' typeface. The page asks for Arial and friends as well, since
// Liberation Sans (whose metrics gonum/plot lays the text out with) has Arial's metrics.
var chartFont = font.Font{Typeface: "Liberation", Variant: "Sans"}

// SVG draws the chart as an SVG document (gonum's, with its XML prologue).
func (ch *Chart) SVG() (doc string, err error) {
	// The numbers come from a file anyone can edit: whatever the plotting library makes of
	// them, a report fails with an error, never a crash.
	defer func() {
		if r := recover(); r != nil {
			doc, err = "", fmt.Errorf("chart %s could not be drawn: %v", ch.ID, r)
		}
	}()
	p, err := ch.plot()
	if err != nil {
		return "", err
	}
	legend := ch.legend()
	c := vgsvg.New(chartWidth, chartHeight)
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	// The legend stands beside the plot, never over the data, aligned with its top.
	lc := draw.Crop(dc, chartWidth-legendWidth+10, 0, 0, -p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y-p.Title.Padding)
	legend.Draw(lc)
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", fmt.Errorf("chart %s: %w", ch.ID, err)
	}
	return b.String(), nil
}

// plot builds the gonum plot: axes, bands, series and marks.
func (ch *Chart) plot() (*plot.Plot, error) {
	p := plot.New()
	sans := func(size vg.Length) font.Font { f := chartFont; f.Size = size; return f }
	p.Title.Text, p.Title.TextStyle.Font, p.Title.Padding = ch.Title, sans(chartFontSize+2), 6
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(chartFontSize)
		a.Tick.Label.Font = sans(chartFontSize - 1)
		a.Tick.Marker = plainTicks{}
	}
	p.X.Label.Text, p.Y.Label.Text = ch.XLabel, ch.YLabel
	p.Add(plotter.NewGrid())
	xmin, xmax, ymax := ch.ranges()
	p.X.Min, p.X.Max = xmin, xmax
	p.Y.Min, p.Y.Max = 0, ymax
	if len(ch.Bands) > 0 {
		p.Add(bandPlotter{bands: ch.Bands, font: sans(chartFontSize - 1)})
	}
	for _, s := range ch.Series {
		for _, seg := range s.Segments {
			pl, err := s.plotter(seg)
			if err != nil {
				return nil, fmt.Errorf("chart %s, series %s: %w", ch.ID, s.Name, err)
			}
			p.Add(pl)
		}
	}
	for _, m := range ch.Marks {
		p.Add(markPlotter{mark: m, font: sans(chartFontSize - 1)})
	}
	// The ranges are the chart's own, not the plotters' (Add widens them to the data).
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, 0, ymax
	return p, nil
}

// ranges are the axes' extents: x over every point, band and mark; y from 0 to YMax or to a
// round number above the highest point.
func (ch *Chart) ranges() (xmin, xmax, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	peak := 0.0
	widen := func(x float64) { xmin, xmax = math.Min(xmin, x), math.Max(xmax, x) }
	for _, s := range ch.Series {
		for _, seg := range s.Segments {
			for _, pt := range seg {
				widen(pt.X)
				peak = math.Max(peak, pt.Y)
			}
		}
	}
	for _, b := range ch.Bands {
		widen(b.From)
		widen(b.To)
	}
	for _, m := range ch.Marks {
		widen(m.X)
	}
	if ch.XMax > xmax {
		xmax = ch.XMax
	}
	if ch.XFromZero && xmin > 0 {
		xmin = 0
	}
	if math.IsInf(xmin, 0) { // nothing to draw: an empty axis still reads
		xmin, xmax = 0, 1
	}
	if xmax <= xmin {
		xmax = xmin + 1
	}
	ymax = ch.YMax
	if ymax <= 0 {
		ymax = niceCeil(peak * 1.12)
	}
	return xmin, xmax, ymax
}

// niceCeil is the smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10ⁿ at or above v (1 for
// nothing): an axis top that reads as a round number, not far above the peak.
func niceCeil(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return 1
	}
	base := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*base >= v*(1-1e-12) {
			return m * base
		}
	}
	return 10 * base
}
