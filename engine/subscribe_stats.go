package engine

// SubStats is a subscription's numbers over the run (Snapshot.Subscriptions, Stats.Subs), one
// per [[subscribe]] table.
type SubStats struct {
	Name   string `json:"name"`
	Method string `json:"method"`
	// Params is the subscription's params as sent (JSON).
	Params string `json:"params"`
	Target string `json:"target"` // display URL: no userinfo, no query
	// Subscribers is how many the profile asked for; Subscribed how many held a subscription
	// when the figures were taken (at the end: when the run ended).
	Subscribers int `json:"subscribers"`
	Subscribed  int `json:"subscribed"`
	// Subscribes counts the subscriptions made (first ones and re-subscriptions after a
	// disconnect), Resubscribes the latter alone.
	Subscribes   int64 `json:"subscribes"`
	Resubscribes int64 `json:"resubscribes"`
	// Refused counts the subscribe calls the node answered with an error, by JSON-RPC code
	// ("-32601") or "timeout" for no answer in time; RefusedMessages keeps a message per code.
	Refused         map[string]int64  `json:"refused,omitempty"`
	RefusedMessages map[string]string `json:"refused_messages,omitempty"`
	// DialFailed counts connections that could not be opened, by class: a transport error
	// class ("refused", "timeout" …) or "upgrade 403" for a server that answered the upgrade
	// with an HTTP status.
	DialFailed map[string]int64 `json:"dial_failed,omitempty"`
	// Disconnects counts subscriptions that ended under the run (the node closed or reset the
	// connection), by class: a transport error class or "close 1011" for a WebSocket close.
	Disconnects map[string]int64 `json:"disconnects,omitempty"`
	// Notifications counts the notifications received; Rate is them per second of the run
	// and PerSubscriber that over the subscribers that held a subscription on average.
	Notifications int64   `json:"notifications"`
	Rate          float64 `json:"rate"`
	PerSubscriber float64 `json:"per_subscriber"`
	// LeastPerSubscriber is the fewest notifications one subscriber received in the run: a
	// starved subscriber shows here while the mean looks fine.
	LeastPerSubscriber int64 `json:"least_per_subscriber"`
	// Events counts the distinct events (a head, a slot, a log) the subscribers received.
	Events int64 `json:"events"`
	// Gaps counts the heads a subscriber skipped within one subscription (numbers that jump),
	// Duplicates the heads it received twice, Reorgs the heads that replaced one of the same
	// or a lower number with another hash; newHeads only (nil for other kinds).
	// GapSubscribers is how many subscribers saw a gap.
	Gaps           *int64 `json:"gaps,omitempty"`
	Duplicates     *int64 `json:"duplicates,omitempty"`
	Reorgs         *int64 `json:"reorgs,omitempty"`
	GapSubscribers *int64 `json:"gap_subscribers,omitempty"`
	// Subscribe is the time from sending the subscribe call to its answer; Dial the time to
	// open the connection (TCP, TLS, the upgrade) before it, apart.
	Subscribe Percentiles `json:"subscribe_ms"`
	Dial      Connections `json:"dial"`
	// Spread is, per event, the time from the first subscriber receiving it to the last.
	Spread Percentiles `json:"spread_ms"`
	// Lag is, per head received, how long after its block's timestamp it arrived; omitted
	// when the notifications carry no timestamp. Block timestamps are whole seconds, so a
	// lag is up to a second more than the wire's.
	Lag *Percentiles `json:"lag_ms,omitempty"`
	// SubscriberSeconds is the subscriptions held over the run, in subscriber·seconds:
	// PerSubscriber is Notifications over it, and a merge of shards sums it.
	SubscriberSeconds float64 `json:"subscriber_seconds,omitempty"`
	// Histograms are Subscribe's, Spread's and Lag's HDR histograms, so that a merge of
	// shards takes their percentiles exactly; in snapshots only (a live view has none).
	Histograms *SubHistograms `json:"histograms,omitempty"`
}

// SubHistograms are a subscription's histograms (microseconds), encoded as the run's are
// (Histograms): the time to subscribe, the fan-out spread and the heads' lag ("" when none
// was measured).
type SubHistograms struct {
	Subscribe string `json:"subscribe"`
	Spread    string `json:"spread"`
	Lag       string `json:"lag,omitempty"`
}

// SubRow is one subscription's second of the timeline (Row.Subs).
type SubRow struct {
	Name string `json:"name"`
	// Subscribed is how many subscribers held a subscription when the second ended.
	Subscribed int `json:"subscribed"`
	// Notifications received in the second, and that per subscribed subscriber.
	Notifications int64   `json:"notifications"`
	PerSubscriber float64 `json:"per_subscriber"`
	// SpreadP50 and SpreadP99 are of the events whose spread was settled in the second (all
	// their subscribers had them, or the wait for the rest ran out); LagP50 and LagP99 of the
	// heads received in it; left 0 when there was none.
	SpreadP50 float64 `json:"spread_p50_ms,omitempty"`
	SpreadP99 float64 `json:"spread_p99_ms,omitempty"`
	LagP50    float64 `json:"lag_p50_ms,omitempty"`
	LagP99    float64 `json:"lag_p99_ms,omitempty"`
	// What went wrong in the second.
	Gaps         int64 `json:"gaps,omitempty"`
	Duplicates   int64 `json:"duplicates,omitempty"`
	Disconnects  int64 `json:"disconnects,omitempty"`
	Resubscribes int64 `json:"resubscribes,omitempty"`
	Refused      int64 `json:"refused,omitempty"`
	DialFailed   int64 `json:"dial_failed,omitempty"`
}

// SubsTotal adds up the subscriptions' trouble for thresholds and one-line views: gaps,
// duplicates, disconnects, refusals and failed dials over every table, and the worst spread
// and lag p99 among them (ms). ok is false when there are no subscriptions.
type SubsTotal struct {
	Gaps, Duplicates, Disconnects, Refused, DialFailed, Notifications int64
	Subscribes                                                        int64
	SpreadP99, LagP99, SubscribeP99, Rate                             float64
	Subscribed, Subscribers                                           int
	HasHeads                                                          bool
}

// TotalOf sums up subs (see SubsTotal).
func TotalOf(subs []SubStats) SubsTotal {
	var t SubsTotal
	for i := range subs {
		s := &subs[i]
		if s.Gaps != nil {
			t.HasHeads = true
			t.Gaps += *s.Gaps
			t.Duplicates += *s.Duplicates
		}
		t.Disconnects += sumCounts(s.Disconnects)
		t.Refused += sumCounts(s.Refused)
		t.DialFailed += sumCounts(s.DialFailed)
		t.Notifications += s.Notifications
		t.Subscribes += s.Subscribes
		t.Rate += s.Rate
		t.SpreadP99 = max(t.SpreadP99, s.Spread.P99)
		t.SubscribeP99 = max(t.SubscribeP99, s.Subscribe.P99)
		if s.Lag != nil {
			t.LagP99 = max(t.LagP99, s.Lag.P99)
		}
		t.Subscribed += s.Subscribed
		t.Subscribers += s.Subscribers
	}
	return t
}

func sumCounts(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}
