package engine_test

import (
	"crypto/tls"
	"encoding/pem"
	"io"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
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

// startHeads starts the mock node with cfg for the test, its blocks stamped with the wall clock
// (so a head's lag reads as on a live chain), and returns it with its ws:// and http:// URLs.
func startHeads(t *testing.T, cfg mocknode.Config) (node *mocknode.Node, ws, http string) {
	t.Helper()
	cfg.WallClock = true
	node, http = startNode(t, cfg)
	return node, "ws" + strings.TrimPrefix(http, "http"), http
}

// TestSubscriptionsCountEveryHead: every subscriber receives every head the node sent while it
// was subscribed; none is a gap or a repeat, and each head is one event with a spread.
func TestSubscriptionsCountEveryHead(t *testing.T) {
	const period, d, subs = 100 * time.Millisecond, 2 * time.Second, 20
	node, url, _ := startHeads(t, mocknode.Config{BlockTime: period})
	snap := run(t, subsConfig(url, subs, 0, d))
	if len(snap.Subscriptions) != 1 {
		t.Fatalf("subscriptions: %+v", snap.Subscriptions)
	}
	s := snap.Subscriptions[0]
	sent, blocks := node.Stats().WS.Notifications, int64(d/period)
	switch {
	case s.Subscribes != subs || s.Subscribed != subs || s.Resubscribes != 0:
		t.Errorf("subscribes %d subscribed %d resubscribes %d, want %d %d 0", s.Subscribes, s.Subscribed, s.Resubscribes, subs, subs)
	case s.Gaps == nil || *s.Gaps != 0 || *s.Duplicates != 0:
		t.Errorf("gaps %v duplicates %v, want 0 and 0", s.Gaps, s.Duplicates)
	// The run's end may cut off a head the node has just sent to each subscriber.
	case s.Notifications > sent || s.Notifications < sent-subs:
		t.Errorf("%d notifications; the node sent %d to %d subscribers", s.Notifications, sent, subs)
	// The first head may come before a subscriber is in, the last after the end.
	case s.Events < blocks-2 || s.Events > blocks:
		t.Errorf("%d events in %v of a block every %v", s.Events, d, period)
	case s.LeastPerSubscriber < s.Events-2:
		t.Errorf("a subscriber got only %d of %d heads", s.LeastPerSubscriber, s.Events)
	case s.Spread.Max <= 0 || s.Subscribe.P50 <= 0 || s.Dial.Dialed != subs:
		t.Errorf("spread %+v subscribe %+v dial %+v: nothing measured", s.Spread, s.Subscribe, s.Dial)
	case s.Lag == nil || s.Lag.Max > 1500:
		t.Errorf("lag %+v: heads stamped with the second they were made in must lag under a second and a half", s.Lag)
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

// TestSubscriptionsCountGaps: heads the node left out of every subscription are counted as
// each subscriber's gaps, as many as it skipped but for the first and the last (a gap is
// between two heads received).
func TestSubscriptionsCountGaps(t *testing.T) {
	node, url, _ := startHeads(t, mocknode.Config{BlockTime: 50 * time.Millisecond, SubSkipEvery: 5})
	snap := run(t, subsConfig(url, 3, 0, 2*time.Second))
	s := snap.Subscriptions[0]
	skipped := node.Stats().WS.Skipped
	if s.Gaps == nil || *s.Gaps > skipped || *s.Gaps < skipped-2*3 || *s.Gaps < 3*5 || *s.GapSubscribers != 3 {
		t.Errorf("gaps %v by %v subscribers; the node left out %d heads of 3 subscribers' (one in five of about 40)", deref(s.Gaps), deref(s.GapSubscribers), skipped)
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
// disconnects by their close code, each followed by a re-subscription, and the run goes on
// receiving.
func TestSubscriptionsResubscribe(t *testing.T) {
	node, url, _ := startHeads(t, mocknode.Config{BlockTime: 50 * time.Millisecond, SubDropAfter: 5})
	snap := run(t, subsConfig(url, 4, 0, 3*time.Second))
	s := snap.Subscriptions[0]
	drops := node.Stats().WS.Drops
	if got := s.Disconnects["close 1001"]; got < 4 || got > drops || got < drops-4 || s.Resubscribes < 4 || s.Subscribes != 4+s.Resubscribes {
		t.Errorf("disconnects %v (the node dropped %d) resubscribes %d subscribes %d: each drop must be counted and followed by a new subscription",
			s.Disconnects, drops, s.Resubscribes, s.Subscribes)
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

// TestSubscriptionsRefused: a node that holds as many subscriptions as it takes refuses the
// others; each refusal is counted by its code, with its message kept and named in the events,
// the refused subscribers keep trying, and the run ends normally.
func TestSubscriptionsRefused(t *testing.T) {
	node, url, _ := startHeads(t, mocknode.Config{BlockTime: 50 * time.Millisecond, SubLimit: 2})
	snap := run(t, subsConfig(url, 4, 0, time.Second))
	s := snap.Subscriptions[0]
	answered := node.Stats().RPCErrors["-32005"]
	if s.Refused["-32005"] < 2 || s.Refused["-32005"] > answered || s.Subscribes != 2 || s.Subscribed != 2 {
		t.Errorf("refused %v (the node refused %d) subscribes %d subscribed %d", s.Refused, answered, s.Subscribes, s.Subscribed)
	}
	if !strings.Contains(s.RefusedMessages["-32005"], "as many subscriptions as it takes") {
		t.Errorf("messages %v", s.RefusedMessages)
	}
	if !hasEvent(snap, "subscribe", "newHeads: the node refused the subscription: -32005 Limit exceeded") {
		t.Errorf("no event names the refusal: %+v", snap.Events)
	}
}

// TestSubscriptionsUpgradeRefused: a server that answers the upgrade with an HTTP status is a
// failed dial of its own class, not a crash.
func TestSubscriptionsUpgradeRefused(t *testing.T) {
	node, url, _ := startHeads(t, mocknode.Config{WSRefuse: 403})
	snap := run(t, subsConfig(url, 2, 0, time.Second))
	s := snap.Subscriptions[0]
	if got := s.DialFailed["upgrade 403"]; got < 2 || got > node.Stats().WS.Refused || s.Subscribed != 0 || s.Dial.Dialed != 0 {
		t.Errorf("dial failures %v (the node refused %d) subscribed %d dialed %d", s.DialFailed, node.Stats().WS.Refused, s.Subscribed, s.Dial.Dialed)
	}
}

// TestSubscriptionsRamp: subscribers come at the ramp's rate, not all at once.
func TestSubscriptionsRamp(t *testing.T) {
	_, url, _ := startHeads(t, mocknode.Config{BlockTime: 100 * time.Millisecond})
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
// calls delay notifications? Against a node whose one server serves calls and notifications
// alike, 200 a second (the mock node's capacity with notify-queued), a spike past that queues
// the calls and the heads behind them: the seconds of the spike show heads arriving later after
// their block's timestamp than the calm seconds before, in the same timeline rows as the
// request rate. The subscribers' connections are their own: the run's count the calls' alone.
func TestSubscriptionsSpikeDelaysNotifications(t *testing.T) {
	const subs, conns = 5, 32
	_, ws, url := startHeads(t, mocknode.Config{BlockTime: time.Second, Capacity: 200, NotifyQueued: true})
	cfg := subsConfig(ws, subs, 0, 0)
	cfg.URL, cfg.DisplayURL, cfg.Connections = url, url, conns
	cfg.Plan = engine.Plan{Stages: []engine.Stage{{Rate: 20, Duration: 3 * time.Second}, {Rate: 300, Duration: 3 * time.Second}}}
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
		} else if r.T > 3 {
			spike = append(spike, r.Subs[0].LagP99)
		}
	}
	c, s := median(calm), median(spike)
	t.Logf("lag p99 per second: calm (20 calls/s) %v, spike (300 calls/s) %v", calm, spike)
	if len(calm) == 0 || len(spike) == 0 || s < 3*c || s < 10 {
		t.Errorf("the spike's lag p99 (median %.2f ms) is not clearly above the calm's (%.2f ms)", s, c)
	}
	if d, sub := snap.Totals.Connections.Dialed, snap.Subscriptions[0].Dial.Dialed; d > conns || sub != subs {
		t.Errorf("the run dialed %d connections for its %d, the subscription %d for its %d subscribers", d, conns, sub, subs)
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

// tlsFront puts a TLS listener with a self-signed certificate in front of addr (the mock node
// speaks cleartext), passing bytes both ways; it returns the listener's address and a CA file
// that trusts its certificate.
func tlsFront(t *testing.T, addr string) (front, caFile string) {
	t.Helper()
	cert := httptest.NewUnstartedServer(nil)
	cert.StartTLS() // for its certificate and TLS settings alone
	cert.Close()
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cert.TLS)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				n, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				defer n.Close()
				go func() {
					_, _ = io.Copy(n, c)
					_ = n.Close() // the subscriber left: so does the node's side
				}()
				_, _ = io.Copy(c, n)
			}()
		}
	}()
	return ln.Addr().String(), caFile
}

// TestSubscriptionsTLS: wss:// subscribers check the node's certificate as the requests do (the
// profile's CA file, or a tls failure for a certificate nobody vouches for) and subscribe over
// TLS, its handshake within their dial time.
func TestSubscriptionsTLS(t *testing.T) {
	_, _, http := startHeads(t, mocknode.Config{BlockTime: 100 * time.Millisecond})
	front, caFile := tlsFront(t, strings.TrimSuffix(strings.TrimPrefix(http, "http://"), "/"))
	url := "wss://" + front + "/"
	t.Run("unknown certificate", func(t *testing.T) {
		s := run(t, subsConfig(url, 2, 0, 500*time.Millisecond)).Subscriptions[0]
		if s.DialFailed["tls"] < 2 || s.Subscribed != 0 || s.Dial.Dialed != 0 {
			t.Errorf("dial failures %v subscribed %d dialed %d, want tls failures only", s.DialFailed, s.Subscribed, s.Dial.Dialed)
		}
	})
	t.Run("ca file", func(t *testing.T) {
		cfg := subsConfig(url, 3, 0, time.Second)
		cfg.TLS.CAFile = caFile
		s := run(t, cfg).Subscriptions[0]
		if s.Subscribed != 3 || s.Dial.Dialed != 3 || s.Dial.DialMean <= 0 || s.Events < 5 || len(s.DialFailed) > 0 {
			t.Errorf("subscribed %d dial %+v events %d failures %v, want 3 subscribed over TLS, receiving", s.Subscribed, s.Dial, s.Events, s.DialFailed)
		}
	})
}

// TestSubscriptionsPerTarget: with several targets each [[subscribe]] subscribes on every
// target, at its own WebSocket endpoint (its ws_url beside an http url, or its ws:// url):
// each node is subscribed to by its target's subscribers alone, each target's numbers and
// timeline are its own (a node that caps its subscriptions refuses on its target only, named
// in the events), the top level is the first target's, the live view holds each target's,
// and a merge keeps them target by target. A target without a WebSocket endpoint is refused.
func TestSubscriptionsPerTarget(t *testing.T) {
	nodeA, wsA, httpA := startHeads(t, mocknode.Config{BlockTime: 100 * time.Millisecond})
	nodeB, wsB, _ := startHeads(t, mocknode.Config{BlockTime: 100 * time.Millisecond, SubLimit: 2})
	cfg := subsConfig(wsA, 3, 0, 1500*time.Millisecond)
	cfg.Plan.Stages[0].Rate = 20
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`)
	cfg.Requests = []engine.Request{{Name: "eth_blockNumber", Weight: 1, Items: 1, Body: body, RPC: engine.ParseRPCCalls(body)}}
	cfg = sideBySide(cfg, httpA, wsB)
	cfg.Targets[0].WSURL, cfg.Targets[0].WSDisplayURL = wsA, wsA
	snap, r := runWith(t, cfg)
	a, b := snap.Targets[0].Subscriptions, snap.Targets[1].Subscriptions
	if len(a) != 1 || len(b) != 1 {
		t.Fatalf("subscriptions of a %+v, of b %+v: want one each", a, b)
	}
	for i, c := range []struct {
		s       engine.SubStats
		node    *mocknode.Node
		url     string
		held    int
		refused bool
	}{{a[0], nodeA, wsA, 3, false}, {b[0], nodeB, wsB, 2, true}} {
		st := c.node.Stats().WS
		switch {
		case c.s.Target != c.url || c.s.Subscribers != 3 || c.s.Subscribed != c.held || int64(c.s.Subscribed) != st.Subscriptions:
			t.Errorf("target %d: %s subscribed %d of %d; its node made %d subscriptions: want %d at %s", i, c.s.Target, c.s.Subscribed, c.s.Subscribers, st.Subscriptions, c.held, c.url)
		case c.s.Notifications == 0 || c.s.Notifications > st.Notifications:
			t.Errorf("target %d: %d notifications, its node sent %d", i, c.s.Notifications, st.Notifications)
		case (len(c.s.Refused) > 0) != c.refused:
			t.Errorf("target %d: refused %v", i, c.s.Refused)
		}
	}
	if !reflect.DeepEqual(snap.Subscriptions, a) || snap.Timeline[0].Subs[0].Subscribed != snap.Targets[0].Timeline[0].Subs[0].Subscribed {
		t.Errorf("the top level's subscriptions %+v are not the first target's %+v", snap.Subscriptions, a)
	}
	if !hasEvent(snap, "subscribe", "b: newHeads: the node refused the subscription: -32005") || hasEvent(snap, "subscribe", "a: newHeads: the node refused") {
		t.Errorf("the refusals are not b's alone in the events: %+v", snap.Events)
	}
	if st := r.Stats(); len(st.Targets) != 2 || st.Targets[1].Subs[0].Subscribed != 2 || st.Subs[0].Subscribed != 3 {
		t.Errorf("the live view's subscriptions: %+v", st)
	}
	m, err := engine.Merge([]*engine.Snapshot{snap}, []string{"run.json"}, false)
	if err != nil || m.Targets[1].Subscriptions[0].Notifications != b[0].Notifications || m.Subscriptions[0].Notifications != a[0].Notifications {
		t.Errorf("merged: %v, %+v", err, m.Targets)
	}

	cfg.Targets[0].WSURL = ""
	if _, err := engine.NewRunner(cfg, engine.RunOptions{}); err == nil || !strings.Contains(err.Error(), "target 1 (a) has no WebSocket endpoint") {
		t.Errorf("a target without a WebSocket endpoint: %v", err)
	}
}
