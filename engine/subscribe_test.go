package engine_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
)

// subsConfig is a run that only holds subscriptions: n newHeads subscribers at url for d.
func subsConfig(url string, n int, ramp engine.Rate, d time.Duration) *engine.Config {
	return &engine.Config{
		Name: "subs", Timeout: 2 * time.Second, Connections: 1, Mode: engine.ModeOpen,
		Limits: engine.DefaultLimits(), Plan: engine.Plan{Stages: []engine.Stage{{Duration: d}}},
		Subscriptions: []engine.Subscription{{Name: "newHeads", URL: url, DisplayURL: url,
			Method: "eth_subscribe", Params: []byte(`["newHeads"]`), Subscribers: n, Ramp: ramp}},
	}
}

// TestSubscriptionsCountEveryHead: every subscriber receives every head the node made while it
// was subscribed; none is a gap or a repeat, and each head is one event with a spread.
func TestSubscriptionsCountEveryHead(t *testing.T) {
	node := &headsNode{period: 100 * time.Millisecond}
	url := startHeads(t, node)
	snap := run(t, subsConfig(url, 20, 0, 2*time.Second))
	if len(snap.Subscriptions) != 1 {
		t.Fatalf("subscriptions: %+v", snap.Subscriptions)
	}
	s := snap.Subscriptions[0]
	made := int64(node.heads())
	switch {
	case s.Subscribes != 20 || s.Subscribed != 20 || s.Resubscribes != 0:
		t.Errorf("subscribes %d subscribed %d resubscribes %d, want 20 20 0", s.Subscribes, s.Subscribed, s.Resubscribes)
	case s.Gaps == nil || *s.Gaps != 0 || *s.Duplicates != 0:
		t.Errorf("gaps %v duplicates %v, want 0 and 0", s.Gaps, s.Duplicates)
	// The first head may come before a subscriber is in, the last after the end.
	case s.Events < made-2 || s.Events > made:
		t.Errorf("%d events, the node made %d heads", s.Events, made)
	case s.Notifications < 20*(made-3) || s.Notifications > 20*made:
		t.Errorf("%d notifications for 20 subscribers of %d heads", s.Notifications, made)
	case s.LeastPerSubscriber < made-3:
		t.Errorf("a subscriber got only %d of %d heads", s.LeastPerSubscriber, made)
	case s.Spread.Max <= 0 || s.Subscribe.P50 <= 0 || s.Dial.Dialed != 20:
		t.Errorf("spread %+v subscribe %+v dial %+v: nothing measured", s.Spread, s.Subscribe, s.Dial)
	case s.Lag == nil || s.Lag.Max > 1500:
		t.Errorf("lag %+v: heads stamped now must lag under a second and a half", s.Lag)
	}
	var perSecond int64
	for _, r := range snap.Timeline {
		if len(r.Subs) != 1 {
			t.Fatalf("second %d has subscription rows %+v", r.T, r.Subs)
		}
		perSecond += r.Subs[0].Notifications
	}
	if perSecond != s.Notifications {
		t.Errorf("the timeline's seconds hold %d notifications, the run %d", perSecond, s.Notifications)
	}
}

// TestSubscriptionsCountGaps: heads a subscriber never got are counted as its gaps.
func TestSubscriptionsCountGaps(t *testing.T) {
	node := &headsNode{period: 50 * time.Millisecond, skipEvery: 5}
	url := startHeads(t, node)
	snap := run(t, subsConfig(url, 3, 0, 2*time.Second))
	s := snap.Subscriptions[0]
	// About 40 heads, one in five left out of one subscriber's: 7 or 8 skipped.
	if s.Gaps == nil || *s.Gaps < 5 || *s.Gaps > 9 || *s.GapSubscribers != 1 {
		t.Errorf("gaps %v by %v subscribers: want about 8 by 1", deref(s.Gaps), deref(s.GapSubscribers))
	}
	var rows int64
	for _, r := range snap.Timeline {
		rows += r.Subs[0].Gaps
	}
	if rows != *s.Gaps {
		t.Errorf("timeline gaps %d, run %d", rows, *s.Gaps)
	}
}

// TestSubscriptionsResubscribe: a node that drops every connection after a few heads costs
// disconnects, each followed by a re-subscription, and the run goes on receiving.
func TestSubscriptionsResubscribe(t *testing.T) {
	node := &headsNode{period: 50 * time.Millisecond, dropAfter: 5}
	url := startHeads(t, node)
	snap := run(t, subsConfig(url, 4, 0, 3*time.Second))
	s := snap.Subscriptions[0]
	if s.Disconnects["close 1001"] < 4 || s.Resubscribes < 4 || s.Subscribes != 4+s.Resubscribes {
		t.Errorf("disconnects %v resubscribes %d subscribes %d: each drop must be counted and followed by a new subscription",
			s.Disconnects, s.Resubscribes, s.Subscribes)
	}
	if *s.Gaps != 0 {
		t.Errorf("gaps %d: heads missed while reconnecting are no gap within a subscription", *s.Gaps)
	}
	for _, r := range snap.Timeline {
		if r.Subs[0].Subscribed > 4 {
			t.Errorf("second %d: %d subscribed of 4 subscribers: a dropped subscription still counts", r.T, r.Subs[0].Subscribed)
		}
	}
	if !hasEvent(snap, "subscribe", "newHeads: a connection dropped: close 1001") {
		t.Errorf("no event names the drop: %+v", snap.Events)
	}
}

