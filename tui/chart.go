package tui

import (
	"math"
	"strings"
)

// sparkRunes are the eight heights of a column, in eighths of a row.
var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// barRunes are the eight widths of a bar's last cell, in eighths of a column.
var barRunes = []rune("▏▎▍▌▋▊▉█")

// sparkline draws values as columns width wide and height rows high, newest at the right, and
// returns the rows top first. Each row holds eight steps, so a chart h rows high has 8h levels.
// Values are scaled to top (or to the largest value when top ≤ 0). Zero is blank; anything
// above zero gets at least the lowest step, so a trickle of traffic never looks like none.
// Fewer values than columns leave the left side blank: the chart fills in as the run goes.
func sparkline(values []float64, width, height int, top float64) []string {
	if width <= 0 || height <= 0 {
		return nil
	}
	if len(values) > width {
		values = values[len(values)-width:]
	}
	if top <= 0 {
		for _, v := range values {
			top = max(top, v)
		}
	}
	levels := height * 8
	steps := make([]int, width)
	pad := width - len(values)
	for i, v := range values {
		if top <= 0 || v <= 0 || math.IsNaN(v) {
			continue
		}
		s := int(math.Round(min(v/top, 1) * float64(levels)))
		steps[pad+i] = max(s, 1)
	}
	rows := make([]string, height)
	var b strings.Builder
	for r := range height {
		b.Reset()
		base := (height - 1 - r) * 8 // steps below this row
		for _, s := range steps {
			switch fill := s - base; {
			case fill <= 0:
				b.WriteByte(' ')
			case fill >= 8:
				b.WriteRune(sparkRunes[7])
			default:
				b.WriteRune(sparkRunes[fill-1])
			}
		}
		rows[r] = b.String()
	}
	return rows
}

// hbar draws v as a horizontal bar of up to width cells, scaled so that top fills them all,
// with eighth-cell precision. Anything above zero shows at least a sliver.
func hbar(v, top float64, width int) string {
	if width <= 0 || top <= 0 || v <= 0 || math.IsNaN(v) {
		return ""
	}
	eighths := int(math.Round(min(v/top, 1) * float64(width*8)))
	eighths = max(eighths, 1)
	s := strings.Repeat(string(barRunes[7]), eighths/8)
	if rest := eighths % 8; rest > 0 {
		s += string(barRunes[rest-1])
	}
	return s
}
