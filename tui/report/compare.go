package report

import (
	"math"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// CompareRun is one run of a comparison: its snapshot and the file it came from.
type CompareRun struct {
	File     string
	Snapshot *engine.Snapshot
	// Label names the run in the tables; "" names it by its place: A, B, C … (a comparison of
	// one target across runs keeps each run's letter, whichever runs have the target).
	Label string
}

// label is how run i of a comparison is named.
func (r CompareRun) label(i int) string {
	if r.Label != "" {
		return r.Label
	}
	return runLabel(i)
}

// labels name the runs of a comparison, in order.
func labels(runs []CompareRun) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = r.label(i)
	}
	return out
}

// Comparison lines up the stages of several runs against the first (the reference): stage by
// stage by planned rate, so that runs of different plans still compare where they overlap.
type Comparison struct {
	Runs []CompareRun
	// Stages follow the reference's stages in order; Stages[i].Index[r] is run r's matching
	// stage, or -1 when run r has no stage at that rate.
	Stages []StageMatch
	// Extra are the stages of the other runs that match no stage of the reference.
	Extra []StageRef
	// ByPosition says stages were matched by position, not rate: closed-loop runs have no rate.
	ByPosition bool
}

// StageMatch is one stage of the reference run and the stages of the other runs at its rate.
type StageMatch struct {
	Rate  engine.Rate
	Index []int
}

// StageRef names one stage of one run.
type StageRef struct {
	Run, Stage int
}

// rateTolerance is how far apart two planned rates may be and still be "the same stage": 1 %,
// enough for rates written differently (240/m and 4/s) or rounded by --shard, not enough to
// pair neighbouring steps of any sensible ramp.
const rateTolerance = 0.01

// NewComparison matches the stages of every run against the first run's.
func NewComparison(runs []CompareRun) Comparison {
	c := Comparison{Runs: runs}
	if len(runs) == 0 {
		return c
	}
	for _, r := range runs {
		if r.Snapshot.Mode == engine.ModeClosed {
			c.ByPosition = true
		}
	}
	ref := runs[0].Snapshot.Stages
	c.Stages = make([]StageMatch, len(ref))
	for i, st := range ref {
		c.Stages[i] = StageMatch{Rate: st.Spec.Rate, Index: make([]int, len(runs))}
		c.Stages[i].Index[0] = i
	}
	for r := 1; r < len(runs); r++ {
		match, extra := matchStages(ref, runs[r].Snapshot.Stages, c.ByPosition)
		for i, j := range match {
			c.Stages[i].Index[r] = j
		}
		for _, j := range extra {
			c.Extra = append(c.Extra, StageRef{Run: r, Stage: j})
		}
	}
	return c
}

// matchStages pairs each stage of ref, in order, with the stage of other at the closest planned
// rate within rateTolerance that is not taken yet (the earliest on a tie, so a plan that visits
// a rate twice pairs first with first). match[i] is ref stage i's partner or -1; extra lists
// other's stages left without one. By position, stage i pairs with stage i.
func matchStages(ref, other []engine.StageStats, byPosition bool) (match, extra []int) {
	match = make([]int, len(ref))
	used := make([]bool, len(other))
	for i := range ref {
		match[i] = -1
		if byPosition {
			if i < len(other) {
				match[i], used[i] = i, true
			}
			continue
		}
		best, bestDiff := -1, math.Inf(1)
		for j := range other {
			if used[j] || !sameRate(ref[i].Spec.Rate, other[j].Spec.Rate) {
				continue
			}
			if d := math.Abs(float64(ref[i].Spec.Rate - other[j].Spec.Rate)); d < bestDiff {
				best, bestDiff = j, d
			}
		}
		if best >= 0 {
			match[i], used[best] = best, true
		}
	}
	for j, u := range used {
		if !u {
			extra = append(extra, j)
		}
	}
	return match, extra
}

// sameRate says whether two planned rates are within rateTolerance of each other.
func sameRate(a, b engine.Rate) bool {
	x, y := float64(a), float64(b)
	return math.Abs(x-y) <= rateTolerance*math.Max(math.Abs(x), math.Abs(y))
}

// Direction says which way a metric gets better.
type Direction int

// Directions of metrics.
const (
	HigherIsBetter Direction = 1  // throughput, successful answers
	LowerIsBetter  Direction = -1 // latency, rate-limited, failed, errors, dropped
	// NotJudged: a breakdown of answers judged on another line (JSON-RPC errors are limited
	// or failed answers), shown with its change but no verdict.
	NotJudged Direction = 0
)

