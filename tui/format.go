package tui

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/rpcstress/rpcstress/internal/safetext"
)

// formatSig writes v with sig significant digits but never more than maxDec decimals, so a column
// of numbers of very different sizes stays short and equally precise.
func formatSig(v float64, sig, maxDec int) string {
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

// formatMs writes a latency in milliseconds with three significant digits; histograms record
// microseconds, so three decimals is the most that means anything.
func formatMs(ms float64) string { return formatSig(ms, 3, 3) }

// formatRPS writes requests per second: one decimal while it matters, none for large rates.
func formatRPS(v float64) string {
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

// formatBytes writes a byte count with a decimal unit and three significant digits.
func formatBytes(n float64) string {
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
	return formatSig(n, 3, 2) + " " + byteUnits[k]
}

// formatBytesRate writes a transfer rate, bytes over seconds; "-" when no time passed.
func formatBytesRate(n int64, seconds float64) string {
	if seconds <= 0 {
		return "-"
	}
	return formatBytes(float64(n)/seconds) + "/s"
}

// formatPct writes n as a share of total with one decimal. It never rounds a non-zero share to
// "0.0%" or a partial one to "100.0%": a single error in a million requests must stay visible.
func formatPct(n, total int64) string {
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

// formatSeconds writes a span of seconds as a Go duration ("1m40.5s"), to the millisecond.
func formatSeconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
		return "-"
	}
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond).String()
}

// formatInt writes a count in plain digits, so it can be copied into another tool.
func formatInt(n int64) string { return strconv.FormatInt(n, 10) }

// sumCounts adds up a map of counts (statuses, error classes, RPC codes).
func sumCounts(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// sum2xx adds up the counts of the 2xx statuses.
func sum2xx(status map[string]int64) int64 {
	var n int64
	for code, v := range status {
		if len(code) == 3 && code[0] == '2' {
			n += v
		}
	}
	return n
}

// sortedCodes returns the keys of m in numeric order ("-32602" before "-32005" before "200"),
// falling back to text order for keys that are not numbers.
func sortedCodes(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, errA := strconv.ParseInt(keys[i], 10, 64)
		b, errB := strconv.ParseInt(keys[j], 10, 64)
		switch {
		case errA == nil && errB == nil:
			return a < b
		case errA == nil: // numbers first
			return true
		case errB == nil:
			return false
		}
		return keys[i] < keys[j]
	})
	return keys
}

// sortedByCount returns the keys of m, largest count first, so the commonest problem leads.
func sortedByCount(m map[string]int64) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

// truncate shortens s to at most n terminal cells, marking the cut with "…". A wide character
// is never split: the cut may leave one cell less.
func truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	return ansi.Truncate(s, n, "…")
}

// oneLine folds line breaks and tabs into spaces and escapes what is left that a terminal would
// obey (safetext): messages come from the target and must neither break the layout nor write
// to the user's terminal.
func oneLine(s string) string {
	return safetext.Line(strings.Join(strings.Fields(s), " "))
}
