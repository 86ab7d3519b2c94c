package engine

// The Client: one target reached through one transport. This file builds it from a Config
// (the target's URL, its TLS settings and the counted dialer, which every transport shares,
// then the transport itself) and hands out a Sender per worker. What a transport must provide
// is the contract in sender.go: HTTP/1.1 over fasthttp (http1*.go), or HTTP/2 over
// golang.org/x/net/http2 (http2*.go) when Config.HTTP2 or H2C asks for it.

import (
	"crypto/tls"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// DefaultMaxBodyBytes caps response bodies when Config.MaxBodyBytes is 0.
const DefaultMaxBodyBytes = 4 << 20

// Client sends the request mix to one target: at most Config.Connections keep-alive
// connections, a response body cap, the request's deadline bounding every phase, and no
// retries, ever — a load tester that retried silently would report answers the target never
// gave. Each new connection's setup time (TCP connect plus TLS handshake) is recorded with
// Counters.RecordDial. A Client is safe for concurrent use through its Senders.
type Client struct {
	cfg    *Config
	target target
	tr     transport
	seeds  atomic.Uint64 // makes each Sender's random source distinct
}

// NewClient makes the Client for cfg.URL. It fails for a URL that is not http or https or has
// no host; the port defaults to 80 or 443.
func NewClient(cfg *Config, counters *Counters) (*Client, error) {
	return newClient(cfg, counters, nil, nil)
}

// newClient is NewClient with the transport's dial and the TLS settings replaceable, for tests.
func newClient(cfg *Config, counters *Counters, dial dialFunc, tlsCfg *tls.Config) (*Client, error) {
	t, err := parseTarget(cfg)
	if err != nil {
		return nil, err
	}
	d := &dialer{timeout: cfg.Timeout, dial: dial, counters: counters}
	if t.tls {
		// Each transport offers what it speaks, and only that: HTTP/2 asked for is not
		// quietly HTTP/1.1 (see http2.go). fasthttp speaks HTTP/1.1 only, and a WebSocket
		// upgrade is HTTP/1.1 too.
		proto := "http/1.1"
		if cfg.HTTP2 {
			proto = "h2"
		}
		if d.tls, err = clientTLS(tlsCfg, cfg.TLS, t.host, proto); err != nil {
			return nil, err
		}
	}
	var tr transport
	switch {
	case t.ws:
		tr, err = newWS(cfg, t, d, counters)
	case cfg.UsesHTTP2():
		tr, err = newHTTP2(cfg, t, d)
	default:
		tr, err = newHTTP1(cfg, t, d)
	}
	if err != nil {
		return nil, err
	}
	return &Client{cfg: cfg, target: t, tr: tr}, nil
}

// noteTo makes what the transport has to say about the target (a server that refused HTTP/2,
// say) events of l, for a transport that says anything; name is the target's in a run with
// several ("" for one).
func (c *Client) noteTo(l *EventLog, name string) {
	if n, ok := c.tr.(interface{ noteTo(*EventLog, string) }); ok {
		n.noteTo(l, name)
	}
}

// NewSender makes one worker's Sender.
func (c *Client) NewSender() *Sender {
	return &Sender{
		cfg: c.cfg,
		ex:  c.tr.newExchange(),
		cls: NewClassifier(c.cfg.Limits),
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), c.seeds.Add(1))),
	}
}

// Close closes the idle keep-alive connections. Requests in flight finish on their own; call it
// after the workers are done.
func (c *Client) Close() { c.tr.closeIdle() }
