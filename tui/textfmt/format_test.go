package textfmt

import (
	"math"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestFormatMs(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},           // nothing measured reads as a plain zero
		{0.0004, "0.000"},  // below histogram resolution (1µs): three decimals at most
		{0.001, "0.001"},   // one microsecond is the smallest step shown
		{0.1234, "0.123"},  // sub-millisecond keeps three significant digits
		{0.9996, "1.00"},   // rounding into the next decade drops a decimal
		{1.234, "1.23"},    // single digits get two decimals
		{7, "7.00"},        // whole numbers keep their precision so a column stays even
		{9.996, "10.0"},    // carry from 9.99x to 10 keeps three digits
		{12.34, "12.3"},    // tens get one decimal
		{99.96, "100"},     // carry into hundreds: no decimal
		{123.4, "123"},     // hundreds are whole
		{30000.2, "30000"}, // a timeout stays whole, never exponent form
		{-1.234, "-1.23"},  // negative numbers keep their precision
		{math.NaN(), "-"},  // no data is a dash, not "NaN"
		{math.Inf(1), "-"}, // nor "+Inf"
	}
	for _, tt := range tests {
		if got := Ms(tt.in); got != tt.want {
			t.Errorf("Ms(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFormatBytes(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0 B"},           // nothing transferred
		{999, "999 B"},       // bytes are whole
		{999.5, "1.00 kB"},   // rounding up moves to the next unit, never "1000 B"
		{1000, "1.00 kB"},    // decimal units, as wrk and bombardier print
		{1234567, "1.23 MB"}, // three significant digits
		{999600, "1.00 MB"},  // "1000 kB" would read badly
		{45.6e9, "45.6 GB"},  // large transfers
		{28.28e6, "28.3 MB"}, // a bombardier-sized throughput
		{2e18, "2000 PB"},    // past the last unit the number grows
		{math.NaN(), "-"},    // no data
	}
	for _, tt := range tests {
		if got := Bytes(tt.in); got != tt.want {
			t.Errorf("Bytes(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFormatBytesRate(t *testing.T) {
	tests := []struct {
		n    int64
		secs float64
		want string
	}{
		{28_280_000, 1, "28.3 MB/s"}, // per second
		{742_090, 1, "742 kB/s"},     // kilobytes per second
		{1_000_000, 0, "-"},          // no time passed: no rate
		{0, 10, "0 B/s"},             // nothing transferred
	}
	for _, tt := range tests {
		if got := BytesRate(tt.n, tt.secs); got != tt.want {
			t.Errorf("BytesRate(%d, %v) = %q, want %q", tt.n, tt.secs, got, tt.want)
		}
	}
}

func TestFormatPct(t *testing.T) {
	tests := []struct {
		n, total int64
		want     string
	}{
		{0, 0, "-"},                    // no base, no share
		{0, 5, "0.0%"},                 // none of them
		{1, 3, "33.3%"},                // one decimal
		{3, 3, "100.0%"},               // all of them
		{1, 1_000_000, "<0.1%"},        // a single error stays visible
		{999_999, 1_000_000, ">99.9%"}, // and is not rounded away from the rest
	}
	for _, tt := range tests {
		if got := Pct(tt.n, tt.total); got != tt.want {
			t.Errorf("Pct(%d, %d) = %q, want %q", tt.n, tt.total, got, tt.want)
		}
	}
}

func TestFormatRPSAndSeconds(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{RPS(0), "0.0"},             // idle
		{RPS(499.84), "499.8"},      // one decimal
		{RPS(65325.94), "65326"},    // large rates are whole
		{Seconds(20), "20s"},        // whole seconds
		{Seconds(100.5), "1m40.5s"}, // Go duration text
		{Seconds(0.0004), "0s"},     // rounded to the millisecond
		{Seconds(-1), "-"},          // nonsense is a dash
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},              // fits
		{"exactly", 7, "exactly"},           // fits exactly
		{"too long", 5, "too …"},            // cut with a mark
		{"Σ status", 3, "Σ …"},              // counts cells, not bytes
		{"anything", 0, ""},                 // no room
		{"無効なパラメータ", 7, "無効な…"},             // CJK takes two cells a character
		{"無効なパラメータ", 6, "無効…"},              // a wide character is never split: one cell less
		{"🔥🔥🔥 hot", 6, "🔥🔥…"},               // an emoji takes two cells too
		{"[1mbold[0m", 4, "[1mbold[0m"}, // a style takes none
	}
	for _, tt := range tests {
		got := Truncate(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if w := ansi.StringWidth(got); w > tt.n {
			t.Errorf("Truncate(%q, %d) is %d cells wide", tt.in, tt.n, w)
		}
	}
}

func TestSortedCodes(t *testing.T) {
	got := SortedCodes(map[string]int64{"429": 1, "200": 1, "-32602": 1, "-32005": 1, "x": 1})
	want := []string{"-32602", "-32005", "200", "429", "x"}
	if len(got) != len(want) {
		t.Fatalf("SortedCodes = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("SortedCodes = %v, want %v", got, want)
		}
	}
}
