package thresholds

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
)

// answerMetrics measure the comparison of the targets' answers (compare_answers), as shares
// of the requests compared ("< 0.1%") or counts ("== 0"). answers_mismatch counts every
// request whose answers disagreed, an error against a result included: a node that answers
// every call with an error must fail "answers_mismatch == 0". Answers have no stages and
// belong to no one target: these are conditions on the run.
var answerMetrics = []metric{
	{name: "answers_mismatch", kind: share, about: "requests whose answers disagreed (results, or an error against a result)",
		answers: func(c *answers.Counts) int64 { return c.Mismatch + c.ErrorVsResult }},
	{name: "answers_error_vs_result", kind: share, about: "requests one target answered with an error, another with a result",
		answers: func(c *answers.Counts) int64 { return c.ErrorVsResult }},
	{name: "answers_match", kind: share, about: "requests whose answers all matched",
		answers: func(c *answers.Counts) int64 { return c.Match }},
	{name: "answers_head_skew", kind: share, about: "requests whose results differed while the targets' heads did (not comparable)",
		answers: func(c *answers.Counts) int64 { return c.HeadSkew }},
	{name: "answers_incomplete", kind: share, about: "requests a target gave nothing to compare for",
		answers: func(c *answers.Counts) int64 { return c.Incomplete }},
}

// IsAnswers reports whether metric name measures the answers compared: a profile may write it
// only in plain [thresholds], and only when it compares answers.
func IsAnswers(name string) bool {
	m, ok := lookup(name)
	return ok && m.answers != nil
}

// evaluateAnswers judges t on the run's comparison of answers (nil: the run compared none).
func evaluateAnswers(t Threshold, m metric, res *answers.Result) engine.ThresholdResult {
	r := resultOf(t)
	switch {
	case res == nil:
		r.Note = "the run compared no answers (compare_answers was off)"
		return r
	case t.Unit == UnitPct && res.Totals.Compared == 0:
		r.Note = "no answers compared to take a share of"
		return r
	}
	n := m.answers(&res.Totals)
	r.Measured = float64(n)
	if t.Unit == UnitPct {
		r.Measured = round(100 * float64(n) / float64(res.Totals.Compared))
	}
	r.Pass, r.Margin = compare(r.Measured, t.Op, t.Bound)
	return r
}