// TestSubscriptionsRefused: a node that refuses the subscription is counted by its code, with
// its message kept and named in the events; the run ends normally.
func TestSubscriptionsRefused(t *testing.T) {
	node := &headsNode{period: 50 * time.Millisecond, refuse: `{"code":-32601,"message":"the method eth_subscribe does not exist/is not available"}`}
	url := startHeads(t, node)
	snap := run(t, subsConfig(url, 2, 0, time.Second))
	s := snap.Subscriptions[0]
	if s.Refused["-32601"] < 2 || s.Subscribes != 0 || s.Subscribed != 0 {
		t.Errorf("refused %v subscribes %d subscribed %d", s.Refused, s.Subscribes, s.Subscribed)
	}
	if !strings.Contains(s.RefusedMessages["-32601"], "does not exist") {
		t.Errorf("messages %v", s.RefusedMessages)
	}
	if !hasEvent(snap, "subscribe", "newHeads: the node refused the subscription: -32601 the method eth_subscribe does not exist") {
		t.Errorf("no event names the refusal: %+v", snap.Events)
	}
}

// TestSubscriptionsUpgradeRefused: a server that answers the upgrade with an HTTP status is a
// failed dial of its own class, not a crash.
func TestSubscriptionsUpgradeRefused(t *testing.T) {
	node := &headsNode{period: time.Second, status: 403}
	url := startHeads(t, node)
	snap := run(t, subsConfig(url, 2, 0, time.Second))
	s := snap.Subscriptions[0]
	if s.DialFailed["upgrade 403"] < 2 || s.Subscribed != 0 {
		t.Errorf("dial failures %v subscribed %d", s.DialFailed, s.Subscribed)
	}
}

// TestSubscriptionsRamp: subscribers come at the ramp's rate, not all at once.
func TestSubscriptionsRamp(t *testing.T) {
	node := &headsNode{period: 100 * time.Millisecond}
	url := startHeads(t, node)
	snap := run(t, subsConfig(url, 10, 5, 2500*time.Millisecond))
	first := snap.Timeline[0].Subs[0].Subscribed
	if first < 4 || first > 6 {
		t.Errorf("after the first second %d subscribed, want 5 at 5/s", first)
	}
	if s := snap.Subscriptions[0]; s.Subscribed != 10 {
		t.Errorf("%d subscribed at the end, want 10", s.Subscribed)
	}
}

func deref(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// TestSubscriptionsSpikeDelaysNotifications answers the provider's question: does a spike of
// calls delay notifications? Against a node whose one core serves calls and notifications
// alike, the seconds of a call spike show heads arriving later after their block's timestamp
// than the calm seconds before, in the same timeline rows as the request rate.
func TestSubscriptionsSpikeDelaysNotifications(t *testing.T) {
	node := &headsNode{period: time.Second, busy: 2 * time.Millisecond}
	ws := startHeads(t, node)
	url := "http" + strings.TrimPrefix(ws, "ws")
	cfg := subsConfig(ws, 20, 0, 0)
	cfg.URL, cfg.DisplayURL, cfg.Connections = url, url, 32
	cfg.Plan = engine.Plan{Stages: []engine.Stage{{Rate: 20, Duration: 3 * time.Second}, {Rate: 450, Duration: 3 * time.Second}}}
	cfg.Requests = []engine.Request{{Name: "eth_blockNumber", Weight: 1, Items: 1,
		Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`)}}
	snap := run(t, cfg)
	var calm, spike []float64
	for _, r := range snap.Timeline {
		if len(r.Subs) == 0 || r.Subs[0].LagP99 == 0 {
			continue // no head arrived in that second
		}
		if r.Stage == 0 {
			calm = append(calm, r.Subs[0].LagP99)
		} else if r.RPS > 300 {
			spike = append(spike, r.Subs[0].LagP99)
		}
	}
	c, s := median(calm), median(spike)
	t.Logf("lag p99 per second: calm (20 calls/s) %v, spike (450 calls/s) %v", calm, spike)
	if len(calm) == 0 || len(spike) == 0 || s < 3*c || s < 10 {
		t.Errorf("the spike's lag p99 (median %.2f ms) is not clearly above the calm's (%.2f ms)", s, c)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
