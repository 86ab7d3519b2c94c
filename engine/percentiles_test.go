package engine

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

// TestPercentileKeysReachTheirFields: every key of the table names its own field of
// Percentiles, the one the snapshot's JSON writes under that key, and together they name every
// field; Get reads what the key names.
func TestPercentileKeysReachTheirFields(t *testing.T) {
	var p Percentiles
	figures := PercentileFigures()
	for i, f := range p.figures() {
		*f = float64(i + 1)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var byJSON map[string]float64
	if err := json.Unmarshal(b, &byJSON); err != nil {
		t.Fatal(err)
	}
	if len(byJSON) != len(figures) {
		t.Errorf("the table has %d keys, Percentiles %d fields: %v", len(figures), len(byJSON), byJSON)
	}
	for i, f := range figures {
		key := f.Key
		if byJSON[key] != float64(i+1) {
			t.Errorf("key %q reaches the field written as %v, not its own", key, byJSON)
		}
		if v, ok := p.Get(key); !ok || v != float64(i+1) {
			t.Errorf("Get(%q) = %v, %v; want %v", key, v, ok, i+1)
		}
	}
	if _, ok := p.Get("p42"); ok {
		t.Error("Get found a figure for p42")
	}
}

// TestPercentileQuantiles: keys and quantiles map both ways, and At reads the figure of a
// quantile; the mean is no quantile.
func TestPercentileQuantiles(t *testing.T) {
	p := Percentiles{Min: 1, P50: 2, P75: 3, P90: 4, P95: 5, P99: 6, P999: 7, Max: 8, Mean: 9}
	tests := []struct {
		q    float64
		key  string // "" for none
		want float64
	}{
		{50, "p50", 2},      // the median
		{99, "p99", 6},      // the usual SLO
		{99.9, "p999", 7},   // the key drops the point
		{0, "min", 1},       // the 0th quantile is the fastest
		{100, "max", 8},     // the 100th the slowest
		{42, "", 0},         // a quantile a snapshot does not keep
		{math.NaN(), "", 0}, // the mean's "quantile" finds nothing
	}
	for _, tt := range tests {
		key, ok := PercentileKey(tt.q)
		if key != tt.key || ok != (tt.key != "") {
			t.Errorf("PercentileKey(%v) = %q, %v; want %q", tt.q, key, ok, tt.key)
		}
		if v, ok := p.At(tt.q); v != tt.want || ok != (tt.key != "") {
			t.Errorf("At(%v) = %v, %v; want %v", tt.q, v, ok, tt.want)
		}
		if tt.key == "" {
			continue
		}
		if q, ok := PercentileQuantile(tt.key); !ok || q != tt.q {
			t.Errorf("PercentileQuantile(%q) = %v, %v; want %v", tt.key, q, ok, tt.q)
		}
	}
	if q, ok := PercentileQuantile("mean"); ok {
		t.Errorf("the mean is quantile %v", q)
	}
}

// TestQuantileQuery: one histogram pass asks for every figure but the mean, in ascending order
// (hdrhistogram-go sorts, and allocates, otherwise), and fills each from its own quantile.
func TestQuantileQuery(t *testing.T) {
	q := newQuantileQuery()
	meanAt, _ := figureWhere(func(f PercentileFigure) bool { return f.Key == "mean" })
	if !slices.IsSorted(q.quantiles) || len(q.figures) != len(percentileFigures)-1 || slices.Contains(q.figures, meanAt) {
		t.Errorf("query %v for figures %v: want every figure but the mean, ascending", q.quantiles, q.figures)
	}
	h := newLatencyHist(histSigFigs)
	for us := int64(1); us <= 1000; us++ {
		h.record(us * 1000)
	}
	got := h.percentiles()
	want := Percentiles{Min: 0.001, P50: 0.5, P75: 0.75, P90: 0.9, P95: 0.95, P99: 0.99, P999: 0.999, Max: 1}
	mean := got.Mean // 0.5005 ms, kept to three decimals
	got.Mean = 0
	if got != want || math.Abs(mean-0.5005) > 0.001 {
		t.Errorf("percentiles of 1…1000 µs: %+v (mean %v), want %+v (mean 0.5005)", got, mean, want)
	}
}
