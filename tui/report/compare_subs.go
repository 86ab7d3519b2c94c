package report

import (
	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/tui/textfmt"
)

// subMetrics are what compare shows of a subscription over the run: more notifications is
// better; spread, lag, time to subscribe and every kind of trouble, less.
var subMetrics = []metricOf[engine.SubStats]{
	{"notes/s", HigherIsBetter, func(s *engine.SubStats) float64 { return s.Rate }, textfmt.RPS, nil, nil},
	{"each/s", HigherIsBetter, func(s *engine.SubStats) float64 { return s.PerSubscriber }, textfmt.RPS, nil, nil},
	{"spread p50 ms", LowerIsBetter, func(s *engine.SubStats) float64 { return s.Spread.P50 }, textfmt.Ms, nil, nil},
	{"spread p99 ms", LowerIsBetter, func(s *engine.SubStats) float64 { return s.Spread.P99 }, textfmt.Ms, nil, nil},
	{"lag p99 ms", LowerIsBetter, func(s *engine.SubStats) float64 { return s.Lag.P99 }, textfmt.Ms, nil,
		func(s *engine.SubStats) bool { return s.Lag != nil }},
	{"subscribe p99 ms", LowerIsBetter, func(s *engine.SubStats) float64 { return s.Subscribe.P99 }, textfmt.Ms, nil, nil},
	{"gaps", LowerIsBetter, func(s *engine.SubStats) float64 { return float64(*s.Gaps) }, countText, nil,
		func(s *engine.SubStats) bool { return s.Gaps != nil }},
	{"drops", LowerIsBetter, func(s *engine.SubStats) float64 { return float64(textfmt.SumCounts(s.Disconnects)) }, countText, nil, nil},
	{"refused", LowerIsBetter, func(s *engine.SubStats) float64 { return float64(textfmt.SumCounts(s.Refused)) }, countText, nil, nil},
}

func countText(v float64) string { return textfmt.Int(int64(v)) }

// writeCompareSubs writes, after the totals, a block per subscription of run A against the
// subscription of the same name in the other runs; nothing when run A held none.
func writeCompareSubs(ew *textfmt.Writer, c *Comparison) {
	for _, ref := range c.Runs[0].Snapshot.Subscriptions {
		subs := make([]*engine.SubStats, len(c.Runs))
		for r, run := range c.Runs {
			for i := range run.Snapshot.Subscriptions {
				if s := &run.Snapshot.Subscriptions[i]; s.Name == ref.Name {
					subs[r] = s
				}
			}
		}
		ew.Line("")
		ew.List("", "  ", "Subscription "+ref.Name+"  ("+ref.Method+" "+ref.Params+")")
		for i, t := range fitCompareTables(labels(c.Runs), subs, subMetrics, ew.Width()) {
			if i > 0 {
				ew.Line("")
			}
			ew.Table(t, "  ")
		}
	}
}
