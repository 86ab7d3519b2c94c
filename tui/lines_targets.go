package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// A run that sends to several targets side by side prints a line per target per second, each
// line whole by itself (its second and its target), so grep and awk read one target's lines
// as they read a run of one. Columns per target on one line would leave room for two targets
// in 80 columns; a line each fits any number. The target rate leaves the line for the
// target's name (the stage and rate events say it), and p90 for its letter, so the line with
// the SATURATED flag still fits 80 columns:
//
//	   12s A geth       199.0  4.12  29.3    120     78     0     3
//	   12s B erigon     198.0  8.24  58.5    198      0     0     3
//
// The answers compared get a line of their own when they change in anything but matches.

// targetLineFormat is one target's second; targetNameWidth is its name's column, padded in
// cells (padRight) before it goes in: fmt pads in runes, and a name may be in Japanese.
const (
	targetLineFormat = "%5s %s %6s %5s %5s %6s %6s %5s %5s %5s%s"
	targetNameWidth  = 11
)

// targetLag is how many seconds the lines wait for a target whose view lags the others' (each
// target's numbers are published by its own aggregator) before its second is said missing.
const targetLag = 2

// updateTargets prints the seconds every target has closed, a line per target, with the events
// and the answers compared among them.
func (p *LinePrinter) updateTargets(st *engine.Stats) {
	rows := make([][]engine.Row, len(st.Targets))
	ready, newest := math.MaxInt, -1
	for i, v := range st.Targets {
		rows[i] = v.Timeline
		reported := rows[i]
		if st.Done {
			// The sliver of a second the run ended in is left out when it holds nothing;
			// when another target's holds answers, this one's is printed beside it.
			reported = runtext.ReportedRows(reported)
		}
		last := -1
		if n := len(reported); n > 0 {
			last = reported[n-1].T
		}
		ready, newest = min(ready, last), max(newest, last)
	}
	// A second is printed once every target has closed it; a target that lags by more than
	// targetLag seconds (or stopped publishing) holds the others back no longer.
	ready = max(ready, newest-targetLag)
	if st.Done {
		ready = newest
	}
	printed := false
	for t := p.lastT + 1; t <= ready; t++ {
		seconds := make([]*engine.Row, len(rows))
		seen := false
		for i := range rows {
			seconds[i] = rowAt(rows[i], t)
			seen = seen || seconds[i] != nil
		}
		if !seen {
			continue // said missing with the next second there is
		}
		p.printEvents(float64(t + 1))
		p.markRow(t)
		for i, r := range seconds {
			p.w.Line(formatTargetRow(t, namedLabel(i, st.Targets[i].TargetName, targetNameWidth), r))
			if r != nil {
				p.printSubs(st.Targets[i].Subs, r) // its own, at its node, under its line
			}
		}
		p.printTargetHeads(st.Targets, seconds, t)
		printed = true
	}
	if printed || st.Done {
		p.printAnswers(st.Answers, st.Done)
		p.printRedials(st.Targets)
	}
	until := float64(p.lastT + 2)
	if st.Done {
		until = math.Inf(1)
	}
	p.printEvents(until)
}

// rowAt is the row of second t in rows, nil when there is none.
func rowAt(rows []engine.Row, t int) *engine.Row {
	for i := len(rows) - 1; i >= 0; i-- {
		if rows[i].T == t {
			return &rows[i]
		}
	}
	return nil
}

// formatTargetRow lays out one target's second; a target with no row for it says so.
func formatTargetRow(t int, label string, r *engine.Row) string {
	if r == nil {
		return fmt.Sprintf("%5s %s %s", fmt.Sprintf("%ds", t), padRight(label, targetNameWidth), "(no row)")
	}
	drop, flag := "", ""
	if r.Dropped != 0 {
		drop = textfmt.Int(r.Dropped)
	}
	if r.Saturated {
		flag = " SATURATED"
	}
	p50, p99 := "-", "-"
	if runtext.RowAnswered(r) > 0 {
		p50, p99 = textfmt.Ms(r.Latency.P50), textfmt.Ms(r.Latency.P99)
	}
	line := fmt.Sprintf(targetLineFormat, fmt.Sprintf("%ds", t), padRight(label, targetNameWidth), textfmt.RPS(r.RPS), p50, p99,
		textfmt.Int(textfmt.Sum2xx(r.Status)), textfmt.Int(r.Limited), textfmt.Int(r.Failed), textfmt.Int(r.Inflight), drop, flag)
	return strings.TrimRight(line, " ")
}

// printAnswers prints the answers compared when they changed in anything but matches since
// the last line, and at the end of the run the final counts once more if they moved. It is
// called after a view's new rows, so at most once a second: a target that fails every
// request adds to incomplete at every view published, which made a line each.
//
//	⟶ 13.0s answers: match 6945, mismatch 12, error vs result 0, head skew 40
func (p *LinePrinter) printAnswers(res *answers.Result, done bool) {
	if res == nil {
		return
	}
	c, was := res.Totals, p.answers
	news := c.Mismatch != was.Mismatch || c.ErrorVsResult != was.ErrorVsResult || c.HeadSkew != was.HeadSkew ||
		c.Incomplete != was.Incomplete
	if !news && !(done && c != was) {
		return
	}
	p.answers = c
	text := fmt.Sprintf("answers: match %d, mismatch %d, error vs result %d, head skew %d", c.Match, c.Mismatch,
		c.ErrorVsResult, c.HeadSkew)
	if c.Incomplete > 0 {
		text += fmt.Sprintf(", incomplete %d", c.Incomplete)
	}
	p.w.Paragraph(fmt.Sprintf("  ⟶ %.1fs ", float64(p.lastT+1)), "    ", text)
}

// printTargetHeads prints each target's head after second t, when the run follows one: as
// printHead does for one target, every engine.HeadWindow seconds, by letter:
//
//	⟶ 10.0s heads A 20,123,456, B 20,123,450 (stale)
func (p *LinePrinter) printTargetHeads(targets []*engine.Stats, seconds []*engine.Row, t int) {
	var parts []string
	for i, r := range seconds {
		if targets[i].Head == nil || r == nil || r.Head == nil {
			continue
		}
		part := targetLetter(i) + " " + runtext.HeadNumber(*r.Head)
		if r.HeadStale {
			part += " (stale)"
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 || (p.headShown && t-p.headAt < engine.HeadWindow) {
		return
	}
	p.headAt, p.headShown = t, true
	p.w.Paragraph(fmt.Sprintf("  ⟶ %.1fs ", float64(t+1)), "    ", "heads "+strings.Join(parts, ", "))
}
