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
// cost_accepted (cost units per second); a watched run has the node's columns last
// (watchColumns). A second without answers has empty latency cells; a last row that holds
// nothing is left out.
func WriteCSV(w io.Writer, s *engine.Snapshot) error {
	if s == nil {
		return errors.New("write csv: no snapshot to report")
	}
	statuses, errs, rpcs := timelineKeys(s)
	calls := s.Totals.Calls.Sent > 0
	header := []string{"t", "stage", "target_rate", "rps", "ok", "limited", "failed"}
	if calls {
		header = append(header, "calls_ok", "calls_limited", "calls_failed")
	}
	checks := checkColumnsOf(&s.Totals)
	if checks.rules {
		header = append(header, "invalid")
	}
	if checks.costs {
		header = append(header, "cost_offered", "cost_accepted")
	}
	for _, k := range statuses {
		header = append(header, "status_"+k)
	}
	for _, k := range errs {
		header = append(header, "err_"+k)
	}
	for _, k := range rpcs {
		header = append(header, "rpc_"+k)
	}
	header = append(header, "inflight", "dropped", "p50_ms", "p90_ms", "p99_ms", "max_ms", "bytes_in", "saturated")
	header = append(header, watchColumns(s)...)

	cw := csv.NewWriter(w)
	if err := cw.Write(safeRecord(header)); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	rec := make([]string, 0, len(header))
	for _, r := range runtext.ReportedRows(s.Timeline) {
		rec = append(rec[:0], strconv.Itoa(r.T), strconv.Itoa(r.Stage+1), csvFloat(r.TargetRate),
			csvFloat(r.RPS), textfmt.Int(r.OK), textfmt.Int(r.Limited), textfmt.Int(r.Failed))
		if calls {
			rec = append(rec, textfmt.Int(r.CallsOK), textfmt.Int(r.CallsLimited), textfmt.Int(r.CallsFailed))
		}
		if checks.rules {
			rec = append(rec, textfmt.Int(r.Invalid))
		}
		if checks.costs {
			rec = append(rec, csvFloat(r.CostOffered), csvFloat(r.CostAccepted))
		}
		for _, k := range statuses {
			rec = append(rec, textfmt.Int(r.Status[k]))
		}
		for _, k := range errs {
			rec = append(rec, textfmt.Int(r.Errors[k]))
		}
		for _, k := range rpcs {
			rec = append(rec, textfmt.Int(r.RPCErrors[k]))
		}
		saturated := "0"
		if r.Saturated {
			saturated = "1"
		}
		// A second without answers has no latency: an empty cell, which a spreadsheet leaves
		// out of a chart or an average, where 0 would read as instant answers.
		p50, p90, p99, pmax := "", "", "", ""
		if runtext.RowAnswered(&r) > 0 {
			p50, p90, p99, pmax = csvFloat(r.Latency.P50), csvFloat(r.Latency.P90), csvFloat(r.Latency.P99), csvFloat(r.Latency.Max)
		}
		rec = append(rec, textfmt.Int(r.Inflight), textfmt.Int(r.Dropped), p50, p90, p99, pmax,
			textfmt.Int(r.BytesIn), saturated)
		rec = append(rec, watchCells(s, &r)...)
		if err := cw.Write(safeRecord(rec)); err != nil {
			return fmt.Errorf("write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write csv: %w", err)
	}
	return nil
}

// safeRecord makes each cell safe to show (safetext) in place: a column is named after a status,
// error class or RPC code read from the snapshot, and a CSV file is often read with cat.
func safeRecord(rec []string) []string {
	for i, c := range rec {
		rec[i] = safetext.Line(c)
	}
	return rec
}

// timelineKeys are the status codes, error classes and RPC codes seen in the run, in the order
// the report lists them: codes numerically, classes by name. The totals are read as well as the
// rows, so a run whose timeline was cut short still gets every column its totals name.
func timelineKeys(s *engine.Snapshot) (statuses, errs, rpcs []string) {
	st, er, rp := map[string]int64{}, map[string]int64{}, map[string]int64{}
	collect := func(dst, src map[string]int64) {
		for k := range src {
			dst[k] = 1
		}
	}
	collect(st, s.Totals.Status)
	collect(er, s.Totals.Errors)
	collect(rp, s.Totals.RPCErrors)
	for i := range s.Timeline {
		collect(st, s.Timeline[i].Status)
		collect(er, s.Timeline[i].Errors)
		collect(rp, s.Timeline[i].RPCErrors)
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
