package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/gethtest"
)

// TestSubscribeGeth: 200 newHeads subscribers on a real geth --dev that seals a block a second
// hold their subscriptions for 15 s, each receiving every block sealed meanwhile: no gap, no
// repeat, no drop, and every head's lag behind its timestamp under two seconds.
func TestSubscribeGeth(t *testing.T) {
	t.Parallel()
	node := gethtest.StartWith(t, gethtest.Options{WS: true, DevPeriod: 1})
	p := writeFile(t, t.TempDir(), "subs.toml", fmt.Sprintf(`name = "heads"
url = %q
timeout = "5s"
[[subscribe]]
method = "eth_subscribe"
params = ["newHeads"]
subscribers = 200
ramp = "400/s"
[[stage]]
duration = "16s"
`, node.WSURL))
	before := node.Head(t)
	r := runCLI(t, nil, p)
	after := node.Head(t)
	mustRun(t, r, exitOK)
	if len(r.snap.Subscriptions) != 1 {
		t.Fatalf("subscriptions %+v", r.snap.Subscriptions)
	}
	s := r.snap.Subscriptions[0]
	sealed := int64(after - before)
	held := int64(r.snap.EndedAt.Sub(r.snap.StartedAt) / time.Second) // a head a second
	t.Logf("the run held %d s, geth sealed %d blocks; %d events, %d notifications, least %d a subscriber; subscribe p50 %.1f ms p99 %.1f ms; spread p50 %.2f ms p99 %.2f ms max %.2f ms; lag p50 %.0f ms p99 %.0f ms",
		held, sealed, s.Events, s.Notifications, s.LeastPerSubscriber, s.Subscribe.P50, s.Subscribe.P99, s.Spread.P50, s.Spread.P99, s.Spread.Max, s.Lag.P50, s.Lag.P99)
	switch {
	case s.Subscribes != 200 || s.Subscribed != 200 || len(s.Disconnects) > 0 || len(s.Refused) > 0 || len(s.DialFailed) > 0:
		t.Errorf("subscribes %d subscribed %d disconnects %v refused %v dial failures %v: want 200 held throughout",
			s.Subscribes, s.Subscribed, s.Disconnects, s.Refused, s.DialFailed)
	case *s.Gaps != 0 || *s.Duplicates != 0 || *s.Reorgs != 0:
		t.Errorf("gaps %d duplicates %d reorgs %d, want none", *s.Gaps, *s.Duplicates, *s.Reorgs)
	// All subscribed within the first second; the run's last head may come after it ended.
	// Heads are counted against the run's own span, not against what geth sealed between the
	// reads around runCLI: under -race its start and end took 7 s more (19 sealed, 15 heads).
	case sealed < 14 || s.LeastPerSubscriber < held-2 || s.Events > sealed:
		t.Errorf("geth sealed %d blocks meanwhile; %d distinct heads received, the least a subscriber got %d", sealed, s.Events, s.LeastPerSubscriber)
	case s.Notifications != s.Events*200 && s.Notifications < (held-2)*200:
		t.Errorf("%d notifications for 200 subscribers of %d heads", s.Notifications, s.Events)
	case s.Lag == nil || s.Lag.P99 > 2000:
		t.Errorf("lag %+v: a head sealed now lags its whole-second timestamp by under 2 s", s.Lag)
	}
}
