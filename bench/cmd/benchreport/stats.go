package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Spread is the median of a few repetitions with their range.
type Spread struct {
	Median, Min, Max float64
	N                int
}

func spread(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Spread{Median: m, Min: s[0], Max: s[len(s)-1], N: len(s)}
}

// of collects one number from each run, skipping runs where ok says it has none.
func of(runs []*Run, f func(*Run) (float64, bool)) Spread {
	var xs []float64
	for _, r := range runs {
		if v, ok := f(r); ok {
			xs = append(xs, v)
		}
	}
	return spread(xs)
}

// cell prints a spread as "median [min–max]" with the given number formatter.
func (s Spread) cell(f func(float64) string) string {
	if s.N == 0 {
		return "–"
	}
	if s.N == 1 || s.Min == s.Max {
		return f(s.Median)
	}
	return fmt.Sprintf("%s [%s–%s]", f(s.Median), f(s.Min), f(s.Max))
}

// fInt prints a count with thousands separators: 1,234,567.
func fInt(v float64) string {
	neg := v < 0
	s := fmt.Sprintf("%d", int64(math.Round(math.Abs(v))))
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "−" + b.String()
	}
	return b.String()
}

// fSig prints v with three significant digits, at most three decimals (latencies, CPU seconds).
func fSig(v float64) string {
	a := math.Abs(v)
	var s string
	switch {
	case a >= 100:
		s = fmt.Sprintf("%.0f", v)
	case a >= 10:
		s = fmt.Sprintf("%.1f", v)
	case a >= 1:
		s = fmt.Sprintf("%.2f", v)
	default:
		s = fmt.Sprintf("%.3f", v)
	}
	return strings.Replace(s, "-", "−", 1)
}

// fPct prints a percentage with two decimals.
func fPct(v float64) string { return strings.Replace(fmt.Sprintf("%.2f %%", v), "-", "−", 1) }

// fMB prints KiB as MB with one decimal.
func fMB(kb float64) string { return fmt.Sprintf("%.1f", kb/1024) }

// fNum prints a setting as short as it reads exactly: 10, 2.5.
func fNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
