package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"time"

	"github.com/gobwas/ws"
)

// Re-dial backoff: a subscriber whose connection dropped dials again after subRetryMin, doubling
// up to subRetryMax while dials or subscriptions keep failing, each wait jittered by ±50 % so a
// thousand subscribers cut off at once do not come back in one burst.
const (
	subRetryMin = 100 * time.Millisecond
	subRetryMax = 5 * time.Second
)

// subscriber is one connection that subscribes and reads notifications until the run ends,
// dialling again (with backoff) whenever its connection drops or its subscription is refused.
// It reports everything to the book; the only state it keeps is what one subscription's heads
// need for gaps and repeats, and its buffers, reused from message to message so that a
// notification costs no allocation.
type subscriber struct {
	table   uint16
	idx     int32
	call    []byte    // the subscribe call, ready to send (shared: copied into wbuf to be masked)
	wd      *wsDialer // shared by the subscription's subscribers
	timeout time.Duration
	maxMsg  int64
	start   time.Time
	out     chan<- subReport
	parser  subParser
	r       wsReader
	br      *bufio.Reader
	buf     []byte // the message being read
	wbuf    []byte // a frame being written
	fr      framer
	conn    net.Conn // the live connection, for pong
	heads   headSeq
}

// subReadBuffer is a subscriber's read buffer: a head fits, a bigger message is read past it
// into the message's own buffer. A thousand subscribers hold a thousand of them.
const subReadBuffer = 4 << 10

// run subscribes until ctx ends.
func (s *subscriber) run(ctx context.Context) {
	var wait time.Duration
	resub := false
	for {
		if wait > 0 && !sleepCtx(ctx, jitter(wait)) {
			return
		}
		if !s.open(ctx) {
			if ctx.Err() != nil {
				return
			}
			wait = backoff(wait)
			continue
		}
		subscribed := s.session(ctx, resub)
		if ctx.Err() != nil {
			return
		}
		if subscribed {
			resub, wait = true, subRetryMin
		} else {
			wait = backoff(wait)
		}
	}
}

// open dials and upgrades, reporting how long it took or why it failed.
func (s *subscriber) open(ctx context.Context) bool {
	t0 := time.Now()
	conn, br, err := s.wd.open(ctx, t0.Add(s.timeout))
	took := time.Since(t0)
	if err != nil {
		if ctx.Err() == nil {
			s.report(subReport{kind: repDialFailed, class: dialClass(err)})
		}
		return false
	}
	if br == nil { // the server sent nothing after its handshake: our own, smaller buffer
		if s.br == nil {
			s.br = bufio.NewReaderSize(conn, subReadBuffer)
		}
		s.br.Reset(conn)
		br = s.br
	}
	s.conn, s.r = conn, wsReader{br: br, limit: s.maxMsg, pong: s.pong}
	s.report(subReport{kind: repDialed, dur: int64(took)})
	return true
}

// dialClass names a failed dial: "upgrade 403" for a server that answered the upgrade with an
// HTTP status, else the transport error's class.
func dialClass(err error) string {
	var ref *wsRefusal
	if errors.As(err, &ref) {
		return fmt.Sprintf("upgrade %d", ref.status)
	}
	return ClassifyError(err).String()
}

