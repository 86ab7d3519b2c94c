package engine

import (
	"fmt"
	"strings"
	"time"
)

// Subscriptions at scale (issue 19). A run may hold WebSocket subscriptions beside its request
// load, or alone: each [[subscribe]] table is a Subscription, whose Subscribers connections each
// dial, subscribe and read notifications (subscribe_conn.go) on goroutines of their own, added
// Ramp per second (subscribe_run.go); nothing of it runs on the request path. Every subscriber
// reports what happened down one channel to one subBook (subscribe_book.go), the only owner of
// the subscriptions' numbers: the time to subscribe, notifications per second, the fan-out spread
// of each event (from the first subscriber receiving it to the last), newHeads gaps and
// duplicates, each head's lag behind its block's timestamp, disconnects, refusals and re-dials.
// The book files a SubRow per second (Row.Subs) beside the request rate, so a spike of calls
// that delays notifications shows in the same second, and sums the run up in SubStats
// (Snapshot.Subscriptions).

// Subscription is one [[subscribe]] table: what to subscribe to, where, and how many times.
type Subscription struct {
	// Name labels the subscription everywhere ("newHeads", "logs", "slotSubscribe"): short,
	// unique in the run.
	Name string
	// URL is the ws:// or wss:// URL, secrets included; never display it, use DisplayURL.
	URL        string
	DisplayURL string
	// Method is the subscribe method (eth_subscribe, slotSubscribe …), Params its JSON array.
	Method string
	Params []byte
	// Subscribers is how many connections subscribe, one subscription each.
	Subscribers int
	// Ramp is how many subscribers are added per second; 0 adds them all at once.
	Ramp Rate
}

// Kind says how a subscription's notifications are read: what identifies an event across
// subscribers, and whether heads are checked for gaps.
func (s *Subscription) Kind() SubKind { return subKindOf(s.Method, s.Params) }

// SubKind is what a subscription's notifications carry.
type SubKind uint8

// The kinds of subscription rpcstress reads beyond "an event" (SubOther: an event is its result,
// byte for byte).
const (
	SubOther SubKind = iota
	// SubHeads is eth_subscribe newHeads: each event a block header, identified by its hash,
	// its number checked for gaps and repeats, its timestamp giving the lag.
	SubHeads
	// SubSlots is Solana's slotSubscribe: each event a slot.
	SubSlots
	// SubContext is Solana's accountSubscribe and logsSubscribe (and the like): each event
	// identified by its result's context.slot and value (a signature, an account's data).
	SubContext
)

// maxSubscribers bounds Subscription.Subscribers: far above a machine's sockets, below a typo.
const maxSubscribers = 100_000

// Check says what is wrong with a hand-built Subscription the profile loader would refuse.
func (s *Subscription) Check() error {
	switch {
	case s.Name == "" || s.Method == "":
		return fmt.Errorf("subscription %q: a name and a method are needed", s.Name)
	case s.Subscribers < 1 || s.Subscribers > maxSubscribers:
		return fmt.Errorf("subscription %s: %d subscribers: give 1 to %d", s.Name, s.Subscribers, maxSubscribers)
	case s.Ramp < 0:
		return fmt.Errorf("subscription %s: ramp %s is negative", s.Name, s.Ramp)
	case !isWebSocketURL(s.URL):
		return fmt.Errorf("subscription %s: %q is not a ws:// or wss:// URL", s.Name, s.DisplayURL)
	}
	return nil
}

// startAt is when subscriber i (from 0) starts, from the start of the run.
func (s *Subscription) startAt(i int) time.Duration {
	if s.Ramp <= 0 {
		return 0
	}
	return time.Duration(float64(i) / float64(s.Ramp) * float64(time.Second))
}

// isWebSocketURL reports whether u names a WebSocket endpoint.
func isWebSocketURL(u string) bool {
	l := strings.ToLower(u)
	return strings.HasPrefix(l, "ws://") || strings.HasPrefix(l, "wss://")
}
