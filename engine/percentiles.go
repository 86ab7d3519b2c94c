package engine

import (
	"math"
	"slices"
	"sort"
)

// PercentileFigure is one figure of a Percentiles: its key, as the snapshot's JSON, profiles,
// flags and [thresholds] write it, and the quantile it is (min and max are the 0th and the
// 100th; the mean is none: NaN, which equals nothing).
type PercentileFigure struct {
	Key      string
	Quantile float64
}

// percentileFigures is the one table of a Percentiles' figures, in the order people list them;
// every mapping between a key, a quantile and a field reads it (the fields through figures).
var percentileFigures = [...]PercentileFigure{
	{"p50", 50}, {"p75", 75}, {"p90", 90}, {"p95", 95}, {"p99", 99}, {"p999", 99.9},
	{"min", 0}, {"max", 100}, {"mean", math.NaN()},
}

// figures are where p keeps each figure of percentileFigures, in its order. (Pointers from a
// method, not a function per row of the table: p would escape to the heap through a call the
// compiler cannot see, an allocation per Percentiles on the aggregator's hot path.)
func (p *Percentiles) figures() [len(percentileFigures)]*float64 {
	return [...]*float64{&p.P50, &p.P75, &p.P90, &p.P95, &p.P99, &p.P999, &p.Min, &p.Max, &p.Mean}
}

// PercentileFigures are the figures a Percentiles holds: p50, p75, p90, p95, p99, p999, min,
// max, mean.
func PercentileFigures() []PercentileFigure { return slices.Clone(percentileFigures[:]) }

// figureWhere is the index in percentileFigures of the figure that matches; false for none.
func figureWhere(match func(PercentileFigure) bool) (int, bool) {
	i := slices.IndexFunc(percentileFigures[:], match)
	return i, i >= 0
}

// PercentileKey is the key of quantile q (99 → "p99", 99.9 → "p999", 0 → "min", 100 → "max");
// false when no figure is that quantile.
func PercentileKey(q float64) (string, bool) {
	i, ok := figureWhere(func(f PercentileFigure) bool { return f.Quantile == q })
	if !ok {
		return "", false
	}
	return percentileFigures[i].Key, true
}

// PercentileQuantile is the quantile a key names ("p99" → 99, "min" → 0); false for the mean
// and for a key that names no figure.
func PercentileQuantile(key string) (float64, bool) {
	i, ok := figureWhere(func(f PercentileFigure) bool { return f.Key == key && !math.IsNaN(f.Quantile) })
	if !ok {
		return 0, false
	}
	return percentileFigures[i].Quantile, true
}

// Get is the figure a key names ("p99", "min", "mean"); false for a key that names none.
func (p Percentiles) Get(key string) (float64, bool) {
	i, ok := figureWhere(func(f PercentileFigure) bool { return f.Key == key })
	if !ok {
		return 0, false
	}
	return *p.figures()[i], true
}

// At is the figure of quantile q (99 → P99, 0 → Min); false when no figure is that quantile.
func (p Percentiles) At(q float64) (float64, bool) {
	if key, ok := PercentileKey(q); ok {
		return p.Get(key)
	}
	return 0, false
}

// quantileQuery is what one pass over a histogram asks for to fill a Percentiles: the quantiles
// of its figures, ascending (hdrhistogram-go answers ascending targets in one walk; others it
// sorts first, which allocates), and the index in figures each answer goes to.
type quantileQuery struct {
	quantiles []float64
	figures   []int
}

func newQuantileQuery() quantileQuery {
	var q quantileQuery
	for i, f := range percentileFigures {
		if !math.IsNaN(f.Quantile) {
			q.figures = append(q.figures, i)
		}
	}
	sort.Slice(q.figures, func(a, b int) bool {
		return percentileFigures[q.figures[a]].Quantile < percentileFigures[q.figures[b]].Quantile
	})
	for _, i := range q.figures {
		q.quantiles = append(q.quantiles, percentileFigures[i].Quantile)
	}
	return q
}
