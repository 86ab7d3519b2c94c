package mocknode

import (
	"bytes"
	"strconv"
	"sync"
	"time"

	"github.com/gobwas/ws"
	"github.com/valyala/fastjson"
)

// Subscriptions over WebSocket: eth_subscribe "newHeads" (a notification for every block of the
// EVM chain, every Config.BlockTime) and Solana's slotSubscribe (one for every slot that has a
// block, every 400 ms), with eth_unsubscribe and slotUnsubscribe. Each subscription is a
// goroutine that wakes at each block's time and writes every block since the last it wrote,
// so a late timer delays a notification but never skips one.

const (
	// solanaRootLag is how far the root (the last finalized slot) trails a slot: about
	// mainnet's 32.
	solanaRootLag    = 32
	msgNewHeadsOnly  = "Invalid params: the mock node's eth_subscribe serves newHeads only"
	msgSubIDParam    = "Invalid params: params[0] must be a subscription id"
	msgSubLimit      = "Limit exceeded: the node holds as many subscriptions as it takes, try again later"
	subscribeMessage = "ubscribe" // in every subscription method's name: a cheap first test
)

// subscriptions are one connection's live subscriptions by id.
type subscriptions struct {
	mu   sync.Mutex
	live map[uint64]subscription
}

// subscription is one live subscription: its kind (the method that made it) and its stop.
type subscription struct {
	kind method
	stop chan struct{}
}

func (s *subscriptions) init() { s.live = map[uint64]subscription{} }

// subscriptionCall answers msg when it is one subscription call, writing the answer to s.out
// and returning the function to call once the answer is written or failed to be (nil when it
// made no subscription): it starts the subscription, or gives its place back; ok is false for
// every other message, which the node answers as over HTTP.
func (wc *wsConn) subscriptionCall(s *scratch, msg []byte, now time.Time) (start func(written bool), ok bool) {
	if !bytes.Contains(msg, []byte(subscribeMessage)) {
		return nil, false
	}
	v, err := s.parser.ParseBytes(msg)
	if err != nil || v.Type() != fastjson.TypeObject {
		return nil, false
	}
	m := subscriptionMethod(v.GetStringBytes("method"))
	if m == mOther {
		return nil, false
	}
	s.out, s.req.detail = s.out[:0], s.req.detail[:0]
	id, valid := s.readID(v.Get("id"))
	if !valid {
		s.out = s.errorAnswer(s.out, nil, errInvalidRequest, msgBadID)
		return nil, true
	}
	s.tally.methods[m]++
	params := v.Get("params")
	if m == mEthSubscribe || m == mSlotSubscribe {
		if m == mEthSubscribe && string(stringParam(param(params, 0))) != "newHeads" {
			s.out = s.errorAnswer(s.out, id, errInvalidParams, msgNewHeadsOnly)
			return nil, true
		}
		if !wc.n.reserveSub() {
			s.out = s.errorAnswer(s.out, id, errLimitExceeded, msgSubLimit)
			return nil, true
		}
		sub := wc.n.subSeq.Add(1)
		// Live before its answer goes out: an unsubscribe read right after the answer (calls
		// are served concurrently) must find it, or its place would never come back.
		stop := wc.register(sub, m)
		if m == mEthSubscribe {
			s.result(id, func(dst []byte) []byte { return appendHexQuantity(dst, sub) })
		} else {
			s.result(id, func(dst []byte) []byte { return strconv.AppendUint(dst, sub, 10) })
		}
		return func(written bool) {
			if written {
				wc.n.counters.ws.subscriptions.Add(1)
				go wc.notify(sub, m, now, stop) // returns at once if already unsubscribed
			} else {
				wc.subs.forget(sub)
				wc.n.releaseSub()
			}
		}, true
	}
	sub, ok := subIDParam(param(params, 0), m == mEthUnsubscribe)
	if !ok {
		s.out = s.errorAnswer(s.out, id, errInvalidParams, msgSubIDParam)
		return nil, true
	}
	stopped := wc.subs.stop(sub, m)
	s.result(id, func(dst []byte) []byte { return strconv.AppendBool(dst, stopped) })
	return nil, true
}

// subscriptionMethod is the subscription method called name, or mOther.
func subscriptionMethod(name []byte) method {
	for m := mEthSubscribe; m < numMethods; m++ {
		if methodName(m) == string(name) {
			return m
		}
	}
	return mOther
}

