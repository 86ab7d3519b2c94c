// Package thresholds judges a finished run against a profile's [thresholds], k6-style: each
// condition ("p99 < 50ms", "limited < 1%", "rps > 950") holds or fails, for the whole run or for
// one stage, and `rpcstress` exits 1 when one fails, so a CI job can gate on a node's numbers.
//
// Parse reads one condition (package profiles adds the file and line to its errors); Evaluate
// holds a snapshot against a list of them. A condition that cannot be measured (a stage that
// never ran, a latency with no answers) fails with a note: never a silent pass.
package thresholds

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
)

// Units of a bound and of the measured value.
const (
	UnitMs        = "ms"
	UnitPct       = "%"
	UnitCount     = "count"
	UnitPerSecond = "/s"
)

// kind is what a metric measures, which decides how its bound is written.
type kind int

const (
	latency kind = iota // a duration: "< 50ms"
	share               // a percentage of completed ("< 1%") or a count ("== 0")
	rate                // per second: "> 950" or "> 950/s"
)

// metric is one name a threshold may use.
type metric struct {
	name string
	kind kind
	pick func(*engine.Summary) float64 // latency (ms) or rate; counts use count
	// count is the numerator of a share; of is its denominator.
	count func(*engine.Summary) int64
	of    func(*engine.Summary) int64
	about string
	// missing says why a run cannot be measured on it ("" when it can): a run whose requests
	// have no expect rules has no invalid count, one without costs no cost rate.
	missing func(*engine.Summary) string
	// answers is the numerator of a share of the answers compared (answerMetrics): the metric
	// measures the run's comparison of its targets' answers, not a summary.
	answers func(*answers.Counts) int64
	// snap, for a metric of the whole run's snapshot (subs.go), gives its value, or its count
	// and what that is a share of, or why the run cannot be judged on it.
	snap func(*engine.Snapshot) (v float64, count, of int64, missing string)
}

func completed(s *engine.Summary) int64 { return s.Completed }

// metrics are the names [thresholds] accepts: the latency figures (their keys are
// engine.PercentileFigures: p50 … p999, min, max, mean), then the shares and the rate, then the
// answers compared (answerMetrics). Latency is from the intended send time, of all answers, as
// everywhere in rpcstress.
var metrics = slices.Concat(latencyMetrics(), []metric{
	{name: "ok", kind: share, count: func(s *engine.Summary) int64 { return s.OK }, of: completed, about: "successful answers"},
	{name: "limited", kind: share, count: func(s *engine.Summary) int64 { return s.Limited }, of: completed, about: "rate-limited answers"},
	{name: "failed", kind: share, count: func(s *engine.Summary) int64 { return s.Failed }, of: completed, about: "failed answers"},
	{name: "dropped", kind: share, count: func(s *engine.Summary) int64 { return s.Dropped }, of: func(s *engine.Summary) int64 { return s.Scheduled }, about: "requests the tester could not send (share of scheduled)"},
	{name: "rps", kind: rate, pick: func(s *engine.Summary) float64 { return s.RPS }, about: "answers completed per second"},
	{name: "invalid", kind: share, count: func(s *engine.Summary) int64 { return s.Expect.Invalid }, of: completed,
		about: "answers whose result broke an expect rule (among failed)", missing: func(s *engine.Summary) string {
			if s.Expect == nil {
				return "the run checked no answers (no request has expect rules)"
			}
			return ""
		}},
	{name: "cost_rate", kind: rate, pick: func(s *engine.Summary) float64 { return s.Cost.AcceptedRate },
		about: "cost units answered ok per second", missing: func(s *engine.Summary) string {
			if s.Cost == nil {
				return "the run counted no cost (no request has a cost)"
			}
			return ""
		}},
}, answerMetrics)

// NeedsRules reports whether metric name measures what expect rules find, NeedsCosts whether
// it measures costs: a profile without them cannot be judged on it.
func NeedsRules(name string) bool { return name == "invalid" }

// NeedsCosts: see NeedsRules.
func NeedsCosts(name string) bool { return name == "cost_rate" }

// latencyMetrics are one metric per figure of the latency's engine.Percentiles.
func latencyMetrics() []metric {
	var out []metric
	for _, f := range engine.PercentileFigures() {
		out = append(out, metric{name: f.Key, kind: latency, about: f.Key + " latency",
			pick: func(s *engine.Summary) float64 { v, _ := s.Latency.Get(f.Key); return v }})
	}
	return out
}

