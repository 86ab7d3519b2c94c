package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/internal/safetext"
	"github.com/rpcstress/rpcstress/tui/runtext"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// WriteCSV writes the run's per-second timeline for a spreadsheet: a header row, then one row a
// second. Besides the fixed columns there is one column per HTTP status seen anywhere in the run
// (status_200, status_429 …), per transport error class (err_timeout …) and per JSON-RPC error
// code (rpc_-32602 …), so every row has the same columns and a missing count is a 0. A run
// that sent JSON-RPC calls has calls_ok, calls_limited and calls_failed after failed; one with
// expect rules then invalid (requests failed by a rule), one with costs cost_offered and
// cost_accepted (cost units per second); a watched run has the node's columns (watchColumns),
// one with subscriptions theirs last (subColumns). A second without answers has empty latency cells; a last row that holds
// nothing is left out.
//
// A run with several targets has a target column first and each target's seconds in turn, in
// the targets' order, with the columns of them all: a spreadsheet filters or pivots by target.
func WriteCSV(w io.Writer, s *engine.Snapshot) error {
	if s == nil {
		return errors.New("write csv: no snapshot to report")
	}
	views, names := []*engine.Snapshot{s}, []string{""}
	if len(s.Targets) > 0 {
		views, names = targetViews(s), s.TargetNames()
	}
	cols := newCSVColumns(views, len(s.Targets) > 0)
	cw := csv.NewWriter(w)
	if err := cw.Write(safeRecord(cols.header())); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	var rec []string
	for i, v := range views {
		for _, r := range runtext.ReportedRows(v.Timeline) {
			rec = cols.record(rec[:0], names[i], v, &r)
			if err := cw.Write(safeRecord(rec)); err != nil {
				return fmt.Errorf("write csv: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// targetViews are the targets of a run with several, each as a run of its own.
func targetViews(s *engine.Snapshot) []*engine.Snapshot {
	views := make([]*engine.Snapshot, len(s.Targets))
	for i := range s.Targets {
		views[i] = s.TargetView(i)
	}
	return views
}

// csvColumns are the columns of a run's CSV: what the runs (a run's targets) have between them.
type csvColumns struct {
	target, calls        bool
	checks               checkColumns
	statuses, errs, rpcs []string
	watch                []string
	subs                 []string // the subscriptions' columns, last (subColumns)
	nSubs                int      // the subscriptions held (the run's, at the top level)
}

func newCSVColumns(views []*engine.Snapshot, target bool) csvColumns {
	c := csvColumns{target: target, watch: watchColumns(views[0]), subs: subColumns(views[0]), nSubs: len(views[0].Subscriptions)}
	c.statuses, c.errs, c.rpcs = timelineKeys(views...)
	for _, v := range views {
		c.calls = c.calls || v.Totals.Calls.Sent > 0
		vc := checkColumnsOf(&v.Totals)
		c.checks.rules, c.checks.costs = c.checks.rules || vc.rules, c.checks.costs || vc.costs
	}
	return c
}

func (c csvColumns) header() []string {
	var header []string
	if c.target {
		header = append(header, "target")
	}
	header = append(header, "t", "stage", "target_rate", "rps", "ok", "limited", "failed")
	if c.calls {
		header = append(header, "calls_ok", "calls_limited", "calls_failed")
	}
	if c.checks.rules {
		header = append(header, "invalid")
	}
	if c.checks.costs {
		header = append(header, "cost_offered", "cost_accepted")
	}
	for _, k := range c.statuses {
		header = append(header, "status_"+k)
	}
	for _, k := range c.errs {
		header = append(header, "err_"+k)
	}
	for _, k := range c.rpcs {
		header = append(header, "rpc_"+k)
	}
	header = append(header, "inflight", "dropped", "p50_ms", "p90_ms", "p99_ms", "max_ms", "bytes_in", "saturated")
	header = append(header, c.watch...)
	return append(header, c.subs...)
}

// record appends the cells of second r of run s (target name, in a run with several) to rec.
func (c csvColumns) record(rec []string, name string, s *engine.Snapshot, r *engine.Row) []string {
	if c.target {
		rec = append(rec, name)
	}
	rec = append(rec, strconv.Itoa(r.T), strconv.Itoa(r.Stage+1), csvFloat(r.TargetRate),
		csvFloat(r.RPS), textfmt.Int(r.OK), textfmt.Int(r.Limited), textfmt.Int(r.Failed))
	if c.calls {
		rec = append(rec, textfmt.Int(r.CallsOK), textfmt.Int(r.CallsLimited), textfmt.Int(r.CallsFailed))
	}
	if c.checks.rules {
		rec = append(rec, textfmt.Int(r.Invalid))
	}
	if c.checks.costs {
		rec = append(rec, csvFloat(r.CostOffered), csvFloat(r.CostAccepted))
	}
	for _, k := range c.statuses {
		rec = append(rec, textfmt.Int(r.Status[k]))
	}
	for _, k := range c.errs {
		rec = append(rec, textfmt.Int(r.Errors[k]))
	}
	for _, k := range c.rpcs {
		rec = append(rec, textfmt.Int(r.RPCErrors[k]))
	}
	saturated := "0"
	if r.Saturated {
		saturated = "1"
	}
	// A second without answers has no latency: an empty cell, which a spreadsheet leaves
	// out of a chart or an average, where 0 would read as instant answers.
	p50, p90, p99, pmax := "", "", "", ""
	if runtext.RowAnswered(r) > 0 {
		p50, p90, p99, pmax = csvFloat(r.Latency.P50), csvFloat(r.Latency.P90), csvFloat(r.Latency.P99), csvFloat(r.Latency.Max)
	}
	rec = append(rec, textfmt.Int(r.Inflight), textfmt.Int(r.Dropped), p50, p90, p99, pmax,
		textfmt.Int(r.BytesIn), saturated)
	rec = append(rec, watchCells(s, r)...)
	return append(rec, subCells(c.nSubs, r)...)
}

// safeRecord makes each cell safe to show (safetext) in place: a column is named after a status,
// error class or RPC code read from the snapshot, and a CSV file is often read with cat.
func safeRecord(rec []string) []string {
	for i, c := range rec {
		rec[i] = safetext.Line(c)
	}
	return rec
}

// timelineKeys are the status codes, error classes and RPC codes seen in the runs, in the order
// the report lists them: codes numerically, classes by name. The totals are read as well as the
// rows, so a run whose timeline was cut short still gets every column its totals name.
func timelineKeys(runs ...*engine.Snapshot) (statuses, errs, rpcs []string) {
	st, er, rp := map[string]int64{}, map[string]int64{}, map[string]int64{}
	collect := func(dst, src map[string]int64) {
		for k := range src {
			dst[k] = 1
		}
	}
	for _, s := range runs {
		collect(st, s.Totals.Status)
		collect(er, s.Totals.Errors)
		collect(rp, s.Totals.RPCErrors)
		for i := range s.Timeline {
			collect(st, s.Timeline[i].Status)
			collect(er, s.Timeline[i].Errors)
			collect(rp, s.Timeline[i].RPCErrors)
		}
	}
	errs = make([]string, 0, len(er))
	for k := range er {
		errs = append(errs, k)
	}
	sort.Strings(errs)
	return textfmt.SortedCodes(st), errs, textfmt.SortedCodes(rp)
}

// csvFloat writes a number to the microsecond (three decimals of a millisecond: the histograms'
// resolution) and no further, without an exponent, so every spreadsheet takes it as a number.
func csvFloat(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}
