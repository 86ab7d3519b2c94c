package thresholds

import (
	"github.com/rpcstress/rpcstress/engine"
)

// The subscriptions' metrics ([[subscribe]]): judged on the run's Snapshot.Subscriptions, all
// tables together (counts summed, the worst p99 of any), for the whole run only.
//
//	sub_gaps = "== 0"            # newHeads numbers skipped within a subscription
//	sub_spread_p99 = "< 200ms"   # the fan-out spread of each event, worst table
//	sub_disconnects = "< 1%"     # a share of the subscriptions made
var subMetrics = []metric{
	subCount("sub_gaps", "newHeads skipped within a subscription (a share: of the notifications)", true,
		func(t engine.SubsTotal) int64 { return t.Gaps }, notifications),
	subCount("sub_duplicates", "newHeads received twice (a share: of the notifications)", true,
		func(t engine.SubsTotal) int64 { return t.Duplicates }, notifications),
	subCount("sub_disconnects", "subscriptions dropped under the run (a share: of those made)", false,
		func(t engine.SubsTotal) int64 { return t.Disconnects }, func(t engine.SubsTotal) int64 { return t.Subscribes }),
	subCount("sub_refused", "subscribe calls refused (a share: of those sent)", false,
		func(t engine.SubsTotal) int64 { return t.Refused }, func(t engine.SubsTotal) int64 { return t.Subscribes + t.Refused }),
	subCount("sub_subscribed", "subscribers holding a subscription at the end (a share: of those asked for)", false,
		func(t engine.SubsTotal) int64 { return int64(t.Subscribed) }, func(t engine.SubsTotal) int64 { return int64(t.Subscribers) }),
	subLatency("sub_spread_p99", "the fan-out spread's p99, worst subscription", func(t engine.SubsTotal) float64 { return t.SpreadP99 }, false),
	subLatency("sub_lag_p99", "newHeads' lag behind their block's timestamp, p99", func(t engine.SubsTotal) float64 { return t.LagP99 }, true),
	subLatency("sub_subscribe_p99", "the time to subscribe, p99", func(t engine.SubsTotal) float64 { return t.SubscribeP99 }, false),
	{name: "sub_rate", kind: rate, about: "notifications received per second, all subscriptions",
		snap: func(s *engine.Snapshot) (float64, int64, int64, string) {
			t, why := subsOf(s, false)
			return t.Rate, 0, 0, why
		}},
}

func notifications(t engine.SubsTotal) int64 { return t.Notifications }

// IsSubMetric reports whether metric name measures the subscriptions: the whole run's only,
// and only of a profile with [[subscribe]] tables (NeedsHeads: with a newHeads one).
func IsSubMetric(name string) bool {
	m, ok := lookup(name)
	return ok && m.snap != nil
}

// NeedsHeads: see IsSubMetric.
func NeedsHeads(name string) bool {
	for _, n := range []string{"sub_gaps", "sub_duplicates", "sub_lag_p99"} {
		if n == name {
			return true
		}
	}
	return false
}

func subCount(name, about string, heads bool, count, of func(engine.SubsTotal) int64) metric {
	return metric{name: name, kind: share, about: about,
		snap: func(s *engine.Snapshot) (float64, int64, int64, string) {
			t, why := subsOf(s, heads)
			return 0, count(t), of(t), why
		}}
}

func subLatency(name, about string, pick func(engine.SubsTotal) float64, heads bool) metric {
	return metric{name: name, kind: latency, about: about,
		snap: func(s *engine.Snapshot) (float64, int64, int64, string) {
			t, why := subsOf(s, heads)
			return pick(t), 0, 0, why
		}}
}

// subsOf sums up the run's subscriptions, or says why there is nothing to judge.
func subsOf(s *engine.Snapshot, heads bool) (engine.SubsTotal, string) {
	t := engine.TotalOf(s.Subscriptions)
	switch {
	case len(s.Subscriptions) == 0:
		return t, "the run held no subscriptions"
	case heads && !t.HasHeads:
		return t, "the run held no newHeads subscription"
	}
	return t, ""
}

// evaluateSnap judges a metric of the whole run's snapshot (the subscriptions').
func evaluateSnap(t Threshold, s *engine.Snapshot, m metric, r engine.ThresholdResult) engine.ThresholdResult {
	v, count, of, why := m.snap(s)
	switch {
	case t.Stage > 0:
		r.Note = m.name + " is judged on the whole run, not per stage"
		return r
	case why != "":
		r.Note = why
		return r
	case m.kind == share && t.Unit == UnitPct && of == 0:
		r.Note = "nothing to take a share of"
		return r
	case m.kind == share && t.Unit == UnitCount:
		r.Measured = float64(count)
	case m.kind == share:
		r.Measured = round(100 * float64(count) / float64(of))
	default:
		r.Measured = v
	}
	r.Pass, r.Margin = compare(r.Measured, t.Op, t.Bound)
	return r
}
