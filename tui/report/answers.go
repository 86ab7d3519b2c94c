package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// This file is the report of the targets' answers compared (compare_answers): the counts by
// kind per request name and per pair of targets, and the mismatches kept as examples, each a
// diff of the paths whose values differ.

// answerCountHead are the columns of a row of answers.Counts.
var answerCountHead = []string{"compared", "match", "mismatch", "err/result", "skew", "incomplete"}

// answerCountNote says what answerCountHead's short names mean.
const answerCountNote = "mismatch: the results differ; err/result: an error on one side, a result on the " +
	"other; skew: results differed while the targets' heads did (not comparable); incomplete: a " +
	"target gave nothing to compare (dropped, a transport error, not JSON)"

func answerCountCells(c answers.Counts) []string {
	return []string{textfmt.Int(c.Compared), textfmt.Int(c.Match), textfmt.Int(c.Mismatch),
		textfmt.Int(c.ErrorVsResult), textfmt.Int(c.HeadSkew), textfmt.Int(c.Incomplete)}
}

// disagreed is how many requests' answers disagreed: results, or an error against a result.
func disagreed(c answers.Counts) int64 { return c.Mismatch + c.ErrorVsResult }

// answersTables are the counts of the comparison: per request name, the most disagreeing
// first, and the run's; per pair of targets when there is more than one pair. None when the
// run compared no answers.
func answersTables(res *answers.Result) []*textfmt.Table {
	if res == nil {
		return nil
	}
	byReq := textfmt.NewTable("l"+strings.Repeat("r", len(answerCountHead)), append([]string{"request"}, answerCountHead...)...).GiveWay(0, false)
	byReq.Caption = "Answers compared (" + targetsWords(res.Targets) + ")"
	byReq.Title, byReq.Empty = "Answers compared", "none: no request was answered by every target"
	if res.Totals.Compared == 0 {
		return []*textfmt.Table{byReq}
	}
	names := slices.SortedFunc(maps.Keys(res.ByRequest), func(a, b string) int {
		return cmp.Or(cmp.Compare(disagreed(res.ByRequest[b]), disagreed(res.ByRequest[a])), cmp.Compare(a, b))
	})
	for _, name := range names {
		byReq.Add(append([]string{name}, answerCountCells(res.ByRequest[name])...)...)
	}
	byReq.Add(append([]string{"all"}, answerCountCells(res.Totals)...)...)
	byReq.Note = answerCountNote
	if len(res.Targets) > 2 {
		byReq.Note = "a request matches when every target's answer does; " + byReq.Note
	}
	tables := []*textfmt.Table{byReq}
	if len(res.Pairs) > 1 {
		pairs := textfmt.NewTable("l"+strings.Repeat("r", len(answerCountHead)), append([]string{"pair"}, answerCountHead...)...).GiveWay(0, false)
		pairs.Caption = "Answers compared per pair of targets"
		for _, p := range res.Pairs {
			pairs.Add(append([]string{p.A + " vs " + p.B}, answerCountCells(p.Counts)...)...)
		}
		tables = append(tables, pairs)
	}
	return tables
}

// targetsWords names the targets compared: "geth vs erigon"; "3 targets" (their names are in
// the header, and would not fit a caption's line).
func targetsWords(names []string) string {
	if len(names) == 2 {
		return safetext.Line(names[0] + " vs " + names[1])
	}
	return fmt.Sprintf("%d targets", len(names))
}

// kindTexts say how a kept example's answers differed.
var kindTexts = map[answers.Kind]string{
	answers.Mismatch:      "the results differ",
	answers.ErrorVsResult: "an error against a result",
	answers.HeadSkew:      "the results differ, and so did the heads",
	answers.Incomplete:    "an answer missing",
}

// kindText says how a kept example's answers differed; a kind this version does not know, as
// the snapshot has it.
func kindText(k answers.Kind) string {
	if t, ok := kindTexts[k]; ok {
		return t
	}
	return safetext.Line(string(k))
}

// exampleTable is kept example n (from 1) as a table: the paths whose values differ, the two
// targets' values beside them ("(absent)" where one has none). Its caption says which request
// and how; its note is the request sent (the HTML page shows it whole, the text report cut to a
// line).
func exampleTable(n int, e answers.Example) *textfmt.Table {
	t := textfmt.NewTable("lll", "path", e.A, e.B).GiveWay(0, false).GiveWay(1, false).GiveWay(2, false)
	t.Caption = fmt.Sprintf("%d. %s: %s, %s vs %s", n, safetext.Line(e.Request), kindText(e.Kind), safetext.Line(e.A), safetext.Line(e.B))
	if e.Cut {
		t.Caption += " (answers cut to the size limit)"
	}
	t.Title, t.Empty = t.Caption, "no path differs in what was kept"
	absent := func(v string) string {
		if v == "" {
			return "(absent)"
		}
		return v
	}
	for _, d := range e.Diff {
		t.Add(d.Path, absent(d.A), absent(d.B))
	}
	t.Note = "sent " + textfmt.OneLine(e.Sent)
	return t
}

// examplesHeading heads the kept examples: how many, of how many disagreements, kept how.
func examplesHeading(res *answers.Result) string {
	keep := ""
	if res.Keep > 0 {
		keep = fmt.Sprintf("; the first %d of each request and kind at most", res.Keep)
	}
	return fmt.Sprintf("Answers that differed (%d kept%s)", len(res.Examples), keep)
}

// writeAnswerExamples writes each kept example: its caption, the request sent cut to one line,
// then the diff, every line within the width.
func writeAnswerExamples(ew *textfmt.Writer, res *answers.Result) {
	if res == nil || len(res.Examples) == 0 {
		return
	}
	ew.Line("")
	ew.Line(examplesHeading(res))
	for i, e := range res.Examples {
		t := exampleTable(i+1, e)
		ew.Paragraph("  ", "     ", t.Caption)
		ew.Line(textfmt.Truncate("     "+t.Note, ew.Width()))
		if len(t.Rows) == 0 {
			ew.Line("     " + t.Empty)
			continue
		}
		ew.Table(t, "     ")
	}
}