// Verdict says whether a run did better or worse than the reference on one metric.
type Verdict int

// Verdicts; Same means the numbers read the same as printed.
const (
	Same Verdict = iota
	Better
	Worse
)

// metricOf is one line of a comparison block: how to read it from what the block compares (a
// stage's summary, a watched process over a stage), how to print it, and which way is better.
type metricOf[T any] struct {
	Name   string
	Better Direction
	Value  func(*T) float64
	Format func(float64) string
	// Delta writes a difference; nil: as Format writes a value.
	Delta func(float64) string
	// Has says a summary has the metric at all (nil: every one has): a run without expect
	// rules has no invalid count, one without costs no cost rate, and a 0 would read as one.
	Has func(*T) bool
}

// compareMetric is a line of the blocks of summaries: the totals and each stage.
type compareMetric = metricOf[engine.Summary]

func formatCount(v float64) string { return textfmt.Int(int64(math.Round(v))) }

// formatSharePct writes a share in percent; formatPoints a difference of shares, in points.
func formatSharePct(v float64) string { return textfmt.Percent(v) }
func formatPoints(v float64) string   { return textfmt.TrimZeros(textfmt.Sig(v, 3, 2)) + " pt" }

// rpcErrorShare is the JSON-RPC errors' share of the calls answered: they are counted per call,
// and a batch of three limited over WebSocket has three, so a share of the requests went past
// 100 %. A run that counted no calls (no JSON-RPC bodies) has its requests as the calls.
func rpcErrorShare(s *engine.Summary) float64 {
	calls := s.Calls.Completed()
	if s.Calls.Sent == 0 {
		calls = s.Completed
	}
	return shareOf(textfmt.SumCounts(s.RPCErrors), calls)
}

// shareOf is n as a percentage of total; 0 of nothing is 0.
func shareOf(n, total int64) float64 {
	if total <= 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}

// compareMetrics are what compare shows for each stage and for the totals: the rate achieved,
// the latency people quote, and how the answers went. Answers are judged by their outcome (ok,
// limited, failed), never by their HTTP status: a 200 carrying a limiter's -32005 (every
// limited answer over WebSocket, many providers' over HTTP) is limited, so "2xx, higher is
// better" called a WebSocket run better than the same answers over HTTP, and its JSON-RPC
// errors (the same -32005s, judged limited already) worse.
var compareMetrics = []compareMetric{
	{"rps", HigherIsBetter, func(s *engine.Summary) float64 { return s.RPS }, textfmt.RPS, nil, nil},
	{"p50 ms", LowerIsBetter, func(s *engine.Summary) float64 { return s.Latency.P50 }, textfmt.Ms, nil, nil},
	{"p90 ms", LowerIsBetter, func(s *engine.Summary) float64 { return s.Latency.P90 }, textfmt.Ms, nil, nil},
	{"p99 ms", LowerIsBetter, func(s *engine.Summary) float64 { return s.Latency.P99 }, textfmt.Ms, nil, nil},
	{"ok", HigherIsBetter, func(s *engine.Summary) float64 { return float64(s.OK) }, formatCount, nil, nil},
	{"limited", LowerIsBetter, func(s *engine.Summary) float64 { return float64(s.Limited) }, formatCount, nil, nil},
	{"failed", LowerIsBetter, func(s *engine.Summary) float64 { return float64(s.Failed) }, formatCount, nil, nil},
	{"rpc errors", NotJudged, func(s *engine.Summary) float64 { return float64(textfmt.SumCounts(s.RPCErrors)) }, formatCount, nil, nil},
	{"dropped", LowerIsBetter, func(s *engine.Summary) float64 { return float64(s.Dropped) }, formatCount, nil, nil},
}

// shareMetrics stand for the counts of compareMetrics when the runs' durations differ: a stage
// that ran 6.2 s has fewer answers than one that ran 8.1 s, whatever the node did, so counts
// would call the shorter run worse. Shares are of the answers; dropped is of the scheduled.
var shareMetrics = []compareMetric{
	{"ok %", HigherIsBetter, func(s *engine.Summary) float64 { return shareOf(s.OK, s.Completed) }, formatSharePct, formatPoints, nil},
	{"limited %", LowerIsBetter, func(s *engine.Summary) float64 { return shareOf(s.Limited, s.Completed) }, formatSharePct, formatPoints, nil},
	{"failed %", LowerIsBetter, func(s *engine.Summary) float64 { return shareOf(s.Failed, s.Completed) }, formatSharePct, formatPoints, nil},
	{"rpc errors %", NotJudged, rpcErrorShare, formatSharePct, formatPoints, nil},
	{"dropped %", LowerIsBetter, func(s *engine.Summary) float64 { return shareOf(s.Dropped, s.Scheduled) }, formatSharePct, formatPoints, nil},
}

