package tui

import (
	"math"
	"reflect"
	"testing"
)

func TestSparkline(t *testing.T) {
	tests := []struct {
		name   string
		values []float64
		width  int
		height int
		top    float64
		want   []string
	}{
		// Eight steps per row, scaled to the top: a half is the fourth step.
		{"one row", []float64{0, 25, 50, 100}, 4, 1, 100, []string{" ▂▄█"}},
		// Scaled to the largest value when no top is given.
		{"own top", []float64{1, 2, 4, 8}, 4, 1, 0, []string{"▁▂▄█"}},
		// A trickle far below the top still shows the lowest step; zero stays blank.
		{"trickle", []float64{0.001, 0, 1000}, 3, 1, 0, []string{"▁ █"}},
		// Fewer values than columns: the chart fills in from the right, newest last.
		{"fills from the right", []float64{8, 8}, 4, 1, 8, []string{"  ██"}},
		// More values than columns: the newest are kept.
		{"keeps the newest", []float64{8, 0, 4, 8}, 3, 1, 8, []string{" ▄█"}},
		// Two rows: 16 steps; 3/4 fills the lower row and half the upper one.
		{"two rows", []float64{2, 6, 8}, 3, 2, 8, []string{" ▄█", "▄██"}},
		// Values above the top are cut at the top; NaN reads as nothing.
		{"clamped", []float64{16, math.NaN()}, 2, 1, 8, []string{"█ "}},
		{"no room", []float64{1}, 0, 1, 0, nil},
		{"all zero", []float64{0, 0}, 2, 1, 0, []string{"  "}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sparkline(tt.values, tt.width, tt.height, tt.top)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sparkline(%v, %d, %d, %v) = %q, want %q", tt.values, tt.width, tt.height, tt.top, got, tt.want)
			}
		})
	}
}

func TestHBar(t *testing.T) {
	tests := []struct {
		v, top float64
		width  int
		want   string
	}{
		{10, 10, 4, "████"},    // the top fills the width
		{5, 10, 4, "██"},       // half of it, half the cells
		{1, 10, 4, "▍"},        // 3.2 eighths of a cell round to three
		{0.001, 10, 4, "▏"},    // anything above zero is at least a sliver
		{0, 10, 4, ""},         // nothing is nothing
		{20, 10, 4, "████"},    // never past the width
		{5, 0, 4, ""},          // no scale, no bar
		{math.NaN(), 1, 4, ""}, // no data, no bar
	}
	for _, tt := range tests {
		if got := hbar(tt.v, tt.top, tt.width); got != tt.want {
			t.Errorf("hbar(%v, %v, %d) = %q, want %q", tt.v, tt.top, tt.width, got, tt.want)
		}
	}
}
