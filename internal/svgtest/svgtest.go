// Package svgtest reads the SVG charts of rpcstress's HTML report back into numbers, so tests
// can check that a chart draws a run's data and not merely that it exists. Only tests use it.
package svgtest

import (
	"html"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Point is a point of a drawn path, in the SVG's own units.
type Point struct{ X, Y float64 }

// Figure returns the markup of the element with this id, from its start tag to the end of
// the figure it is (the report puts each chart in a <figure id=…>).
func Figure(page, id string) (string, bool) {
	i := strings.Index(page, `id="`+id+`"`)
	if i < 0 {
		return "", false
	}
	j := strings.Index(page[i:], "</figure>")
	if j < 0 {
		return "", false
	}
	return page[i : i+j], true
}

// strokedPath matches a path drawn as a line (no fill): gonum writes d before style, and a
// browser's DOM keeps the attributes as written.
var strokedPath = regexp.MustCompile(`<path d="([^"]*)"[^>]*style="fill:none;`)

// Lines returns the points of every stroked, unfilled path in markup: each path's M and L
// commands in order (a path of curves or arcs is left out).
func Lines(markup string) [][]Point {
	var out [][]Point
	for _, m := range strokedPath.FindAllStringSubmatch(markup, -1) {
		if pts, ok := parsePath(m[1]); ok && len(pts) > 0 {
			out = append(out, pts)
		}
	}
	return out
}

func parsePath(d string) ([]Point, bool) {
	var pts []Point
	for _, cmd := range strings.FieldsFunc(d, func(r rune) bool { return r == 'M' || r == 'L' }) {
		xy := strings.Split(strings.TrimSpace(cmd), ",")
		if len(xy) != 2 {
			return nil, false
		}
		x, err1 := strconv.ParseFloat(xy[0], 64)
		y, err2 := strconv.ParseFloat(xy[1], 64)
		if err1 != nil || err2 != nil {
			return nil, false
		}
		pts = append(pts, Point{x, y})
	}
	return pts, true
}

var textElement = regexp.MustCompile(`(?s)<text[^>]*>(.*?)</text>`)

// Texts returns the text of every <text> element in markup, unescaped.
func Texts(markup string) []string {
	var out []string
	for _, m := range textElement.FindAllStringSubmatch(markup, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// Carries reports whether one of lines draws want: as many points, each the image of want's
// under one scale and shift per axis (what any linear chart axis is), to within half a
// thousandth of the drawing's extent. A line that matches could not have been drawn from other
// numbers, whatever the chart's size, margins or axis range.
func Carries(lines [][]Point, want []Point) bool {
	for _, l := range lines {
		if len(l) == len(want) && affine(l, want, func(p Point) float64 { return p.X }) &&
			affine(l, want, func(p Point) float64 { return p.Y }) {
			return true
		}
	}
	return false
}

// affine: got's coordinate is a + b·want's for every point, b ≠ 0 (or all equal when want's
// are all equal).
func affine(got, want []Point, c func(Point) float64) bool {
	lo, hi := 0, 0
	for i := range want {
		if c(want[i]) < c(want[lo]) {
			lo = i
		}
		if c(want[i]) > c(want[hi]) {
			hi = i
		}
	}
	span := c(want[hi]) - c(want[lo])
	if span == 0 {
		for i := range got {
			if math.Abs(c(got[i])-c(got[0])) > 0.05 {
				return false
			}
		}
		return true
	}
	b := (c(got[hi]) - c(got[lo])) / span
	if b == 0 {
		return false
	}
	a := c(got[lo]) - b*c(want[lo])
	tol := math.Max(0.05, 0.0005*math.Abs(b*span))
	for i := range got {
		if math.Abs(a+b*c(want[i])-c(got[i])) > tol {
			return false
		}
	}
	return true
}

// dotPath matches the circles gonum draws for scatter points: two half arcs from the
// circle's rightmost point.
var dotPath = regexp.MustCompile(`<path d="M([-0-9.e]+),([-0-9.e]+)A([0-9.e]+),[0-9.e]+ 0 1 1 `)

// Dots returns the centres of the circles drawn in markup, in the order drawn.
func Dots(markup string) []Point {
	var out []Point
	for _, m := range dotPath.FindAllStringSubmatch(markup, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		r, _ := strconv.ParseFloat(m[3], 64)
		out = append(out, Point{x - r, y})
	}
	return out
}

// CarriesDots reports whether some len(want) circles drawn one after another are want's
// points, under one scale and shift per axis (see Carries).
func CarriesDots(dots, want []Point) bool {
	for i := 0; i+len(want) <= len(dots); i++ {
		if Carries([][]Point{dots[i : i+len(want)]}, want) {
			return true
		}
	}
	return false
}