// Metrics are the names a threshold may use, for "did you mean" hints and the README.
func Metrics() []string {
	out := make([]string, 0, len(metrics)+len(subMetrics))
	for _, m := range append(metrics[:len(metrics):len(metrics)], subMetrics...) {
		out = append(out, m.name)
	}
	return out
}

func lookup(name string) (metric, bool) {
	for _, m := range append(metrics[:len(metrics):len(metrics)], subMetrics...) {
		if m.name == name {
			return m, true
		}
	}
	return metric{}, false
}

// Threshold is one parsed condition.
type Threshold struct {
	Metric string
	// Stage is 0 for the whole run, else the 1-based stage it applies to.
	Stage int
	// Target names the target of [thresholds.target.NAME]; "" (plain [thresholds]) judges
	// every target of a run with several, each apart.
	Target string
	Op     string // <, <=, >, >=, ==
	Bound  float64
	Unit   string
	// Condition is the bound as written ("< 50ms"); Where its file:line.
	Condition string
	Where     string
}

// Label names the threshold for people: "p99", "stage 2 rps", "geth: stage 2 rps".
func (t Threshold) Label() string {
	l := t.Metric
	if t.Stage > 0 {
		l = "stage " + strconv.Itoa(t.Stage) + " " + t.Metric
	}
	if t.Target != "" {
		l = t.Target + ": " + l
	}
	return l
}

// ops in the order they must be tried (two-character ones first).
var ops = []string{"<=", ">=", "==", "<", ">"}

// IsMetric reports whether name is a metric a threshold may use.
func IsMetric(name string) bool {
	_, ok := lookup(name)
	return ok
}

// Parse reads one condition of metric name, e.g. Parse("p99", "< 50ms"). Its errors say what
// to write instead; the caller adds where.
func Parse(name, cond string) (Threshold, error) {
	m, ok := lookup(name)
	if !ok {
		return Threshold{}, fmt.Errorf("unknown metric: use one of %s", strings.Join(Metrics(), ", "))
	}
	t := Threshold{Metric: name, Condition: strings.TrimSpace(cond)}
	rest := t.Condition
	for _, op := range ops {
		if r, found := strings.CutPrefix(rest, op); found {
			t.Op, rest = op, strings.TrimSpace(r)
			break
		}
	}
	example := exampleFor(m)
	switch {
	case t.Op == "" && strings.HasPrefix(rest, "="):
		return t, fmt.Errorf("%q: equality is written ==, e.g. %s = \"== 0\"", cond, name)
	case t.Op == "":
		return t, fmt.Errorf("%q has no comparison: write it as %s = %q (operators: <, <=, >, >=, ==)", cond, name, example)
	case rest == "":
		return t, fmt.Errorf("%q has no bound after %s: write e.g. %s = %q", cond, t.Op, name, example)
	}
	var err error
	switch m.kind {
	case latency:
		t.Unit = UnitMs
		t.Bound, err = parseLatency(rest, name)
	case share:
		t.Bound, t.Unit, err = parseShare(rest, name)
	case rate:
		t.Unit = UnitPerSecond
		t.Bound, err = parseRate(rest, m)
	}
	if err != nil {
		return t, err
	}
	return t, nil
}

func exampleFor(m metric) string {
	switch m.kind {
	case latency:
		return "< 50ms"
	case share:
		if m.name == "ok" || m.name == "answers_match" {
			return "> 99%"
		}
		return "< 1%"
	}
	if m.name == "cost_rate" {
		return "< 5000"
	}
	return "> 950"
}

func parseLatency(v, name string) (float64, error) {
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return 0, fmt.Errorf("%q has no unit: write it as a duration, e.g. %s = \"< %sms\" (units: us, ms, s)", v, name, v)
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration: write e.g. %s = \"< 50ms\" (units: us, ms, s)", v, name)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative: a latency is 0 or more", v)
	}
	return float64(d) / float64(time.Millisecond), nil
}

func parseShare(v, name string) (float64, string, error) {
	if num, ok := strings.CutSuffix(v, "%"); ok {
		p, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil || math.IsNaN(p) || math.IsInf(p, 0) {
			return 0, "", fmt.Errorf("%q is not a percentage: write e.g. %s = \"< 1%%\"", v, name)
		}
		if p < 0 || p > 100 {
			return 0, "", fmt.Errorf("%q is out of range: a share is from 0%% to 100%%", v)
		}
		return p, UnitPct, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, "", fmt.Errorf("%q is neither a share nor a count: write a percentage (%s = \"< 1%%\") or a whole number of answers (%s = \"== 0\")", v, name, name)
	}
	return float64(n), UnitCount, nil
}

