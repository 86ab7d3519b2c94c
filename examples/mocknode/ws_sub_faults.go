package mocknode

import "github.com/gobwas/ws"

// The subscriptions' misbehaviour on purpose, each a Config knob: a cap on live subscriptions
// (SubLimit), connections dropped after so many notifications (SubDropAfter) and
// notifications left out (SubSkipEvery). NotifyQueued, notifications that wait behind calls,
// is the latency model's (latencyModel.serve).

// reserveSub takes a place for one more live subscription; false when Config.SubLimit are
// live already. The place is held from the subscribe call's answer to the subscription's end.
func (n *Node) reserveSub() bool {
	if n.liveSubs.Add(1) > int64(n.cfg.SubLimit) && n.cfg.SubLimit > 0 {
		n.liveSubs.Add(-1)
		return false
	}
	return true
}

// releaseSub gives a subscription's place back.
func (n *Node) releaseSub() { n.liveSubs.Add(-1) }

// skipNote reports a notification of block (or slot) b to leave out (Config.SubSkipEvery),
// counting it.
func (n *Node) skipNote(b uint64) bool {
	every := uint64(n.cfg.SubSkipEvery)
	if every == 0 || b%every != 0 {
		return false
	}
	n.counters.ws.skipped.Add(1)
	return true
}

// noted counts a notification written on the connection; at Config.SubDropAfter of them it
// closes the connection as a node going away does (1001), counted a drop, and reports false.
func (wc *wsConn) noted() bool {
	after := int64(wc.n.cfg.SubDropAfter)
	if after == 0 || wc.notes.Add(1) != after {
		return true
	}
	wc.n.counters.ws.drops.Add(1)
	wc.shut(ws.StatusGoingAway)
	return false
}
