package engine

// The HTTP/2 transport: net/http's HTTP/2 client connections (Go 1.26's Transport.NewClientConn;
// golang.org/x/net/http2's own client API is deprecated for it) over connections this file
// dials and keeps, Config.Connections of them, each carrying up to Config.Streams requests at
// once (the pool runs Connections × Streams workers, Config.InFlight). Its own pool rather
// than a Transport's: that one opens another connection whenever one is full, and the user's
// connections would no longer be a bound. Each worker's exchange (http2_exchange.go) keeps to
// one connection slot, so exactly Streams workers share a connection; a slot whose connection
// closed or got a GOAWAY dials a new one for its next request, through the Client's counted
// dialer, so dial time and count stay apart from latency as over HTTP/1.1.
//
// net/http is handed every connection as HTTP/2 with prior knowledge: the dial here does TCP
// and, for https, TLS, and checks ALPN itself. So both modes speak HTTP/2 from the first byte
// on a connection whose bytes this file counts above TLS (see h2slot.claim). Over TLS the
// server must agree to "h2": the user asked for HTTP/2, so a server that picks HTTP/1.1 is not
// quietly spoken to in it; its requests count as tls errors, and an event says why once. h2c
// is cleartext prior knowledge (RFC 9113 §3.3): a server that does not speak it answers bytes
// that are not HTTP/2, counted malformed.

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// http2MaxHeaderList bounds the answer's header fields (RFC 9113 §6.5.2's size: names,
// values and 32 bytes each), as readBufferSize bounds HTTP/1.1's: larger count as toolarge.
const http2MaxHeaderList = readBufferSize

// http2Transport is the HTTP/2 transport of a Client.
type http2Transport struct {
	cfg     *Config
	tr      *http.Transport // makes the client connections; never sends a request itself
	d       *dialer
	addr    string
	maxBody int
	base    []*http.Request // per shape: method, URL and headers, shared read-only by exchanges
	// streamed are a Source's requests by Index, made the first time one is sent.
	streamed []atomic.Pointer[http.Request]
	shapes   shapes
	auth     string
	slots    []h2slot
	next     atomic.Uint32 // the slot the next exchange keeps to
	notes    h2notes
}

// h2slot is one of the Config.Connections connections: the ClientConn of the moment, and the
// bytes its connections carried that no answer has claimed yet (see claim).
type h2slot struct {
	mu      sync.Mutex // held while a connection is dialed: the slot's other workers wait for it
	cc      *http.ClientConn
	in, out atomic.Int64
}

// slotKey carries the slot a connection is dialed for to the Transport's dial.
type slotKey struct{}

// newHTTP2 makes the HTTP/2 transport to t, dialing with d (whose TLS offers only "h2").
func newHTTP2(cfg *Config, t target, d *dialer) (*http2Transport, error) {
	maxBody := cfg.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	h := &http2Transport{
		cfg: cfg, d: d, addr: t.addr, maxBody: maxBody, shapes: newShapes(cfg, t), auth: t.auth,
		slots: make([]h2slot, max(cfg.Connections, 1)),
	}
	h.tr = &http.Transport{
		Protocols:   new(http.Protocols),
		DialContext: h.dial,
		// The request goes out as the profile wrote it: no Accept-Encoding of the library's
		// own, and a compressed answer is decoded as over HTTP/1.1.
		DisableCompression: true,
		// Answer headers over it count as toolarge, as readBufferSize bounds HTTP/1.1's.
		// HTTP/2 counts them as RFC 9113 §6.5.2 does (names, values and 32 bytes each), and
		// net/http adds 320 bytes for that overhead.
		MaxResponseHeaderBytes: readBufferSize,
		// Closed before a server's idle timeout would close them, as maxIdleConn says for
		// HTTP/1.1: a GOAWAY racing a request shows as eof.
		IdleConnTimeout: maxIdleConn,
	}
	h.tr.Protocols.SetUnencryptedHTTP2(true) // prior knowledge, over TLS too: see the top
	for i := range h.shapes.all {
		r, err := h.prepare(&h.shapes.all[i])
		if err != nil {
			return nil, err
		}
		h.base = append(h.base, r)
	}
	if cfg.Source != nil {
		h.streamed = make([]atomic.Pointer[http.Request], len(cfg.Requests))
	}
	return h, nil
}

// prepare makes the request of shape sh without its body: everything a send does not change.
// Header names keep the profile's spelling as HTTP/2 allows it: lower case on the wire.
func (h *http2Transport) prepare(sh *requestShape) (*http.Request, error) {
	u, err := url.Parse(sh.uri)
	if err != nil {
		return nil, fmt.Errorf("request URL: %w", err)
	}
	hd := http.Header{"Content-Type": {"application/json"}, "User-Agent": {userAgent}}
	if h.auth != "" && !hasHeader(sh.headers, "Authorization") {
		hd.Set("Authorization", h.auth)
	}
	r := &http.Request{Method: sh.method, URL: u, Host: u.Host, Header: hd, Proto: "HTTP/2.0", ProtoMajor: 2}
	// As over HTTP/1.1 (see http1Transport.prepare): a profile's Content-Type, Host and
	// User-Agent replace the defaults, a request's own headers come last and win for those,
	// and other headers repeat as written.
	seen := map[string]bool{}
	for _, list := range [][]Header{h.cfg.Headers, sh.headers} {
		for _, x := range list {
			k := http.CanonicalHeaderKey(x.Name)
			switch {
			case k == "Host":
				r.Host = x.Value
			case k == "Content-Type" || k == "User-Agent" || !seen[k]:
				hd[k] = []string{x.Value}
			default:
				hd[k] = append(hd[k], x.Value)
			}
			seen[k] = true
		}
	}
	return r, nil
}