func parseRate(v string, m metric) (float64, error) {
	if strings.HasSuffix(v, "%") {
		return 0, fmt.Errorf("%q: %s is %s, not a share: write e.g. %s = %q", v, m.name, m.about, m.name, exampleFor(m))
	}
	r, err := engine.ParseRate(v)
	if err != nil {
		return 0, errors.New(strings.TrimPrefix(err.Error(), "rate "))
	}
	return float64(r), nil
}

// evaluate judges t on a run of one target (a target's view of a run with several).
func evaluate(t Threshold, s *engine.Snapshot) engine.ThresholdResult {
	r := resultOf(t)
	if m, _ := lookup(t.Metric); m.snap != nil {
		return evaluateSnap(t, s, m, r)
	}
	sum := &s.Totals
	if t.Stage > 0 {
		if t.Stage > len(s.Stages) {
			r.Note = fmt.Sprintf("stage %d did not run (the run has %d)", t.Stage, len(s.Stages))
			return r
		}
		sum = &s.Stages[t.Stage-1].Summary
	}
	m, _ := lookup(t.Metric)
	if m.missing != nil {
		if r.Note = m.missing(sum); r.Note != "" {
			return r
		}
	}
	switch {
	case m.kind == latency && sum.Completed == 0:
		r.Note = "no answers to measure a latency on"
		return r
	case m.kind == share && t.Unit == UnitPct && m.of(sum) == 0:
		r.Note = "no answers to take a share of"
		if t.Metric == "dropped" {
			r.Note = "no requests scheduled to take a share of"
		}
		return r
	case m.kind == rate && sum.Completed == 0:
		r.Note = "no answers"
		return r
	}
	switch {
	case m.kind == share && t.Unit == UnitCount:
		r.Measured = float64(m.count(sum))
	case m.kind == share:
		r.Measured = round(100 * float64(m.count(sum)) / float64(m.of(sum)))
	default:
		r.Measured = m.pick(sum)
	}
	r.Pass, r.Margin = compare(r.Measured, t.Op, t.Bound)
	return r
}

// resultOf is t's verdict before it is judged: the condition as written, not yet passed.
func resultOf(t Threshold) engine.ThresholdResult {
	return engine.ThresholdResult{Metric: t.Metric, Stage: t.Stage, Condition: t.Condition, Op: t.Op, Bound: t.Bound,
		Unit: t.Unit, Where: t.Where, Target: t.Target, Targeted: t.Target != ""}
}

// compare applies op and says by how much the value is inside the bound (negative: outside).
func compare(v float64, op string, bound float64) (bool, float64) {
	switch op {
	case "<":
		return v < bound, round(bound - v)
	case "<=":
		return v <= bound, round(bound - v)
	case ">":
		return v > bound, round(v - bound)
	case ">=":
		return v >= bound, round(v - bound)
	}
	if v == bound {
		return true, 0 // not -0, which JSON would write as "-0"
	}
	return false, -round(math.Abs(v - bound))
}

func round(v float64) float64 { return math.Round(v*1000) / 1000 }

// Failed counts the thresholds that did not hold.
func Failed(rs []engine.ThresholdResult) int {
	n := 0
	for _, r := range rs {
		if !r.Pass {
			n++
		}
	}
	return n
}

// FromSnapshots rebuilds the thresholds the runs were judged by from their verdicts, so that a
// merge of shards can judge the merged run again: a snapshot keeps each condition as written,
// with its stage and file:line, but not the profile's [thresholds] table itself. A condition
// found in several runs is taken once, in the order first seen.
func FromSnapshots(snaps []*engine.Snapshot) ([]Threshold, error) {
	var out []Threshold
	seen := map[string]bool{}
	for _, s := range snaps {
		for _, r := range s.Thresholds {
			target := "" // a plain condition judged on each target is one condition
			if r.Targeted {
				target = r.Target
			}
			key := fmt.Sprintf("%d\x00%s\x00%s\x00%s", r.Stage, r.Metric, r.Condition, target)
			if seen[key] {
				continue
			}
			seen[key] = true
			t, err := Parse(r.Metric, r.Condition)
			if err != nil {
				return nil, fmt.Errorf("threshold %s = %q (%s): %w", r.Metric, r.Condition, r.Where, err)
			}
			t.Stage, t.Where, t.Target = r.Stage, r.Where, target
			out = append(out, t)
		}
	}
	return out, nil
}
