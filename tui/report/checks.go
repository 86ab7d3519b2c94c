package report

import (
	"fmt"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// This file is what the profile's expect rules and costs add to the reports: invalid answers
// (results that broke a rule: failed, with a 200) and the load in cost units. Runs without
// rules or costs show nothing of either.

// invalidText is the invalid answers under the outcomes: "104 (17.3%) failed by an expect
// rule, 104 calls", a share of the completed answers like the outcomes'; "" for a run
// without rules.
func invalidText(tot *engine.Summary) string {
	if tot.Expect == nil {
		return ""
	}
	return fmt.Sprintf("%s failed by an expect rule, %d calls", countPct(tot.Expect.Invalid, tot.Completed), tot.Expect.Calls)
}

// costText is the load in cost units, offered (sent) and accepted (answered ok), in all and per
// second: "offered 9884 (2471.0/s)  accepted 6180 (1545.1/s)"; "" for a run without costs.
func costText(tot *engine.Summary) string {
	c := tot.Cost
	if c == nil {
		return ""
	}
	return fmt.Sprintf("offered %d (%s/s)  accepted %d (%s/s)", c.Offered, textfmt.RPS(c.OfferedRate),
		c.Accepted, textfmt.RPS(c.AcceptedRate))
}

// invalidTable lists the rules answers broke, the most broken first, with the calls that broke
// each (a call counts under the first rule it broke); left out for a run without rules.
func invalidTable(tot *engine.Summary) *textfmt.Table {
	t := textfmt.NewTable("lrr", "rule", "calls", "share").GiveWay(0, true)
	t.Caption, t.Title = "Invalid answers (a result that broke an expect rule fails its call)", "Invalid answers"
	if tot.Expect == nil {
		return t
	}
	t.Empty = "none: every result checked passed its rules"
	answered := tot.Calls.Completed()
	for _, rule := range textfmt.SortedByCount(tot.Expect.ByRule) {
		n := tot.Expect.ByRule[rule]
		t.Add(textfmt.OneLine(rule), textfmt.Int(n), textfmt.Pct(n, answered))
	}
	if t.Shown() && len(t.Rows) > 0 {
		t.Note = "share: of the calls answered"
	}
	return t
}

// checkColumns are what a run's rules and costs add per span (a stage, a request): its
// invalid answers and their share of its answers with rules, the cost units offered and
// accepted per second with costs. They are a table of their own, after the stages' and the
// requests': those are full at 80 columns.
type checkColumns struct{ rules, costs bool }

func checkColumnsOf(tot *engine.Summary) checkColumns {
	return checkColumns{rules: tot.Expect != nil, costs: tot.Cost != nil}
}

// table is the columns' table, its first column lead.
func (c checkColumns) table(lead string) *textfmt.Table {
	align, head := "l", []string{lead}
	if c.rules {
		align, head = align+"rr", append(head, "invalid", "share")
	}
	if c.costs {
		align, head = align+"rr", append(head, "cost offered/s", "accepted/s")
	}
	return textfmt.NewTable(align, head...).GiveWay(0, false)
}

// cells are a span's cells: "-" where it has none of them.
func (c checkColumns) cells(s *engine.Summary) []string {
	var out []string
	if c.rules {
		if s.Expect != nil {
			out = append(out, textfmt.Int(s.Expect.Invalid), textfmt.Pct(s.Expect.Invalid, s.Completed))
		} else {
			out = append(out, "-", "-")
		}
	}
	if c.costs {
		if s.Cost != nil {
			out = append(out, textfmt.RPS(s.Cost.OfferedRate), textfmt.RPS(s.Cost.AcceptedRate))
		} else {
			out = append(out, "-", "-")
		}
	}
	return out
}

// caption names the columns' table: "Invalid answers and cost units per stage".
func (c checkColumns) caption(per string) string {
	switch {
	case c.rules && c.costs:
		return "Invalid answers and cost units per " + per
	case c.rules:
		return "Invalid answers per " + per
	}
	return "Cost units per " + per
}

// stageChecksTable is each stage's invalid answers and cost; left out for a run with neither.
func stageChecksTable(s *engine.Snapshot) *textfmt.Table {
	c := checkColumnsOf(&s.Totals)
	t := c.table("#")
	if !c.rules && !c.costs {
		return t
	}
	t.Caption = c.caption("stage")
	for i := range s.Stages {
		st := &s.Stages[i]
		if !runtext.StageRan(st) {
			continue // its zeros are no measurement; the stages table says it did not run
		}
		t.Add(append([]string{textfmt.Int(int64(i + 1))}, c.cells(&st.Summary)...)...)
	}
	c.note(t)
	return t
}

// requestChecksTable is each request's invalid answers and cost, for a mix of two or more;
// left out for a run with neither.
func requestChecksTable(tot *engine.Summary) *textfmt.Table {
	c := checkColumnsOf(tot)
	t := c.table("name")
	if !c.rules && !c.costs || len(tot.ByRequest) < 2 {
		return t
	}
	t.Caption = c.caption("request")
	for _, name := range runtext.RequestsByCount(tot.ByRequest) {
		r := tot.ByRequest[name]
		t.Add(append([]string{name}, c.cells(&r)...)...)
	}
	c.note(t)
	return t
}

// note says what the columns are.
func (c checkColumns) note(t *textfmt.Table) {
	var parts []string
	if c.rules {
		parts = append(parts, "invalid: failed by an expect rule (share of the answers)")
	}
	if c.costs {
		parts = append(parts, "cost: units sent and answered ok per second")
	}
	t.Note = strings.Join(parts, "; ")
}

// checksLegend says what compare's invalid and cost/s rows are, when a run has them.
func checksLegend(runs []CompareRun) string {
	var sums []*engine.Summary
	for _, r := range runs {
		sums = append(sums, &r.Snapshot.Totals)
	}
	c := checkColumns{}
	for _, s := range sums {
		c.rules, c.costs = c.rules || s.Expect != nil, c.costs || s.Cost != nil
	}
	out := ""
	if c.rules {
		out += " invalid: answers failed by an expect rule (- for a run without rules)."
	}
	if c.costs {
		out += " cost/s: cost units answered ok per second (higher: more of the work served)."
	}
	return out
}
