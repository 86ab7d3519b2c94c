package engine

// The WebSocket transport: JSON-RPC calls over Config.Connections WebSocket connections (slots,
// ws_slot.go), each carrying Config.Streams calls at once, one per worker, matched to their
// answers by ids the transport gives them (ws_ids.go). Frames are read and written with
// gobwas/ws's header functions into buffers the exchange and the link own, so a call costs no
// allocation; connections are dialed by the Client's counted dialer, then upgraded.

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"
)

// errWSHandshake is an answer to the upgrade that was not a WebSocket's: ClassifyError counts
// it malformed.
var errWSHandshake = errors.New("the WebSocket handshake failed")

// maxRefusalBody bounds what is kept of the body of a refused upgrade, for the classifier.
const maxRefusalBody = 4 << 10

// wsTransport is the WebSocket transport of a Client.
type wsTransport struct {
	cfg      *Config
	addr     string
	u        *url.URL // for the handshake's request line and Host
	header   ws.HandshakeHeaderHTTP
	d        *dialer
	counters *Counters
	maxBody  int
	slots    []wsSlot
	next     atomic.Uint32 // the slot the next exchange is given
	splices  []idSplice    // per mix entry with a fixed body, cut once
}

// wsRefusal is an upgrade the server answered with an HTTP status instead of 101 (403, 429 …):
// the calls that needed the connection are answered with it, classified by their status.
type wsRefusal struct {
	status  int
	body    []byte
	headers [][2][]byte // its rate-limit headers
}

func (r *wsRefusal) Error() string {
	return fmt.Sprintf("the WebSocket upgrade was refused with HTTP %d", r.status)
}

// newWS makes the WebSocket transport to t, dialing with d. Every request must be JSON-RPC:
// over a shared connection an answer is known by its id only.
func newWS(cfg *Config, t target, d *dialer, counters *Counters) (*wsTransport, error) {
	u, err := url.Parse(t.uri)
	if err != nil {
		return nil, fmt.Errorf("target URL %q: %w", cfg.DisplayURL, err)
	}
	h := http.Header{"User-Agent": {userAgent}}
	if t.auth != "" {
		h.Set("Authorization", t.auth)
	}
	for _, hd := range cfg.Headers {
		h[hd.Name] = append(h[hd.Name], hd.Value) // as the profile spells it
	}
	maxBody := cfg.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	w := &wsTransport{cfg: cfg, addr: t.addr, u: u, header: ws.HandshakeHeaderHTTP(h), d: d,
		counters: counters, maxBody: maxBody, slots: make([]wsSlot, max(cfg.Connections, 1))}
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

// dial opens one WebSocket connection by deadline: TCP and TLS through the counted dialer
// (dial time stays apart), then the upgrade.
func (w *wsTransport) dial(deadline time.Time) (*link, error) {
	conn, err := w.d.dialConn(w.addr, time.Until(deadline))
	if err != nil {
		return nil, err
	}
	_ = conn.SetDeadline(deadline)
	var refused *wsRefusal
	d := ws.Dialer{Header: w.header, OnStatusError: func(status int, _ []byte, resp io.Reader) {
		refused = readRefusal(status, resp)
	}}
	br, _, err := d.Upgrade(conn, w.u)
	switch {
	case refused != nil && refused.status < 400:
		// Not a refusal but not a WebSocket either (geth's HTTP port answers 200): counting
		// the calls as 200s would pass them off as answered.
		_ = conn.Close()
		return nil, fmt.Errorf("%w: HTTP %d instead of 101 Switching Protocols", errWSHandshake, refused.status)
	case refused != nil:
		_ = conn.Close()
		return nil, refused
	case err != nil:
		_ = conn.Close()
		if isTimeout(err) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", errWSHandshake, err)
	}
	_ = conn.SetDeadline(time.Time{})
	return newLink(conn, br, w.maxBody), nil
}

// readRefusal reads the HTTP answer that refused an upgrade: its status, the start of its
// body and its rate-limit headers.
func readRefusal(status int, resp io.Reader) *wsRefusal {
	r := &wsRefusal{status: status}
	hr, err := http.ReadResponse(bufio.NewReader(resp), nil)
	if err != nil {
		return r
	}
	defer hr.Body.Close()
	r.body, _ = io.ReadAll(io.LimitReader(hr.Body, maxRefusalBody))
	for k, vs := range hr.Header {
		if isRateLimitHeader([]byte(k)) && len(vs) > 0 {
			r.headers = append(r.headers, [2][]byte{[]byte(k), []byte(vs[0])})
		}
	}
	return r
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
