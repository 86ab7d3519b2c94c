package report

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/internal/fixture"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// TestReportChecks: a run with expect rules and costs shows its invalid answers beside the
// outcomes, the cost units offered and accepted, both per stage, and the rules broken, within
// 80 columns; a run without either mentions neither.
func TestReportChecks(t *testing.T) {
	out := reportText(t, fixture.CheckedSnapshot())
	checkContains(t, "the report", out,
		"invalid      7 (0.3%) failed by an expect rule, 7 calls",
		"cost units   offered 39840 (1988.0/s)  accepted 27120 (1356.0/s)",
		"Invalid answers and cost units per stage",
		"Invalid answers (a result that broke an expect rule fails its call)",
		"result present")
	fixture.CheckWidth(t, out, textfmt.DefaultWidth)
	_, perStage, _ := strings.Cut(out, "Invalid answers and cost units per stage\n")
	if rows := strings.Split(perStage, "\n"); len(rows) < 3 || strings.Join(strings.Fields(rows[2]), " ") != "2 2 0.1% 3176.0 3176.0" {
		t.Errorf("stage 2's invalid answers and cost should read 2 2 0.1%% 3176.0 3176.0:\n%s", perStage)
	}

	mix := fixture.CheckedSnapshot()
	mix.Totals.ByRequest = map[string]engine.Summary{
		"eth_getBlockByNumber": {Completed: 100, Expect: &engine.ExpectStats{Invalid: 25}, Cost: &engine.CostStats{OfferedRate: 1600, AcceptedRate: 1200}},
		"eth_blockNumber":      {Completed: 50, Expect: &engine.ExpectStats{}, Cost: &engine.CostStats{OfferedRate: 500, AcceptedRate: 500}},
	}
	_, perRequest, _ := strings.Cut(reportText(t, mix), "Invalid answers and cost units per request\n")
	if rows := strings.Split(perRequest, "\n"); len(rows) < 2 || strings.Join(strings.Fields(rows[1]), " ") != "eth_getBlockByNumber 25 25.0% 1600.0 1200.0" {
		t.Errorf("the request rows should start with eth_getBlockByNumber 25 25.0%% 1600.0 1200.0:\n%s", perRequest)
	}

	plain := reportText(t, fixture.SnapshotWithTimeline())
	for _, not := range []string{"failed by an expect rule", "cost units", "Invalid answers"} {
		if strings.Contains(plain, not) {
			t.Errorf("a run without rules or costs mentions %q:\n%s", not, plain)
		}
	}
	// Rules that all held say so rather than leave the section out.
	held := fixture.CheckedSnapshot()
	held.Totals.Expect.ByRule = nil
	checkContains(t, "the report of rules that held", reportText(t, held), "Invalid answers: none: every result checked passed its rules")
}

// TestWriteCSVChecks: invalid, cost_offered and cost_accepted per second, after the calls
// columns, adding up to the rows'; none for a run without rules or costs.
func TestWriteCSVChecks(t *testing.T) {
	s := fixture.CheckedSnapshot()
	_, rows := csvRows(t, s)
	col := columns(rows[0])
	var invalid int64
	var accepted float64
	for _, r := range rows[1:] {
		invalid += mustInt(t, r[col["invalid"]])
		accepted += float64(mustInt(t, r[col["cost_accepted"]]))
	}
	var want float64
	for _, r := range s.Timeline {
		want += r.CostAccepted
	}
	if invalid != 7 || accepted != want {
		t.Errorf("the rows hold %d invalid and %v accepted, want 7 and %v", invalid, accepted, want)
	}
	if col["invalid"] != col["failed"]+1 || col["cost_offered"] != col["invalid"]+1 || col["cost_accepted"] != col["cost_offered"]+1 {
		t.Errorf("columns %v: want invalid, cost_offered, cost_accepted after failed", rows[0])
	}
	_, plain := csvRows(t, fixture.SnapshotWithTimeline())
	for _, h := range []string{"invalid", "cost_offered", "cost_accepted"} {
		if _, ok := columns(plain[0])[h]; ok {
			t.Errorf("a run without rules or costs has a %s column", h)
		}
	}
}

// TestHTMLChecks: the page's totals have invalid and cost columns and its tables the rules
// broken.
func TestHTMLChecks(t *testing.T) {
	page := writeHTMLPage(t, fixture.CheckedSnapshot())
	for _, want := range []string{">invalid</th>", ">cost/s offered</th>", ">cost/s accepted</th>", "Invalid answers", "result present"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// TestCompareChecks: compare adds invalid (lower is better) and cost/s (higher is better)
// rows when a run has rules or costs, "-" for a run without them; runs without either have no
// such rows.
func TestCompareChecks(t *testing.T) {
	a, b := fixture.CheckedSnapshot(), fixture.CheckedSnapshot()
	b.Totals.Expect.Invalid = 14
	b.Totals.Cost.AcceptedRate *= 1.5
	plain := fixture.CheckedSnapshot()
	plain.Totals.Expect, plain.Totals.Cost = nil, nil
	out := compareText(t, a, b, plain)
	checkContains(t, "the comparison", out, "invalid", "cost/s", "answers failed by an expect rule")
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) > 0 && f[0] == "invalid" && f[1] == "7":
			if !strings.Contains(l, "▲ worse") || f[len(f)-1] != "-" {
				t.Errorf("invalid 7 → 14 should be worse, and - for the run without rules: %q", l)
			}
		case len(f) > 0 && f[0] == "cost/s" && f[1] == "1356.0":
			if !strings.Contains(l, "▲ better") || f[len(f)-1] != "-" {
				t.Errorf("cost/s up by half should be better, and - for the run without costs: %q", l)
			}
		}
	}
	if out := compareText(t, fixture.SnapshotWithTimeline(), fixture.SnapshotWithTimeline()); strings.Contains(out, "invalid") || strings.Contains(out, "cost/s") {
		t.Errorf("runs without rules or costs compare them:\n%s", out)
	}
}
