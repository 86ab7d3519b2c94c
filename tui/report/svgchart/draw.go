package svgchart

import (
	"image/color"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// plotter makes one segment of the series into a gonum plotter.
func (s *Series) plotter(xy plotter.XYs) (plot.Plotter, error) {
	if s.Kind == Points {
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
	case Step:
		l.StepStyle = plotter.PostStep
	case Area:
		l.FillColor = s.Colour
		l.LineStyle.Color = darker(s.Colour)
		l.LineStyle.Width = 0.5
	}
	return l, nil
}

func pointGlyph(c color.Color) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: 3.5, Shape: draw.CircleGlyph{}}
}

func (s *Series) lineStyle() draw.LineStyle {
	st := draw.LineStyle{Color: s.Colour, Width: 1.5}
	if s.Dashed {
		st.Dashes = []vg.Length{5, 3}
	}
	return st
}

// legend lists the series, one entry each (a series of several segments too).
func (ch *Chart) legend() plot.Legend {
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
type legendIcon struct{ s *Series }

func (i legendIcon) Thumbnail(c *draw.Canvas) {
	switch i.s.Kind {
	case Points:
		c.DrawGlyph(pointGlyph(i.s.Colour), c.Center())
		return
	case Area:
		c.FillPolygon(i.s.Colour, []vg.Point{c.Min, {X: c.Min.X, Y: c.Max.Y}, c.Max, {X: c.Max.X, Y: c.Min.Y}})
		return
	}
	y := c.Center().Y
	c.StrokeLine2(i.s.lineStyle(), c.Min.X, y, c.Max.X, y)
}

// bandPlotter shades the stages behind the data, two greys in turn, each labelled at its top
// when the label fits.
type bandPlotter struct {
	bands []Band
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
	mark Mark
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
