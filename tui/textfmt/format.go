// Package textfmt writes numbers and text for people, the same way everywhere rpcstress shows
// them: the live dashboard, the per-second lines, the static reports and validate. It owns the
// number formats (a latency, a rate, a share), the order codes are listed in, text wrapped and
// cut to terminal cells, a Writer that keeps the first error, and Table, the one table model
// that both the text and the HTML report render.
package textfmt

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// Sig writes v with sig significant digits but never more than maxDec decimals, so a column
// of numbers of very different sizes stays short and equally precise.
func Sig(v float64, sig, maxDec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	if v == 0 {
		return "0"
	}
	dec := sig - 1 - int(math.Floor(math.Log10(math.Abs(v))))
	dec = min(max(dec, 0), maxDec)
	s := strconv.FormatFloat(v, 'f', dec, 64)
	// Rounding can carry into a new leading digit (9.996 → "10.00"); one decimal fewer keeps
	// the promised number of significant digits.
	if dec > 0 {
		if r, err := strconv.ParseFloat(s, 64); err == nil && math.Abs(r) >= math.Pow10(sig-dec) {
			s = strconv.FormatFloat(v, 'f', dec-1, 64)
		}
	}
	return s
}

// Ms writes a latency in milliseconds with three significant digits; histograms record
// microseconds, so three decimals is the most that means anything.
func Ms(ms float64) string { return Sig(ms, 3, 3) }

// RPS writes requests per second: one decimal while it matters, none for large rates.
func RPS(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	if math.Abs(v) >= 10000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// byteUnits are decimal (SI) units, as load testers (wrk, bombardier) print MB/s.
var byteUnits = [...]string{"B", "kB", "MB", "GB", "TB", "PB"}

// Bytes writes a byte count with a decimal unit and three significant digits.
func Bytes(n float64) string {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return "-"
	}
	k := 0
	// 999.6 kB would print as "1000 kB"; moving up before rounding prints "1.00 MB".
	for math.Abs(n) >= 999.5 && k < len(byteUnits)-1 {
		n /= 1000
		k++
	}
	if k == 0 {
		return strconv.FormatFloat(math.Round(n), 'f', 0, 64) + " B"
	}
	return Sig(n, 3, 2) + " " + byteUnits[k]
}

// BytesRate writes a transfer rate, bytes over seconds; "-" when no time passed.
func BytesRate(n int64, seconds float64) string {
	if seconds <= 0 {
		return "-"
	}
	return Bytes(float64(n)/seconds) + "/s"
}

// Pct writes n as a share of total with one decimal. It never rounds a non-zero share to
// "0.0%" or a partial one to "100.0%": a single error in a million requests must stay visible.
func Pct(n, total int64) string {
	if total <= 0 {
		return "-"
	}
	p := 100 * float64(n) / float64(total)
	switch {
	case n > 0 && p < 0.05:
		return "<0.1%"
	case n < total && p >= 99.95:
		return ">99.9%"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + "%"
}

// Seconds writes a span of seconds as a Go duration ("1m40.5s"), to the millisecond.
func Seconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return "-"
	}
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}

// Int writes a count in plain digits, so it can be copied into another tool.
func Int(n int64) string { return strconv.FormatInt(n, 10) }

// PerSec writes a rate that was measured or probed, not planned: "1050/s", "14.5/s", "4.04/s".
func PerSec(r float64) string {
	if r >= 100 {
		s := strconv.FormatFloat(r, 'f', 1, 64)
		return strings.TrimSuffix(s, ".0") + "/s"
	}
	return TrimZeros(Sig(r, 3, 3)) + "/s"
}

// Percent writes a percentage with up to three significant digits: "1%", "0.1%", "4.76%".
func Percent(v float64) string {
	if v == 0 {
		return "0%"
	}
	return TrimZeros(Sig(v, 3, 3)) + "%"
}

// TrimZeros drops trailing zeros after a decimal point: "4.00" → "4", "0.10" → "0.1".
func TrimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Truncate shortens s to at most n terminal cells, marking the cut with "…". A wide character
// is never split: the cut may leave one cell less.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	return ansi.Truncate(s, n, "…")
}

// OneLine folds line breaks and tabs into spaces and escapes what is left that a terminal would
// obey (safetext): messages come from the target and must neither break the layout nor write
// to the user's terminal.
func OneLine(s string) string {
	return safetext.Line(strings.Join(strings.Fields(s), " "))
}
