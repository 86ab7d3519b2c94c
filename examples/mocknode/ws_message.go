package mocknode

import (
	"time"

	"github.com/gobwas/ws"
	"github.com/valyala/fastjson"
)

// msgRateLimited is what the limiter answers over WebSocket, where there is no HTTP status to
// say it: a JSON-RPC -32005 for each call, as providers answer.
const msgRateLimited = "Limit exceeded: request rate over the node's limit, slow down"

// answer answers one WebSocket message through the same three stages as an HTTP request
// (limiter, node, latency model) and counts it once its answer is written.
func (wc *wsConn) answer(msg []byte, now time.Time) {
	defer wc.answering.Done()
	n := wc.n
	s, _ := n.scratch.Get().(*scratch)
	if s == nil {
		s = new(scratch)
	}
	defer n.putScratch(s)
	s.tally.reset()
	var held time.Duration
	if n.limiter != nil {
		ok, delay := n.limiter.Admit(now)
		if !ok {
			// Rejected at once, reaching no method: counted as limited, not as calls.
			s.limitedAnswer(msg)
			wc.write(ws.OpText, s.out, func(sign int64) {
				n.counters.ws.messages.Add(sign)
				n.counters.ws.limited.Add(sign)
			})
			return
		}
		held = delay
	}
	start, ok := wc.subscriptionCall(s, msg, now)
	if !ok {
		n.answer(s, msg, now)
	}
	n.sleepUntil(n.latency.due(now.Add(held), s.tally.calls, s.tally.items))
	written := wc.write(ws.OpText, s.out, func(sign int64) {
		n.counters.ws.messages.Add(sign)
		n.counters.commitCalls(&s.tally, sign)
	})
	if start != nil {
		start(written) // after the answer, so that no notification comes before its subscription's id
	}
}

// putScratch returns s to the pool unless it holds a huge answer's memory.
func (n *Node) putScratch(s *scratch) {
	if cap(s.out) <= maxPooledBuffer {
		n.scratch.Put(s)
	}
}

// limitedAnswer writes the limiter's refusal of msg to s.out: -32005 with each call's id (one
// error with id null when msg is not JSON-RPC at all), so a client matches every call.
func (s *scratch) limitedAnswer(msg []byte) {
	s.out = s.out[:0]
	v, err := s.parser.ParseBytes(msg)
	switch {
	case err == nil && v.Type() == fastjson.TypeArray && len(v.GetArray()) > 0:
		s.out = append(s.out, '[')
		for i, c := range v.GetArray() {
			if i > 0 {
				s.out = append(s.out, ',')
			}
			s.out = s.errorAnswer(s.out, s.limitedID(c), errLimitExceeded, msgRateLimited)
		}
		s.out = append(s.out, ']')
	case err == nil:
		s.out = s.errorAnswer(s.out, s.limitedID(v), errLimitExceeded, msgRateLimited)
	default:
		s.out = s.errorAnswer(s.out, nil, errLimitExceeded, msgRateLimited)
	}
}

// limitedID is call v's id as written, or nil (null) when it has none or a bad one.
func (s *scratch) limitedID(v *fastjson.Value) []byte {
	if v.Type() != fastjson.TypeObject {
		return nil
	}
	id, ok := s.readID(v.Get("id"))
	if !ok {
		return nil
	}
	return id
}
