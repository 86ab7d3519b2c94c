package report

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// svgChart is one chart of the HTML report as data: series over an x axis, optional stage
// bands behind them. gonum/plot draws it as SVG that the page carries inline, so the chart
// shows with no network and no script, and prints as sharply as the text.
type svgChart struct {
	ID, Title      string
	XLabel, YLabel string
	// YMax fixes the top of the y axis (100 for a share); 0 takes it from the data, rounded up
	// to a round number with room above the peak for the band labels.
	YMax float64
	// XMax, when above the data's, stretches the x axis (the last stage's band ends there).
	XMax float64
	// XFromZero starts the x axis at 0 (a rate axis), not at the lowest point.
	XFromZero bool
	Bands     []chartBand
	Series    []chartSeries // drawn in order: areas first, then lines and points over them
	// Marks are vertical lines at an x value with a label (find-limit's answer).
	Marks []chartMark
}

// chartBand is a stretch of the x axis shaded behind the data, labelled at its top: a stage.
type chartBand struct {
	From, To float64
	Label    string
}

// chartMark is a labelled vertical line. Row puts its label that many lines down, so the
// labels of two close marks do not overprint.
type chartMark struct {
	X      float64
	Label  string
	Colour color.Color
	Row    int
}

// seriesKind says how a series is drawn.
type seriesKind int

const (
	seriesLine   seriesKind = iota // a line through the points
	seriesStep                     // a line held flat until the next point (a planned rate)
	seriesArea                     // a line with the area below it filled (stack areas top first)
	seriesPoints                   // a dot per point, no line
)

// chartSeries is one named series. Segments are runs of points without gaps: a second with
// nothing to show (no answers, so no latency) breaks the line instead of reading as zero.
type chartSeries struct {
	Name     string
	Kind     seriesKind
	Colour   color.Color
	Dashed   bool
	Segments []plotter.XYs
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

// render draws the chart as an SVG element for the page.
func (ch *svgChart) render() (svg template.HTML, err error) {
	// The numbers come from a file anyone can edit: whatever the plotting library makes of
	// them, a report fails with an error, never a crash.
	defer func() {
		if r := recover(); r != nil {
			svg, err = "", fmt.Errorf("chart %s could not be drawn: %v", ch.ID, r)
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
	return inlineSVG(b.String(), ch.Title)
}

// plot builds the gonum plot: axes, bands, series and marks.
func (ch *svgChart) plot() (*plot.Plot, error) {
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
func (ch *svgChart) ranges() (xmin, xmax, ymax float64) {
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

// plotter makes one segment of the series into a gonum plotter.
func (s *chartSeries) plotter(xy plotter.XYs) (plot.Plotter, error) {
	if s.Kind == seriesPoints {
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = pointGlyph(s.Colour)
		return sc, nil
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	l.LineStyle = s.lineStyle()
	switch s.Kind {
	case seriesStep:
		l.StepStyle = plotter.PostStep
	case seriesArea:
		l.FillColor = s.Colour
		l.LineStyle.Color = darker(s.Colour)
		l.LineStyle.Width = 0.5
	}
	return l, nil
}

func pointGlyph(c color.Color) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: 3.5, Shape: draw.CircleGlyph{}}
}

func (s *chartSeries) lineStyle() draw.LineStyle {
	st := draw.LineStyle{Color: s.Colour, Width: 1.5}
	if s.Dashed {
		st.Dashes = []vg.Length{5, 3}
	}
	return st
}

// legend lists the series, one entry each (a series of several segments too).
func (ch *svgChart) legend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font = chartFont
	l.TextStyle.Font.Size = chartFontSize
	l.Top, l.Left = true, true
	l.ThumbnailWidth = 18
	l.Padding = 3
	for i := range ch.Series {
		s := &ch.Series[i]
		if s.Name == "" {
			continue
		}
		l.Add(s.Name, legendIcon{s})
	}
	return l
}

// legendIcon is a series' thumbnail in the legend: a filled box for an area, a dot for points,
// a line otherwise.
type legendIcon struct{ s *chartSeries }

func (i legendIcon) Thumbnail(c *draw.Canvas) {
	switch i.s.Kind {
	case seriesPoints:
		c.DrawGlyph(pointGlyph(i.s.Colour), c.Center())
		return
	case seriesArea:
		c.FillPolygon(i.s.Colour, []vg.Point{c.Min, {X: c.Min.X, Y: c.Max.Y}, c.Max, {X: c.Max.X, Y: c.Min.Y}})
		return
	}
	y := c.Center().Y
	c.StrokeLine2(i.s.lineStyle(), c.Min.X, y, c.Max.X, y)
}

// bandPlotter shades the stages behind the data, two greys in turn, each labelled at its top
// when the label fits.
type bandPlotter struct {
	bands []chartBand
	font  font.Font
}

var bandShades = [2]color.Color{color.NRGBA{120, 120, 120, 30}, color.NRGBA{120, 120, 120, 9}}

func (b bandPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	sty := plt.Title.TextStyle
	sty.Font, sty.Color = b.font, color.Gray{0x55}
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
	for i, band := range b.bands {
		x0, x1 := trX(band.From), trX(band.To)
		c.FillPolygon(bandShades[i%2], []vg.Point{{X: x0, Y: c.Min.Y}, {X: x0, Y: c.Max.Y}, {X: x1, Y: c.Max.Y}, {X: x1, Y: c.Min.Y}})
		if w := sty.Width(band.Label); band.Label != "" && w+4 < x1-x0 {
			c.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: c.Max.Y - 2}, band.Label)
		}
	}
}

// markPlotter draws a dashed vertical line with its label beside it, near the top.
type markPlotter struct {
	mark chartMark
	font font.Font
}

func (m markPlotter) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	x := trX(m.mark.X)
	c.StrokeLine2(draw.LineStyle{Color: m.mark.Colour, Width: 1.2, Dashes: []vg.Length{4, 3}}, x, c.Min.Y, x, c.Max.Y)
	sty := plt.Title.TextStyle
	sty.Font, sty.Color = m.font, m.mark.Colour
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	c.FillText(sty, vg.Point{X: x + 3, Y: c.Max.Y - 14 - vg.Length(12*m.mark.Row)}, m.mark.Label)
}

// plainTicks are gonum's default ticks labelled as numbers are written elsewhere in the
// report: 25, not 25.00.
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 10, 64) // 10 digits: no float noise
		}
	}
	return ticks
}

// darker is a colour's outline: the same hue at two thirds of the brightness.
func darker(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.RGBA{R: uint8(r >> 8 * 2 / 3), G: uint8(g >> 8 * 2 / 3), B: uint8(b >> 8 * 2 / 3), A: 255}
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