// rateMetrics is how many of compareMetrics are rates and latencies, the same whatever a run's
// duration; the rest are counts.
const rateMetrics = 4

// blockMetrics are the metrics of one block: counts when the runs lasted as long, shares when
// not (see shareMetrics); then, when a run has them, the answers that broke expect rules and
// the cost units answered ok per second.
func blockMetrics(byShare bool, sums []*engine.Summary) []compareMetric {
	out := compareMetrics
	if byShare {
		out = append(append([]compareMetric(nil), compareMetrics[:rateMetrics]...), shareMetrics...)
	}
	rules, costs := false, false
	for _, s := range sums {
		rules = rules || s != nil && s.Expect != nil
		costs = costs || s != nil && s.Cost != nil
	}
	if rules {
		m := invalidMetric
		if byShare {
			m = invalidShareMetric
		}
		out = append(append([]compareMetric(nil), out...), m)
	}
	if costs {
		out = append(append([]compareMetric(nil), out...), costRateMetric)
	}
	return out
}

func hasRules(s *engine.Summary) bool { return s.Expect != nil }
func hasCosts(s *engine.Summary) bool { return s.Cost != nil }

// invalidMetric is the answers that broke an expect rule (among failed); invalidShareMetric
// its share of the answers, for runs that lasted differently; costRateMetric the cost units
// answered ok per second: more is more of the provider's work served, like rps.
var (
	invalidMetric = compareMetric{Name: "invalid", Better: LowerIsBetter, Format: formatCount, Has: hasRules,
		Value: func(s *engine.Summary) float64 { return float64(s.Expect.Invalid) }}
	invalidShareMetric = compareMetric{Name: "invalid %", Better: LowerIsBetter, Format: formatSharePct, Delta: formatPoints, Has: hasRules,
		Value: func(s *engine.Summary) float64 { return shareOf(s.Expect.Invalid, s.Completed) }}
	costRateMetric = compareMetric{Name: "cost/s", Better: HigherIsBetter, Format: textfmt.RPS, Has: hasCosts,
		Value: func(s *engine.Summary) float64 { return s.Cost.AcceptedRate }}
)

// durationTolerance is how far apart two runs' durations may be and their counts still compare:
// 2 %, more than a stage's span varies between runs of one plan (its first and last answers).
const durationTolerance = 0.02

// durationsDiffer says whether the spans (seconds, 0: the run has no such block) are too far
// apart for counts to compare.
func durationsDiffer(secs []float64) bool {
	lo, hi := math.Inf(1), 0.0
	for _, s := range secs {
		if s > 0 {
			lo, hi = math.Min(lo, s), math.Max(hi, s)
		}
	}
	return hi > 0 && hi > lo*(1+durationTolerance)
}

// Delta is how one run's number differs from the reference's.
type Delta struct {
	Abs     float64 // value − reference
	Pct     float64 // Abs as a percentage of the reference; NaN when the reference is 0
	Verdict Verdict
}

// noisePct is the smallest change compare calls better or worse: two runs of the same node are
// never identical to the last digit, and a mark on every 0.3 % wobble would hide the real ones.
const noisePct = 1.0

// compareValue is the delta of v against ref for metric m. Numbers that print the same are the
// same (Abs 0); a change under noisePct of a non-zero reference is shown but not judged. From
// zero, any change is judged: the first failures are news.
func compareValue[T any](m metricOf[T], ref, v float64) Delta {
	d := Delta{Abs: v - ref, Pct: math.NaN()}
	if ref != 0 {
		d.Pct = 100 * (v - ref) / math.Abs(ref)
	}
	switch {
	case m.Format(ref) == m.Format(v):
		d.Abs = 0
		if ref != 0 {
			d.Pct = 0
		}
		return d
	case ref != 0 && math.Abs(d.Pct) < noisePct, m.Better == NotJudged:
		return d
	case (v > ref) == (m.Better == HigherIsBetter):
		d.Verdict = Better
	default:
		d.Verdict = Worse
	}
	return d
}
