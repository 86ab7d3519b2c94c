package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// WriteThresholds writes a run's [thresholds] verdict: one line per condition with the measured
// value, the bound, pass or FAIL and by how much, then the overall verdict, in width cells (0:
// textfmt.DefaultWidth). Nothing when the profile had no thresholds.
func WriteThresholds(w io.Writer, rs []engine.ThresholdResult, width int) error {
	ew := textfmt.NewWriter(w, width)
	writeThresholdsSection(ew, rs)
	return ew.Err()
}

func writeThresholdsSection(ew *textfmt.Writer, rs []engine.ThresholdResult) {
	if len(rs) == 0 {
		return
	}
	t, failed := thresholdsTable(rs)
	ew.Line("")
	ew.Line(thresholdsHeading(failed, len(rs)))
	ew.Table(t, "  ")
}

// thresholdsHeading is the verdict: "Thresholds ✓ all 5 hold", "Thresholds ✗ 1 of 5 failed".
func thresholdsHeading(failed, n int) string {
	if failed == 0 {
		return fmt.Sprintf("Thresholds ✓ all %d hold", n)
	}
	return fmt.Sprintf("Thresholds ✗ %d of %d failed", failed, n)
}

// thresholdsTable is the verdict's rows (mark, metric, bound, measured, by, where), and how
// many conditions failed. "by" is a phrase ("on the bound, which it must not reach"): it wraps
// when the room is short; "where" is a file:line: it loses its start, never its line number.
func thresholdsTable(rs []engine.ThresholdResult) (t *textfmt.Table, failed int) {
	t = textfmt.NewTable("lllrll", "", "metric", "bound", "measured", "by", "where").GiveWay(4, true).GiveWayLeft(5)
	for _, r := range rs {
		mark, by := "✓ pass", thresholdMargin(r)
		if !r.Pass {
			mark = "✗ FAIL"
			failed++
		}
		measured := thresholdValue(r.Measured, r.Unit)
		if r.Note != "" {
			measured, by = "-", r.Note
		}
		name := r.Metric
		if r.Stage > 0 {
			name = "stage " + strconv.Itoa(r.Stage) + " " + r.Metric
		}
		if r.Target != "" { // a run with several targets: whose number it is
			name = r.Target + ": " + name
		}
		where := r.Where
		if where != "" {
			where = filepath.Base(where) // the snapshot keeps the whole path
		}
		t.Add(mark, name, r.Condition, measured, by, where)
	}
	return t, failed
}

// thresholdMargin says how far inside ("12.3 ms to spare") or outside ("3.2 points over") the
// bound the value is.
func thresholdMargin(r engine.ThresholdResult) string {
	m := r.Margin
	amount := func(v float64) string {
		if v < 0 {
			v = -v
		}
		if r.Unit == "%" {
			if v == 1 {
				return "1 point"
			}
			return textfmt.TrimZeros(textfmt.Sig(v, 3, 3)) + " points"
		}
		return thresholdValue(v, r.Unit)
	}
	switch {
	case r.Pass && m == 0:
		return "exactly on the bound"
	case r.Pass:
		return amount(m) + " to spare"
	case m == 0:
		return "on the bound, which it must not reach"
	case r.Op == "==":
		return "off by " + amount(m)
	case r.Op == "<" || r.Op == "<=":
		return amount(m) + " over"
	}
	return amount(m) + " short"
}

// thresholdValue writes a value in its unit: "12.3 ms", "4.21%", "17", "998.7/s".
func thresholdValue(v float64, unit string) string {
	switch unit {
	case "ms":
		return textfmt.Ms(v) + " ms"
	case "%":
		return textfmt.Percent(v)
	case "/s":
		return textfmt.RPS(v) + "/s"
	}
	return fmt.Sprintf("%.0f", v)
}
