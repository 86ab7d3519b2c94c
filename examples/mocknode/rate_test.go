package mocknode

import "testing"

// TestParseRate: the forms nginx and rpcstress users write, and what is refused.
func TestParseRate(t *testing.T) {
	tests := []struct {
		in   string
		want Rate
		bad  bool
	}{
		{in: "1000/s", want: 1000},      // per second
		{in: "240/m", want: 4},          // per minute
		{in: "240r/m", want: 4},         // nginx's spelling
		{in: "3600/h", want: 1},         // per hour
		{in: " 250 ", want: 250},        // a bare number is per second
		{in: "0", want: 0},              // zero: no limit
		{in: "10/d", bad: true},         // unknown unit
		{in: "fast", bad: true},         // not a number
		{in: "-5/s", bad: true},         // negative
		{in: "NaN", bad: true},          // not a finite number
		{in: "20000000/s", bad: true},   // beyond maxRate
		{in: "1e400", bad: true},        // infinite
		{in: "", bad: true},             // empty
		{in: "0.5/s", want: 0.5},        // fractions
		{in: "15360/m", want: 256},      // seed 002's top rate
		{in: "1/h", want: 1.0 / 3600.0}, // slow
	}
	for _, tc := range tests {
		got, err := parseRate(tc.in)
		if tc.bad != (err != nil) || (!tc.bad && got != tc.want) {
			t.Errorf("parseRate(%q) = %v, %v; want %v (bad %v)", tc.in, got, err, tc.want, tc.bad)
		}
	}
}

// TestRateString: whole per-second rates print per second, whole per-minute ones per minute,
// and every printed rate reads back the same.
func TestRateString(t *testing.T) {
	for _, tc := range []struct {
		r    Rate
		want string
	}{{1000, "1000/s"}, {4, "4/s"}, {250.0 / 60, "250/m"}, {0.5, "30/m"}, {1.0 / 3, "20/m"}} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%v.String() = %q, want %q", float64(tc.r), got, tc.want)
		}
		back, err := parseRate(tc.r.String())
		if err != nil || back != tc.r {
			t.Errorf("%q reads back as %v, %v", tc.r.String(), back, err)
		}
	}
}
