package engine

// The WebSocket transport: JSON-RPC calls over Config.Connections WebSocket connections (slots,
// ws_slot.go), each carrying Config.Streams calls at once, one per worker, matched to their
// answers by ids the transport gives them (ws_ids.go). Frames are read and written with
// gobwas/ws's header functions into buffers the exchange and the link own, so a call costs no
// allocation; connections are dialed by the Client's counted dialer, then upgraded.

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// errWSHandshake is an answer to the upgrade that was not a WebSocket's: ClassifyError counts
// it malformed.
var errWSHandshake = errors.New("the WebSocket handshake failed")

// wsTransport is the WebSocket transport of a Client.
type wsTransport struct {
	cfg      *Config
	wd       *wsDialer
	counters *Counters
	maxBody  int
	slots    []wsSlot
	next     atomic.Uint32 // the slot the next exchange is given
	splices  []idSplice    // per mix entry with a fixed body, cut once
}

// newWS makes the WebSocket transport to t, dialing with d. Every request must be JSON-RPC:
// over a shared connection an answer is known by its id only.
func newWS(cfg *Config, t target, d *dialer, counters *Counters) (*wsTransport, error) {
	wd, err := newWSDialer(t, cfg.Headers, d)
	if err != nil {
		return nil, fmt.Errorf("target URL %q: %w", cfg.DisplayURL, err)
	}
	maxBody := cfg.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	w := &wsTransport{cfg: cfg, wd: wd, counters: counters, maxBody: maxBody, slots: make([]wsSlot, max(cfg.Connections, 1))}
	for i := range w.slots {
		w.slots[i].t = w
	}
	if cfg.Source == nil {
		w.splices = make([]idSplice, len(cfg.Requests))
		for i := range cfg.Requests {
			r := &cfg.Requests[i]
			if r.RPC == nil || r.Template == nil && !w.splices[i].cut(r.Body) {
				return nil, fmt.Errorf("request %q: %w: over WebSocket every request must be a JSON-RPC call or a batch", r.Name, errNotRPC)
			}
		}
	}
	return w, nil
}

// newExchange gives the exchanges to the slots in turn, so each slot carries Streams of them.
func (w *wsTransport) newExchange() exchange {
	i := int(w.next.Add(1)-1) % len(w.slots)
	return &wsExchange{w: w, slot: &w.slots[i], wait: newWaiter(), timer: newStoppedTimer()}
}

// closeIdle closes every connection: the workers are done.
func (w *wsTransport) closeIdle() {
	for i := range w.slots {
		w.slots[i].close()
	}
}

// dial opens one WebSocket connection by deadline, for calls. An upgrade answered with a
// status below 400 is no refusal but no WebSocket either (geth's HTTP port answers 200):
// counting the calls as 200s would pass them off as answered.
func (w *wsTransport) dial(deadline time.Time) (*link, error) {
	conn, br, err := w.wd.open(context.Background(), deadline)
	var ref *wsRefusal
	if errors.As(err, &ref) && ref.status < 400 {
		return nil, fmt.Errorf("%w: HTTP %d instead of 101 Switching Protocols", errWSHandshake, ref.status)
	}
	if err != nil {
		return nil, err
	}
	return newLink(conn, br, w.maxBody), nil
}

// newStoppedTimer is a timer that has not started, for an exchange to Reset per call.
func newStoppedTimer() *time.Timer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}

// wsClass names the WebSocket transport's own errors for ClassifyError: a connection that
// closed under the call is ws_closed (whatever closed it: the calls in flight cannot tell),
// an upgrade answered with something that is not a WebSocket's handshake is malformed, a
// frame over the tester's limit toolarge.
func wsClass(err error) (ErrClass, bool) {
	switch {
	case errors.Is(err, errWSClosed):
		return ErrWSClosed, true
	case errors.Is(err, errWSHandshake):
		return ErrMalformed, true
	case errors.Is(err, errNotRPC):
		return ErrOther, true
	}
	return ErrNone, false
}
