package engine

import (
	"fmt"
	"time"
)

// Merging the subscriptions of shards (rpcstress merge): each subscription, by name, sums its
// counts over the shards and takes its percentiles from its merged histograms (histSeries, as
// the run's), so they are exact. Each shard's subscribers are its own: they add up. An event
// (a head) is the same on every shard, so the run's distinct events are the most a shard saw,
// and a spread is each shard's own (the shards' clocks are apart: a spread across machines
// would measure their clocks).

// mergeSubs merges the shards' subscriptions over the merged run's wall time; nil when none
// held any. A subscription saved without histograms (before they were kept) cannot be merged
// exactly: it is refused, as runs without histograms are.
func mergeSubs(snaps []*Snapshot, names []string, wall time.Duration) ([]SubStats, error) {
	var order []string
	byName := map[string]*subMerge{}
	for i, s := range snaps {
		for k := range s.Subscriptions {
			sub := &s.Subscriptions[k]
			m := byName[sub.Name]
			if m == nil {
				m = &subMerge{}
				byName[sub.Name] = m
				order = append(order, sub.Name)
			}
			if err := m.add(sub); err != nil {
				return nil, fmt.Errorf("%s: subscription %s: %w", names[i], sub.Name, err)
			}
		}
	}
	var out []SubStats
	for _, name := range order {
		st, err := byName[name].total(wall)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// subMerge is one subscription's shards added up.
type subMerge struct {
	sum                      SubStats
	shards                   int
	dial                     SummarySum // the dials, weighted as a run's connections are
	subscribe, spread, lag   histSeries
	gaps, dups, reorgs, gapS int64
	heads                    bool
}

// add adds one shard's subscription.
func (m *subMerge) add(s *SubStats) error {
	if s.Histograms == nil {
		return fmt.Errorf("saved without histograms: it cannot be merged exactly")
	}
	if err := m.subscribe.add(HistogramSet{Total: s.Histograms.Subscribe}, "subscribe"); err != nil {
		return err
	}
	if err := m.spread.add(HistogramSet{Total: s.Histograms.Spread}, "spread"); err != nil {
		return err
	}
	if err := m.lag.add(HistogramSet{Total: s.Histograms.Lag}, "lag"); err != nil {
		return err
	}
	t := &m.sum
	if m.shards == 0 {
		t.Name, t.Method, t.Params, t.Target = s.Name, s.Method, s.Params, s.Target
		t.LeastPerSubscriber = s.LeastPerSubscriber
		t.RefusedMessages = map[string]string{}
	}
	m.shards++
	t.Subscribers += s.Subscribers
	t.Subscribed += s.Subscribed
	addEach([]*int64{&t.Subscribes, &t.Resubscribes, &t.Notifications}, s.Subscribes, s.Resubscribes, s.Notifications)
	t.SubscriberSeconds += s.SubscriberSeconds
	t.Events = max(t.Events, s.Events)
	t.LeastPerSubscriber = min(t.LeastPerSubscriber, s.LeastPerSubscriber)
	t.Refused = addCounts(t.Refused, s.Refused)
	t.DialFailed = addCounts(t.DialFailed, s.DialFailed)
	t.Disconnects = addCounts(t.Disconnects, s.Disconnects)
	for code, msg := range s.RefusedMessages {
		if _, ok := t.RefusedMessages[code]; !ok {
			t.RefusedMessages[code] = msg
		}
	}
	m.dial.Add(Summary{Connections: s.Dial})
	if s.Gaps != nil {
		m.heads = true
		addEach([]*int64{&m.gaps, &m.dups, &m.reorgs, &m.gapS}, *s.Gaps, deref0(s.Duplicates), deref0(s.Reorgs), deref0(s.GapSubscribers))
	}
	return nil
}

// total is the merged subscription, its rate over the merged run's wall time.
func (m *subMerge) total(wall time.Duration) (SubStats, error) {
	t := m.sum
	t.Refused, t.DialFailed, t.Disconnects = mapOrNil(t.Refused), mapOrNil(t.DialFailed), mapOrNil(t.Disconnects)
	if len(t.RefusedMessages) == 0 {
		t.RefusedMessages = nil
	}
	t.Dial = m.dial.Total().Connections
	if wall > 0 {
		t.Rate = roundMs(float64(t.Notifications) / wall.Seconds())
	}
	if t.SubscriberSeconds > 0 {
		t.SubscriberSeconds = roundMs(t.SubscriberSeconds)
		t.PerSubscriber = roundMs(float64(t.Notifications) / t.SubscriberSeconds)
	}
	if m.heads {
		t.Gaps, t.Duplicates, t.Reorgs, t.GapSubscribers = &m.gaps, &m.dups, &m.reorgs, &m.gapS
	}
	t.Subscribe, t.Spread = percentilesOf(m.subscribe.get(-1)), percentilesOf(m.spread.get(-1))
	if h := m.lag.get(-1); h != nil && h.TotalCount() > 0 {
		lag := percentilesOf(h)
		t.Lag = &lag
	}
	var h SubHistograms
	var err error
	for _, e := range []struct {
		dst *string
		s   *histSeries
	}{{&h.Subscribe, &m.subscribe}, {&h.Spread, &m.spread}, {&h.Lag, &m.lag}} {
		var hs HistogramSet
		if hs, err = e.s.encode(0); err != nil {
			return t, fmt.Errorf("encoding subscription %s's merged histograms: %w", t.Name, err)
		}
		*e.dst = hs.Total
	}
	t.Histograms = &h
	return t, nil
}

// addEach adds each of ns to the count dst points to at the same place.
func addEach(dst []*int64, ns ...int64) {
	for i, n := range ns {
		*dst[i] += n
	}
}

func deref0(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// mapOrNil is m, or nil when empty (the JSON leaves it out, as a run's own).
func mapOrNil(m map[string]int64) map[string]int64 {
	if len(m) == 0 {
		return nil
	}
	return m
}

// subRowsSum adds up one second of the shards' subscription rows, by name. Counts add; the
// per-second percentiles have no histogram, so, as a row's latency, they are the mean of the
// shards' weighted by their notifications (an approximation: the run's are exact).
type subRowsSum struct {
	order []string
	rows  map[string]*subRowSum
}

type subRowSum struct {
	row     SubRow
	held    float64 // Σ the subscribers held on average over the second
	weights float64 // Σ the notifications the percentiles are weighted by
}

// add adds a shard's rows of one second.
func (a *subRowsSum) add(rows []SubRow) {
	for _, r := range rows {
		if a.rows == nil {
			a.rows = map[string]*subRowSum{}
		}
		s := a.rows[r.Name]
		if s == nil {
			s = &subRowSum{row: SubRow{Name: r.Name}}
			a.rows[r.Name] = s
			a.order = append(a.order, r.Name)
		}
		s.add(r)
	}
}

func (s *subRowSum) add(r SubRow) {
	t := &s.row
	t.Subscribed += r.Subscribed
	addEach([]*int64{&t.Notifications, &t.Gaps, &t.Duplicates, &t.Disconnects, &t.Resubscribes, &t.Refused, &t.DialFailed},
		r.Notifications, r.Gaps, r.Duplicates, r.Disconnects, r.Resubscribes, r.Refused, r.DialFailed)
	if r.PerSubscriber > 0 {
		s.held += float64(r.Notifications) / r.PerSubscriber
	}
	w, n := s.weights, float64(r.Notifications)
	if n > 0 {
		for _, p := range [][2]*float64{{&t.SpreadP50, &r.SpreadP50}, {&t.SpreadP99, &r.SpreadP99}, {&t.LagP50, &r.LagP50}, {&t.LagP99, &r.LagP99}} {
			*p[0] = (*p[0]*w + *p[1]*n) / (w + n)
		}
		s.weights = w + n
	}
}

// total is the second's rows, in the order the shards had them.
func (a *subRowsSum) total() []SubRow {
	if len(a.order) == 0 {
		return nil
	}
	out := make([]SubRow, 0, len(a.order))
	for _, name := range a.order {
		s := a.rows[name]
		r := s.row
		if s.held > 0 {
			r.PerSubscriber = roundMs(float64(r.Notifications) / s.held)
		}
		r.SpreadP50, r.SpreadP99 = roundMs(r.SpreadP50), roundMs(r.SpreadP99)
		r.LagP50, r.LagP99 = roundMs(r.LagP50), roundMs(r.LagP99)
		out = append(out, r)
	}
	return out
}
