package engine

import (
	"fmt"
	"maps"
	"math"
	"strconv"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// subTable is one subscription's numbers, kept by the book's goroutine alone.
type subTable struct {
	spec  *Subscription
	heads bool // newHeads: gaps, repeats and lag are counted

	subscribed int     // subscribers holding a subscription now
	since      int64   // when subscribed last changed or was integrated, ns since start
	subNs      float64 // ∫ subscribed dt over the run, in subscriber·ns
	perSub     []int64 // notifications per subscriber
	gapSub     []bool  // the subscribers that saw a gap

	notes, distinct, subscribes, resubs int64
	gaps, dups, reorgs, gapSubs         int64
	refused                             map[string]int64
	refusedText                         map[string]string
	dialFailed, disconnects             map[string]int64
	dials, dialNs, dialMax              int64
	subscribe, spread, lag              *hdr.Histogram

	pending map[uint64]*eventAcc // events whose spread is not settled yet
	settled map[uint64]int64     // recently settled events, when: a straggler is not a new event

	sec secondAcc // the second being filled
}

// eventAcc is one event as its subscribers receive it.
type eventAcc struct {
	first, last int64
	n, want     int32
}

// secondAcc is what one second of a subscription gathers.
type secondAcc struct {
	notes, gaps, dups, disc, resubs, refused, dialFailed int64
	subNs                                                float64
	spread, lag                                          *hdr.Histogram
}

func newSubTable(s *Subscription) *subTable {
	return &subTable{
		spec: s, heads: s.Kind() == SubHeads,
		perSub: make([]int64, s.Subscribers), gapSub: make([]bool, s.Subscribers),
		refused: map[string]int64{}, refusedText: map[string]string{},
		dialFailed: map[string]int64{}, disconnects: map[string]int64{},
		subscribe: newHist(), spread: newHist(), lag: newHist(),
		pending: map[uint64]*eventAcc{}, settled: map[uint64]int64{},
		sec: secondAcc{spread: newHist(), lag: newHist()},
	}
}

// observe integrates the subscribers held up to at (ns since start).
func (t *subTable) observe(at int64) {
	if at <= t.since {
		return
	}
	d := float64(at-t.since) * float64(t.subscribed)
	t.subNs += d
	t.sec.subNs += d
	t.since = at
}

// note counts a notification; lag is the head's lag behind its block's timestamp, or < 0.
func (t *subTable) note(r subReport, lag int64) {
	t.notes++
	t.sec.notes++
	if int(r.sub) < len(t.perSub) {
		t.perSub[r.sub]++
	}
	if r.gap > 0 {
		t.gaps += r.gap
		t.sec.gaps += r.gap
		if int(r.sub) < len(t.gapSub) && !t.gapSub[r.sub] {
			t.gapSub[r.sub] = true
			t.gapSubs++
		}
	}
	if r.reorg {
		t.reorgs++
	}
	if r.dup {
		t.dups++
		t.sec.dups++
		return // a repeat is not one more subscriber having the event
	}
	if lag >= 0 {
		recordNanos(t.lag, lag)
		recordNanos(t.sec.lag, lag)
	}
	t.event(r.key, r.at)
}

// event files one subscriber's receipt of an event: its spread is settled once every
// subscriber that held a subscription when the first had it has it too, or after spreadWait.
func (t *subTable) event(key uint64, at int64) {
	if _, done := t.settled[key]; done {
		return // a subscriber that subscribed after the event began: not in its spread
	}
	e := t.pending[key]
	if e == nil {
		t.distinct++
		e = &eventAcc{first: at, last: at, want: int32(max(t.subscribed, 1))}
		t.pending[key] = e
	}
	e.first, e.last = min(e.first, at), max(e.last, at)
	e.n++
	if e.n >= e.want {
		t.close(key, e, at)
	}
}

// close settles an event's spread.
func (t *subTable) close(key uint64, e *eventAcc, now int64) {
	recordNanos(t.spread, e.last-e.first)
	recordNanos(t.sec.spread, e.last-e.first)
	delete(t.pending, key)
	t.settled[key] = now
}

// settle closes the events that waited spreadWait (all of them when final) and forgets
// settled events older than that.
func (t *subTable) settle(now int64, final bool) {
	for k, e := range t.pending {
		if final || now-e.first >= int64(spreadWait) {
			t.close(k, e, now)
		}
	}
	for k, at := range t.settled {
		if now-at >= int64(spreadWait) {
			delete(t.settled, k)
		}
	}
}

// count files a report that is not a notification; it returns what to tell the run's events
// the first time a kind of trouble happens ("" otherwise).
func (t *subTable) count(r subReport) string {
	switch r.kind {
	case repDialed:
		t.dials++
		t.dialNs += r.dur
		t.dialMax = max(t.dialMax, r.dur)
	case repSubscribed:
		t.subscribed++
		t.subscribes++
		recordNanos(t.subscribe, r.dur)
		if r.resub {
			t.resubs++
			t.sec.resubs++
		}
		if t.subscribes == int64(len(t.perSub)) && !r.resub {
			return "all " + strconv.Itoa(len(t.perSub)) + " subscribed"
		}
	case repRefused:
		t.sec.refused++
		if _, ok := t.refusedText[r.class]; !ok && r.msg != "" {
			t.refusedText[r.class] = r.msg
		}
		return firstOf(t.refused, r.class, "the node refused the subscription: %s %s", r.class, r.msg)
	case repDialFailed:
		t.sec.dialFailed++
		return firstOf(t.dialFailed, r.class, "a connection failed: %s", r.class)
	case repDisconnect:
		t.sec.disc++
		if r.subscribed {
			t.subscribed--
		}
		return firstOf(t.disconnects, r.class, "a connection dropped: %s (re-subscribing)", r.class)
	}
	return ""
}

// closeSecond turns the second gathered into its row, span long, and starts the next.
func (t *subTable) closeSecond(span time.Duration) SubRow {
	s := &t.sec
	row := SubRow{Name: t.spec.Name, Subscribed: t.subscribed, Notifications: s.notes,
		Gaps: s.gaps, Duplicates: s.dups, Disconnects: s.disc, Resubscribes: s.resubs,
		Refused: s.refused, DialFailed: s.dialFailed}
	if s.subNs > 0 {
		row.PerSubscriber = roundMs(float64(s.notes) / (s.subNs / float64(span)))
	}
	if s.spread.TotalCount() > 0 {
		row.SpreadP50, row.SpreadP99 = histMs(s.spread, 50), histMs(s.spread, 99)
	}
	if s.lag.TotalCount() > 0 {
		row.LagP50, row.LagP99 = histMs(s.lag, 50), histMs(s.lag, 99)
	}
	s.spread.Reset()
	s.lag.Reset()
	*s = secondAcc{spread: s.spread, lag: s.lag}
	return row
}

// stats is the subscription's figures as of now (since the start).
func (t *subTable) stats(now time.Duration) SubStats {
	sp := t.spec
	st := SubStats{Name: sp.Name, Method: sp.Method, Params: string(sp.Params), Target: sp.DisplayURL,
		Subscribers: sp.Subscribers, Subscribed: t.subscribed, Subscribes: t.subscribes,
		Resubscribes: t.resubs, Notifications: t.notes, Events: t.distinct,
		Refused: countsOrNil(t.refused), DialFailed: countsOrNil(t.dialFailed),
		Disconnects: countsOrNil(t.disconnects), Subscribe: percentilesOf(t.subscribe),
		Spread: percentilesOf(t.spread)}
	if len(t.refusedText) > 0 {
		st.RefusedMessages = maps.Clone(t.refusedText)
	}
	if now > 0 {
		st.Rate = roundMs(float64(t.notes) / now.Seconds())
	}
	if subNs := t.subNs + float64(int64(now)-t.since)*float64(t.subscribed); subNs > 0 {
		st.SubscriberSeconds = roundMs(subNs / float64(time.Second))
		st.PerSubscriber = roundMs(float64(t.notes) / (subNs / float64(time.Second)))
	}
	st.LeastPerSubscriber = math.MaxInt64
	for _, n := range t.perSub {
		st.LeastPerSubscriber = min(st.LeastPerSubscriber, n)
	}
	st.Dial.Dialed = t.dials
	if t.dials > 0 {
		st.Dial.DialMean = roundMs(float64(t.dialNs) / float64(t.dials) / 1e6)
		st.Dial.DialMax = roundMs(float64(t.dialMax) / 1e6)
	}
	if t.heads {
		// Copies: the view outlives the book's next counts.
		gaps, dups, reorgs, gapSubs := t.gaps, t.dups, t.reorgs, t.gapSubs
		st.Gaps, st.Duplicates, st.Reorgs, st.GapSubscribers = &gaps, &dups, &reorgs, &gapSubs
	}
	if t.lag.TotalCount() > 0 {
		lag := percentilesOf(t.lag)
		st.Lag = &lag
	}
	return st
}

// histograms encodes the table's histograms for a snapshot.
func (t *subTable) histograms() (*SubHistograms, error) {
	var h SubHistograms
	var err error
	if h.Subscribe, err = encodeHist(t.subscribe); err == nil {
		h.Spread, err = encodeHist(t.spread)
	}
	if err == nil && t.lag.TotalCount() > 0 {
		h.Lag, err = encodeHist(t.lag)
	}
	if err != nil {
		return nil, fmt.Errorf("encoding subscription %s's histograms: %w", t.spec.Name, err)
	}
	return &h, nil
}

// histMs is percentile q of h in milliseconds.
func histMs(h *hdr.Histogram, q float64) float64 { return usToMs(h.ValueAtQuantile(q)) }

// countsOrNil is a copy of m for a view, nil when empty (the JSON leaves it out).
func countsOrNil(m map[string]int64) map[string]int64 {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}
