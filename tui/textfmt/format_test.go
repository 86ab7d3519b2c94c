package textfmt

import (
	"math"
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestNumbers: every number format, one row a case; a wrong one names what it wanted.
func TestNumbers(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Ms(0), "0"},                            // nothing measured reads as a plain zero
		{Ms(0.0004), "0.000"},                   // below histogram resolution (1µs): three decimals at most
		{Ms(0.001), "0.001"},                    // one microsecond is the smallest step shown
		{Ms(0.1234), "0.123"},                   // sub-millisecond keeps three significant digits
		{Ms(0.9996), "1.00"},                    // rounding into the next decade drops a decimal
		{Ms(1.234), "1.23"},                     // single digits get two decimals
		{Ms(7), "7.00"},                         // whole numbers keep their precision so a column stays even
		{Ms(9.996), "10.0"},                     // carry from 9.99x to 10 keeps three digits
		{Ms(12.34), "12.3"},                     // tens get one decimal
		{Ms(99.96), "100"},                      // carry into hundreds: no decimal
		{Ms(123.4), "123"},                      // hundreds are whole
		{Ms(30000.2), "30000"},                  // a timeout stays whole, never exponent form
		{Ms(-1.234), "-1.23"},                   // negative numbers keep their precision
		{Ms(math.NaN()), "-"},                   // no data is a dash, not "NaN"
		{Ms(math.Inf(1)), "-"},                  // nor "+Inf"
		{Bytes(0), "0 B"},                       // nothing transferred
		{Bytes(999), "999 B"},                   // bytes are whole
		{Bytes(999.5), "1.00 kB"},               // rounding up moves to the next unit, never "1000 B"
		{Bytes(1000), "1.00 kB"},                // decimal units, as wrk and bombardier print
		{Bytes(1234567), "1.23 MB"},             // three significant digits
		{Bytes(999600), "1.00 MB"},              // "1000 kB" would read badly
		{Bytes(45.6e9), "45.6 GB"},              // large transfers
		{Bytes(28.28e6), "28.3 MB"},             // a bombardier-sized throughput
		{Bytes(2e18), "2000 PB"},                // past the last unit the number grows
		{Bytes(math.NaN()), "-"},                // no data
		{BytesRate(28_280_000, 1), "28.3 MB/s"}, // per second
		{BytesRate(742_090, 1), "742 kB/s"},     // kilobytes per second
		{BytesRate(1_000_000, 0), "-"},          // no time passed: no rate
		{BytesRate(0, 10), "0 B/s"},             // nothing transferred
		{Pct(0, 0), "-"},                        // no base, no share
		{Pct(0, 5), "0.0%"},                     // none of them
		{Pct(1, 3), "33.3%"},                    // one decimal
		{Pct(3, 3), "100.0%"},                   // all of them
		{Pct(1, 1_000_000), "<0.1%"},            // a single error stays visible
		{Pct(999_999, 1_000_000), ">99.9%"},     // and is not rounded away from the rest
		{RPS(0), "0.0"},                         // idle
		{RPS(499.84), "499.8"},                  // one decimal
		{RPS(65325.94), "65326"},                // large rates are whole
		{Seconds(20), "20s"},                    // whole seconds
		{Seconds(100.5), "1m40.5s"},             // Go duration text
		{Seconds(0.0004), "0s"},                 // rounded to the millisecond
		{Seconds(-1), "-"},                      // nonsense is a dash
		{PerSec(1050), "1050/s"},                // a probed rate of a hundred or more: whole when it is
		{PerSec(1050.26), "1050.3/s"},           // else one decimal
		{PerSec(4.04), "4.04/s"},                // a small one: three significant digits
		{PerSec(14.5), "14.5/s"},                // no trailing zero
		{Percent(0), "0%"},                      // nothing is a plain zero
		{Percent(4.76), "4.76%"},                // three significant digits
		{Percent(1), "1%"},                      // without trailing zeros
		{TrimZeros("0.10"), "0.1"},              // a trailing zero goes
		{TrimZeros("4.00"), "4"},                // and the point with it
		{TrimZeros("400"), "400"},               // a whole number keeps its zeros
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
	if want := []string{"-32602", "-32005", "200", "429", "x"}; !slices.Equal(got, want) {
		t.Errorf("SortedCodes = %v, want %v", got, want)
	}
	// The commonest first; a tie in the order of the names.
	got = SortedByCount(map[string]int64{"reset": 2, "timeout": 5, "eof": 2})
	if want := []string{"timeout", "eof", "reset"}; !slices.Equal(got, want) {
		t.Errorf("SortedByCount = %v, want %v", got, want)
	}
}
