package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/coder/websocket"
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
// need for gaps and repeats.
type subscriber struct {
	table   uint16
	idx     int32
	call    []byte // the subscribe call, ready to send
	url     string
	dial    *websocket.DialOptions
	timeout time.Duration // bounds the dial and the wait for the subscribe answer
	maxMsg  int64
	start   time.Time
	out     chan<- subReport
	parser  subParser
	buf     []byte
	heads   headSeq
}

// run subscribes until ctx ends.
func (s *subscriber) run(ctx context.Context) {
	var wait time.Duration
	resub := false
	for {
		if wait > 0 && !sleepCtx(ctx, jitter(wait)) {
			return
		}
		conn, err := s.open(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			wait = backoff(wait)
			continue
		}
		subscribed := s.session(ctx, conn, resub)
		_ = conn.CloseNow() // the run's end closes it too (a cancelled read closes the conn)
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

// open dials, reporting a failure with its class.
func (s *subscriber) open(ctx context.Context) (*websocket.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	t0 := time.Now()
	conn, resp, err := websocket.Dial(dctx, s.url, s.dial)
	took := time.Since(t0)
	if resp != nil && resp.Body != nil {
		_ = resp.Body.Close()
	}
	if err != nil {
		if ctx.Err() == nil {
			class := ClassifyError(unwrapURLError(err)).String()
			if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
				class = fmt.Sprintf("upgrade %d", resp.StatusCode)
			}
			s.report(subReport{kind: repDialFailed, class: class})
		}
		return nil, err
	}
	conn.SetReadLimit(s.maxMsg)
	s.report(subReport{kind: repDialed, dur: int64(took)})
	return conn, nil
}

// session subscribes on conn and reads its notifications until the connection ends or ctx
// does; it reports whether the node accepted the subscription.
func (s *subscriber) session(ctx context.Context, conn *websocket.Conn, resub bool) (subscribed bool) {
	t0 := time.Now()
	actx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	if err := conn.Write(actx, websocket.MessageText, s.call); err != nil {
		s.lost(ctx, err, false)
		return false
	}
	s.heads = headSeq{}
	for {
		rctx := ctx
		if !subscribed {
			rctx = actx
		}
		b, err := s.read(rctx, conn)
		if err != nil {
			if !subscribed && actx.Err() != nil && ctx.Err() == nil {
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

// lost reports a connection that ended under the run, unless the run's end ended it.
func (s *subscriber) lost(ctx context.Context, err error, subscribed bool) {
	if ctx.Err() != nil {
		return
	}
	s.report(subReport{kind: repDisconnect, class: wsErrClass(err), subscribed: subscribed})
}

// read reads one message into the subscriber's buffer (reused: no allocation once grown).
func (s *subscriber) read(ctx context.Context, conn *websocket.Conn) ([]byte, error) {
	_, r, err := conn.Reader(ctx)
	if err != nil {
		return nil, err
	}
	s.buf = s.buf[:0]
	for {
		if len(s.buf) == cap(s.buf) {
			s.buf = append(s.buf, 0)[:len(s.buf)]
		}
		n, err := r.Read(s.buf[len(s.buf):cap(s.buf)])
		s.buf = s.buf[:len(s.buf)+n]
		if errors.Is(err, io.EOF) {
			return s.buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
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
// "toolarge" for a message over the limit, else the transport error's class.
func wsErrClass(err error) string {
	if st := websocket.CloseStatus(err); st != -1 {
		return fmt.Sprintf("close %d", int(st))
	}
	if errors.Is(err, websocket.ErrMessageTooBig) {
		return ErrTooLarge.String()
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