// result writes a successful answer with id to s.out, its result written by value, and
// tallies the call.
func (s *scratch) result(id []byte, value func([]byte) []byte) {
	s.tally.calls++
	s.tally.items++
	s.out = value(append(s.out, resultHead...))
	s.out = append(s.out, idHead...)
	s.out = append(append(s.out, id...), '}')
}

// subIDParam reads an unsubscribe's id: a hex string for eth_unsubscribe, a number for Solana.
func subIDParam(v *fastjson.Value, hex bool) (uint64, bool) {
	if !hex {
		return uintParam(v)
	}
	b := stringParam(v)
	if len(b) < 3 || b[0] != '0' || b[1] != 'x' {
		return 0, false
	}
	u, err := strconv.ParseUint(string(b[2:]), 16, 64)
	return u, err == nil
}

// stop ends subscription sub if it is live and of the kind unsub ends.
func (s *subscriptions) stop(sub uint64, unsub method) bool {
	want := mEthSubscribe
	if unsub == mSlotUnsubscribe {
		want = mSlotSubscribe
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, ok := s.live[sub]
	if !ok || l.kind != want {
		return false
	}
	delete(s.live, sub)
	close(l.stop)
	return true
}

// register makes subscription sub of kind live (an unsubscribe finds it) and returns its stop
// channel; its notifications start once its answer is written (notify: the first is the first
// block after the subscribe).
func (wc *wsConn) register(sub uint64, kind method) chan struct{} {
	stop := make(chan struct{})
	wc.subs.mu.Lock()
	wc.subs.live[sub] = subscription{kind: kind, stop: stop}
	wc.subs.mu.Unlock()
	return stop
}

// forget drops subscription sub, whose answer was never written.
func (s *subscriptions) forget(sub uint64) {
	s.mu.Lock()
	delete(s.live, sub)
	s.mu.Unlock()
}

// notify writes subscription sub's notifications until it is stopped, the connection ends or
// the node closes; then the subscription's place is given back (Config.SubLimit).
func (wc *wsConn) notify(sub uint64, kind method, now time.Time, stop <-chan struct{}) {
	n := wc.n
	defer n.releaseSub()
	period, first, head := n.cfg.BlockTime, uint64(ethFirstBlock), n.ethBlock
	if kind == mSlotSubscribe {
		period, first, head = solanaSlotTime, solanaFirstSlot, n.slot
	}
	last := head(now)
	t := time.NewTimer(0)
	defer t.Stop()
	var buf []byte
	count := func(sign int64) { n.counters.ws.notifications.Add(sign) }
	for {
		next := n.epoch.Add(time.Duration(last+1-first) * period)
		t.Reset(max(next.Sub(n.now()), 0))
		select {
		case <-t.C:
		case <-stop:
			return
		case <-wc.done:
			return
		case <-n.closing:
			return
		}
		h := head(n.now())
		for b := last + 1; b <= h; b++ {
			if kind == mSlotSubscribe && skipped(b) {
				continue // a skipped slot has no bank, and Solana tells of none
			}
			if n.skipNote(b) {
				continue
			}
			if n.cfg.NotifyQueued {
				n.sleepUntil(n.latency.serve(n.now(), 1))
			}
			buf = n.appendNotification(buf[:0], sub, kind, b)
			if !wc.write(ws.OpText, buf, count) || !wc.noted() {
				return
			}
		}
		last = max(last, h)
	}
}

// appendNotification writes block (or slot) b's notification for subscription sub.
func (n *Node) appendNotification(dst []byte, sub uint64, kind method, b uint64) []byte {
	if kind == mSlotSubscribe {
		dst = append(dst, `{"jsonrpc":"2.0","method":"slotNotification","params":{"result":{"parent":`...)
		dst = strconv.AppendUint(dst, blockAtOrBefore(b-1), 10)
		dst = append(dst, `,"root":`...)
		dst = strconv.AppendUint(dst, b-solanaRootLag, 10)
		dst = append(dst, `,"slot":`...)
		dst = strconv.AppendUint(dst, b, 10)
		dst = append(dst, `},"subscription":`...)
		dst = strconv.AppendUint(dst, sub, 10)
		return append(dst, `}}`...)
	}
	dst = append(dst, `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":`...)
	dst = appendHexQuantity(dst, sub)
	dst = append(dst, `,"result":{`...)
	dst = appendEthHeader(dst, b, n.ethTime(b))
	return append(dst, `}}}`...)
}
