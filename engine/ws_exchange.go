package engine

// One worker's WebSocket exchange (see exchange in sender.go): it gives the loaded body the
// slot's next ids, sends it as one frame on the slot's link and waits for the answer the
// link's reader hands it. Nothing here allocates in steady state.

import (
	"os"
	"time"

	"github.com/gobwas/ws"
)

// wsExchange is one worker's private state on the WebSocket transport.
type wsExchange struct {
	w      *wsTransport
	slot   *wsSlot
	wait   *wsWaiter
	timer  *time.Timer
	fr     framer
	sp     idSplice // a rendering's cut (a fixed body's is the transport's)
	cur    *idSplice
	base   uint64   // the first id of the loaded send
	out    []byte   // the frame being sent: room for its header, then the body with its ids
	calls  RPCCalls // the loaded send's calls, by the ids it goes out with
	err    error    // a body that cannot go (not JSON-RPC), or the refusal that answers
	wrote  []byte   // the last answer with the ids its body wrote (asWritten)
	ref    *wsRefusal
	limits rateLimitHeaders
}

// load gives mix entry idx's body (or this rendering) the slot's next ids and returns the
// size of its frame.
func (e *wsExchange) load(idx int, body []byte) uint32 {
	sp := &e.sp
	if e.w.cfg.Requests[idx].Template == nil {
		sp = &e.w.splices[idx]
	} else if !sp.cut(body) {
		return e.notRPC(body)
	}
	return e.ready(idx, sp)
}

// loadStreamed is load for a Source's entry: its body is cut per send.
func (e *wsExchange) loadStreamed(idx int, body []byte) uint32 {
	if !e.sp.cut(body) {
		return e.notRPC(body)
	}
	return e.ready(idx, &e.sp)
}

// notRPC readies a send that fails: the body has no ids to match its answer by.
func (e *wsExchange) notRPC(body []byte) uint32 {
	e.cur, e.err = nil, errNotRPC
	return clampU32(len(body))
}

// ready writes the send's body with its ids after the frame's room, and the calls to match
// its answer against.
func (e *wsExchange) ready(idx int, sp *idSplice) uint32 {
	e.cur, e.err, e.ref = sp, nil, nil
	e.base = e.slot.ids(max(sp.ids(), 1))
	e.out = sp.appendWith(append(e.out[:0], make([]byte, wsFrameRoom)...), e.base)
	var specs []CallSpec
	if rpc := e.w.cfg.Requests[idx].RPC; rpc != nil {
		specs = rpc.specs
	}
	e.calls.sentCalls(sp, e.base, specs)
	n := len(e.out) - wsFrameRoom
	return clampU32(n + ws.HeaderSize(ws.Header{Masked: true, Length: int64(n)}))
}

// roundTrip sends the loaded call and waits for its answer until deadline. A refused upgrade
// is not an error: the call is answered with the refusal's status (see answer).
func (e *wsExchange) roundTrip(_, deadline time.Time) error {
	if e.err != nil {
		return e.err
	}
	l, err := e.slot.get(deadline)
	if ref, ok := err.(*wsRefusal); ok {
		e.ref = ref
		return nil
	}
	if err != nil {
		return err
	}
	w := e.wait
	n := e.cur.ids()
	if n == 0 { // notifications only: nothing comes back
		return l.send(e.fr.frame(ws.OpText, e.out), deadline)
	}
	if err := l.wait(w, e.base, n); err != nil {
		return err
	}
	if err := l.send(e.fr.frame(ws.OpText, e.out), deadline); err != nil {
		if l.forget(w) {
			return err
		}
		<-w.ready // the link's close failed it meanwhile
		return err
	}
	e.timer.Reset(time.Until(deadline))
	select {
	case <-w.ready:
		e.timer.Stop()
		return w.err
	case <-e.timer.C:
	}
	if l.forget(w) {
		return os.ErrDeadlineExceeded
	}
	<-w.ready // the reader took it just now: an answer (or the link's end) is on its way
	return w.err
}

// answer is what roundTrip received: the answer message (HTTP 200, as every answer on an open
// WebSocket), or the refused upgrade's status and body; calls are the ids it went out with.
func (e *wsExchange) answer(b *Batch) answer {
	if r := e.ref; r != nil {
		for _, h := range r.headers {
			e.limits.record(b, h[0], h[1])
		}
		return answer{status: r.status, body: r.body, bytesIn: clampU32(len(r.body))}
	}
	if e.cur.ids() == 0 {
		return answer{status: 200, calls: &e.calls}
	}
	return answer{status: 200, body: e.wait.msg, bytesIn: clampU32(len(e.wait.msg) + e.wait.head), calls: &e.calls}
}

// asWritten is the answer msg with the ids the loaded body wrote, for comparing it with
// another target's (see idSplice.asWritten); valid until the next send.
func (e *wsExchange) asWritten(msg []byte) []byte {
	if e.cur == nil || e.ref != nil {
		return msg
	}
	out := e.cur.asWritten(e.wrote, msg, e.base)
	if len(out) > 0 && len(msg) > 0 && &out[0] != &msg[0] {
		e.wrote = out
	}
	return out
}