// request is the prepared request of mix entry idx (of a Source's, streamed, made on first use).
func (h *http2Transport) request(idx int, streamed bool) *http.Request {
	if !streamed {
		return h.base[h.shapes.of[idx]]
	}
	if r := h.streamed[idx].Load(); r != nil {
		return r
	}
	sh := h.shapes.forRequest(&h.cfg.Requests[idx])
	r, err := h.prepare(&sh)
	if err != nil {
		r = h.base[0] // unreachable: the path was checked with the URL; send it as shape 0
	}
	h.streamed[idx].CompareAndSwap(nil, r)
	return h.streamed[idx].Load()
}

// closeIdle closes every slot's connection once its requests in flight are done.
func (h *http2Transport) closeIdle() {
	for i := range h.slots {
		s := &h.slots[i]
		s.mu.Lock()
		h.drop(s, s.cc)
		s.mu.Unlock()
	}
}

// conn is slot s's connection, dialed (within the request's deadline) when it has none or
// the one it had can take no more requests: closed, or told to go away (its Available is 0
// with none of its own in flight; one that only looks full, with requests still in flight,
// is kept: RoundTrip waits for a stream on it, or says it is unusable, see roundTrip).
func (h *http2Transport) conn(s *h2slot, deadline time.Time) (*http.ClientConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cc := s.cc; cc != nil && cc.Err() == nil && (cc.Available() > 0 || cc.InFlight() > 0) {
		return cc, nil
	}
	h.drop(s, s.cc)
	ctx, cancel := context.WithDeadline(context.WithValue(context.Background(), slotKey{}, s), deadline)
	defer cancel()
	cc, err := h.tr.NewClientConn(ctx, "http", h.addr)
	if err != nil {
		return nil, err
	}
	s.cc = cc
	return cc, nil
}

// drop forgets slot s's connection cc (if it is still the slot's), so the next request dials;
// cc is retired. s.mu must be held.
func (h *http2Transport) drop(s *h2slot, cc *http.ClientConn) {
	if cc == nil || s.cc != cc {
		return
	}
	s.cc = nil
	retire(cc)
}

// dropConn is drop, locking the slot.
func (h *http2Transport) dropConn(s *h2slot, cc *http.ClientConn) {
	s.mu.Lock()
	h.drop(s, cc)
	s.mu.Unlock()
}

// retire closes cc once no request is in flight on it: at once, or when its last one ends
// (each ends by its deadline).
func retire(cc *http.ClientConn) {
	cc.SetStateHook(func(cc *http.ClientConn) {
		if cc.InFlight() == 0 {
			_ = cc.Close()
		}
	})
	if cc.InFlight() == 0 {
		_ = cc.Close()
	}
}

// dial is the Transport's: the Client's counted dial (TCP, then TLS for https, timed apart
// from latency) within ctx's deadline, ALPN checked, counted into the slot the connection
// is for.
func (h *http2Transport) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	var timeout time.Duration
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
		if timeout <= 0 {
			return nil, context.DeadlineExceeded
		}
	}
	conn, err := h.d.dialConn(h.addr, timeout)
	if err != nil {
		if h.cfg.HTTP2 && strings.Contains(err.Error(), "tls: no application protocol") {
			h.notes.noH2("") // a server that knows ALPN and refused "h2" ends the handshake
		}
		return nil, err
	}
	if h.cfg.HTTP2 {
		proto := ""
		if tc, ok := conn.(*tls.Conn); ok {
			proto = tc.ConnectionState().NegotiatedProtocol
		}
		if proto != "h2" {
			_ = conn.Close()
			h.notes.noH2(proto)
			return nil, &noH2Error{proto: proto}
		}
	}
	s, _ := ctx.Value(slotKey{}).(*h2slot)
	if s == nil {
		s = new(h2slot) // not dialed by conn (cannot happen): counted nowhere
	}
	return &countedConn{Conn: conn, in: &s.in, out: &s.out}, nil
}

// claim takes the bytes the slot's connections carried since the last claim: every frame,
// HPACK-compressed headers, frame headers and the connection's own frames (preface,
// SETTINGS, PING, WINDOW_UPDATE) included. Streams share a connection, so bytes are not
// told apart per request: each answer files what its connection carried since the one
// before, and the totals are the connection's traffic. Bytes of a request that failed are
// filed with the slot's next answer.
func (s *h2slot) claim() (in, out uint32) {
	return clampU32(int(s.in.Swap(0))), clampU32(int(s.out.Swap(0)))
}

// countedConn counts what a connection reads into in and writes into out: a slot's
// connection its bytes, and a test's server the bytes it saw, alike.
type countedConn struct {
	net.Conn
	in, out *atomic.Int64
}

func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.in.Add(int64(n))
	return n, err
}

func (c *countedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.out.Add(int64(n))
	return n, err
}

// noH2Error is a TLS connection on which the server did not agree to HTTP/2.
type noH2Error struct{ proto string }

func (e *noH2Error) Error() string {
	if e.proto == "" {
		return `tls: the server did not agree to HTTP/2 (ALPN "h2"): it chose no protocol`
	}
	return fmt.Sprintf(`tls: the server did not agree to HTTP/2 (ALPN "h2"): it chose %q`, e.proto)
}
