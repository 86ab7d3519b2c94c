package engine

import (
	"math"
	"strings"
	"testing"
)

// FuzzParseRate: ParseRate never panics; whatever it accepts is a finite rate in [0, MaxRate];
// whatever it refuses comes with a message that quotes the input; and Rate.String, which
// reports, snapshots and validate print, reads back through ParseRate to the same rate within
// 1e-9 relative. The committed corpus (testdata/fuzz/FuzzParseRate) holds the seeds below plus
// the inputs that once broke the round trip.
func FuzzParseRate(f *testing.F) {
	for _, s := range []string{
		"500/s", "240/m", "240r/m", "15360/m", "3600/h", "1000", "0", "0.5", " 7 / min ", "2/second",
		"100/h", "1/h", "250/m", "123.456/s", "1e7/s", "6e8/m", "1e-9/s",
		"", "-1/s", "NaN", "inf/s", "300/x", "/s", "5/", "1e400", "0x10/s", "1_000/s", "fast",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRate(s)
		if err != nil {
			if r != 0 {
				t.Errorf("ParseRate(%q) = %v with error %v: an error must come with 0", s, r, err)
			}
			if msg := err.Error(); msg == "" || (strings.TrimSpace(s) != "" && !strings.Contains(msg, "rate")) {
				t.Errorf("ParseRate(%q): error %q does not say what is wrong", s, msg)
			}
			return
		}
		v := float64(r)
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || r > MaxRate {
			t.Fatalf("ParseRate(%q) = %v: not a finite rate in [0, %v]", s, v, float64(MaxRate))
		}
		text := r.String()
		back, err := ParseRate(text)
		if err != nil {
			t.Fatalf("ParseRate(%q) = %v, whose String() %q does not parse: %v", s, v, text, err)
		}
		if d := math.Abs(float64(back) - v); d > 1e-9*math.Max(math.Abs(v), math.Abs(float64(back))) {
			t.Fatalf("ParseRate(%q) = %v/s, String() %q reads back as %v/s (%.3g relative)", s, v, text, float64(back), d/v)
		}
	})
}
