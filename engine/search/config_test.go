package search

import (
	"slices"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
)

// TestSLOPercentiles: an SLO bounds one of the percentiles a summary keeps, by the key profiles
// and flags write; the fastest and the slowest answer are none, and an SLO without a known
// percentile is judged at p99.
func TestSLOPercentiles(t *testing.T) {
	ps := engine.Percentiles{Min: 1, P50: 2, P75: 3, P90: 4, P95: 5, P99: 6, P999: 7, Max: 8, Mean: 9}
	tests := []struct {
		p     float64
		name  string
		known bool
		at    float64 // latencyAt
	}{
		{50, "p50", true, 2},        // the median
		{95, "p95", true, 5},        // a common SLO
		{99.9, "p999", true, 7},     // the key drops the point
		{0, "p0", false, 6},         // min is no percentile: p99 is judged
		{100, "p100", false, 6},     // nor is max
		{97, "p97", false, 6},       // one the summary does not keep
		{99.99, "p99.99", false, 6}, // written as given
	}
	for _, tt := range tests {
		name, known := PercentileName(tt.p)
		if name != tt.name || known != tt.known {
			t.Errorf("PercentileName(%v) = %q, %v; want %q, %v", tt.p, name, known, tt.name, tt.known)
		}
		if p, ok := PercentileOf(tt.name); ok != tt.known || (ok && p != tt.p) {
			t.Errorf("PercentileOf(%q) = %v, %v", tt.name, p, ok)
		}
		if v := latencyAt(ps, tt.p); v != tt.at {
			t.Errorf("latencyAt(%v) = %v, want %v", tt.p, v, tt.at)
		}
	}
	if got, want := PercentileNames(), []string{"p50", "p75", "p90", "p95", "p99", "p999"}; !slices.Equal(got, want) {
		t.Errorf("PercentileNames() = %v, want %v", got, want)
	}
	for _, key := range []string{"min", "max", "mean"} {
		if _, ok := PercentileOf(key); ok {
			t.Errorf("%s is read as an SLO percentile", key)
		}
	}
}