// session subscribes on the connection open made and reads its notifications until the
// connection ends or ctx does (which closes it, saying goodbye); it reports whether the node
// accepted the subscription.
func (s *subscriber) session(ctx context.Context, resub bool) (subscribed bool) {
	conn := s.conn
	defer context.AfterFunc(ctx, func() { goodbye(conn) })()
	defer conn.Close()
	t0 := time.Now()
	deadline := t0.Add(s.timeout)
	if err := s.send(ws.OpText, s.call, deadline); err != nil {
		s.lost(ctx, err, false)
		return false
	}
	_ = conn.SetReadDeadline(deadline) // for the answer to the subscribe call
	s.heads = headSeq{}
	for {
		b, _, err := s.r.next(s.buf)
		s.buf = b
		if err != nil {
			if !subscribed && isTimeout(err) && ctx.Err() == nil {
				s.report(subReport{kind: repRefused, class: "timeout", msg: "no answer to the subscribe call within the timeout"})
				return false
			}
			s.lost(ctx, err, subscribed)
			return subscribed
		}
		now := time.Now()
		m := s.parser.parse(b)
		switch {
		case m.answer && !subscribed:
			if !m.ok {
				s.report(subReport{kind: repRefused, class: fmt.Sprint(m.code), msg: m.msg})
				return false
			}
			subscribed = true
			_ = conn.SetReadDeadline(time.Time{})
			s.report(subReport{kind: repSubscribed, dur: int64(now.Sub(t0)), resub: resub})
		case m.note && subscribed:
			r := subReport{kind: repNote, at: int64(now.Sub(s.start)), key: m.key, ts: m.ts, hasTS: m.hasTS}
			if m.hasNumber && s.parser.kind == SubHeads {
				r.gap, r.dup, r.reorg = s.heads.next(m.number, m.hash)
			}
			s.report(r)
		}
	}
}

// send writes one frame of op carrying payload by deadline.
func (s *subscriber) send(op ws.OpCode, payload []byte, deadline time.Time) error {
	s.wbuf = s.fr.put(s.wbuf, op, payload)
	err := s.conn.SetWriteDeadline(deadline)
	if err == nil {
		_, err = s.conn.Write(s.wbuf)
	}
	return err
}

// pong answers the node's ping (the subscriber's reader calls it: no other goroutine writes).
func (s *subscriber) pong(p []byte) {
	_ = s.send(ws.OpPong, p, time.Now().Add(s.timeout))
}

// goodbye closes a subscriber's connection at the run's end with a close frame (1000), as a
// client that leaves on purpose does, then the connection.
func goodbye(conn net.Conn) {
	var f framer
	_ = conn.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	_, _ = conn.Write(f.put(nil, ws.OpClose, ws.NewCloseFrameBody(ws.StatusNormalClosure, "")))
	_ = conn.Close()
}

// lost reports a connection that ended under the run, unless the run's end ended it.
func (s *subscriber) lost(ctx context.Context, err error, subscribed bool) {
	if ctx.Err() != nil {
		return
	}
	s.report(subReport{kind: repDisconnect, class: wsErrClass(err), subscribed: subscribed})
}

// report hands the book one happening, stamped with the subscriber and, unless set, the time.
func (s *subscriber) report(r subReport) {
	r.table, r.sub = s.table, s.idx
	if r.at == 0 {
		r.at = int64(time.Since(s.start))
	}
	s.out <- r
}

// wsErrClass names why a WebSocket connection ended: its close code when the node closed it,
// else the transport error's class ("toolarge" for a message over the limit).
func wsErrClass(err error) string {
	var ce *wsCloseError
	if errors.As(err, &ce) {
		return fmt.Sprintf("close %d", int(ce.code))
	}
	return ClassifyError(err).String()
}

// headSeq follows one subscription's heads: the last number and hash seen.
type headSeq struct {
	have   bool
	number uint64
	hash   uint64
}

// next takes a head and says how many numbers it skipped, whether it repeats the last one
// (same number, same hash), and whether it replaces a head already seen with another hash (a
// reorg: the same or a lower number).
func (h *headSeq) next(number, hash uint64) (gap int64, dup, reorg bool) {
	switch {
	case !h.have:
	case number == h.number && hash == h.hash:
		return 0, true, false
	case number <= h.number:
		reorg = true
	case number > h.number+1:
		gap = int64(number - h.number - 1)
	}
	h.have, h.number, h.hash = true, number, hash
	return gap, false, reorg
}

// backoff is the next wait after one of wait failed.
func backoff(wait time.Duration) time.Duration {
	return min(max(2*wait, subRetryMin), subRetryMax)
}

// jitter spreads d by ±50 %.
func jitter(d time.Duration) time.Duration {
	return d/2 + rand.N(d)
}

// sleepCtx sleeps d, or less when ctx ends; it reports whether ctx is still alive.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
