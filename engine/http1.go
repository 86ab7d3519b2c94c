package engine

// The HTTP/1.1 transport: one fasthttp.HostClient for the target, configured never to retry
// and to read an early answer (http1_roundtrip.go), and per worker a request prepared once per
// request shape, of which a send changes only the body. Everything here is fasthttp; what every
// transport shares (timing, classification, id matching, dial accounting) is in sender.go and
// client_dial.go.

import (
	"errors"
	"time"

	"github.com/valyala/fasthttp"
)

const (
	// readBufferSize bounds status line + headers of one answer; fasthttp's 4 KiB default is
	// tight for providers behind CDNs (long CSP and cookie headers). Larger headers count as
	// "toolarge".
	readBufferSize = 8 << 10
	// maxIdleConn closes keep-alive connections idle this long. It is shorter than the shortest
	// common server keep-alive timeout (Node.js: 5 s; fasthttp's own default of 10 s would lose
	// that race), so a slow plan rarely sends on a connection the server is just closing: the
	// Client never retries, so that race would show as eof.
	maxIdleConn = 4 * time.Second
	userAgent   = "rpcstress"
)

// http1Transport is the HTTP/1.1 transport of a Client: at most Config.Connections keep-alive
// connections of one fasthttp.HostClient, each dialed by the Client's dialer.
type http1Transport struct {
	cfg    *Config
	hc     *fasthttp.HostClient // its connections; sends go through rt, not its Do (see prime)
	rt     earlyAnswerTransport
	auth   string // Authorization from the URL's userinfo (see target)
	shapes shapes
	// bytesOut is per mix entry: the request's size on the wire for a fixed body; for a
	// Template, the size without the body and without the digits of its Content-Length, which
	// load adds per rendering (bytesOutEmpty is the size for an empty rendering, as fasthttp
	// then writes no Content-Length for GET and HEAD).
	bytesOut      []uint32
	bytesOutEmpty []uint32
	// d and t are how the event loop (loop_linux.go) dials the target itself.
	d *dialer
	t target
}

// newHTTP1 makes the HTTP/1.1 transport to t, dialing with d.
func newHTTP1(cfg *Config, t target, d *dialer) (*http1Transport, error) {
	h := &http1Transport{cfg: cfg, hc: newHostClient(cfg, t, d), auth: t.auth, shapes: newShapes(cfg, t), d: d, t: t}
	if err := h.sizeRequests(); err != nil {
		return nil, err
	}
	return h, nil
}

// newHostClient is the fasthttp client to t: at most Config.Connections keep-alive
// connections, a response body cap, the request's deadline for every phase and no retries.
func newHostClient(cfg *Config, t target, d *dialer) *fasthttp.HostClient {
	maxBody := cfg.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	conns := cfg.Connections
	if conns <= 0 {
		conns = 1
	}
	noRetry := func(*fasthttp.Request, int, error) (bool, bool) { return false, false }
	return &fasthttp.HostClient{
		Addr:                t.addr,
		IsTLS:               t.tls,
		DialTimeout:         d.dialConn,
		MaxConns:            conns,
		MaxConnWaitTimeout:  cfg.Timeout,
		MaxIdleConnDuration: maxIdleConn,
		// No ReadTimeout or WriteTimeout: Send's deadline (Config.Timeout from the send, or
		// ctx's deadline) already bounds every phase, and fasthttp would read the clock twice
		// more per request to compute phase deadlines that can never come first.
		MaxResponseBodySize:       maxBody,
		ReadBufferSize:            readBufferSize,
		MaxIdemponentCallAttempts: 1,
		RetryIfErr:                noRetry,
		RetryIf:                   func(*fasthttp.Request) bool { return false },
		Transport:                 primeOnly{}, // sends bypass Do: see http1Transport.prime
		NoDefaultUserAgentHeader:  true,
		// Parse errors then carry sentinels (see ClassifyError) instead of echoing the answer.
		SecureErrorLogMessage: true,
		// Response header names keep fasthttp's canonical form ("X-Ratelimit-Remaining"), so
		// rate-limit headers land under one name whatever case a server or proxy used; request
		// headers keep the profile's spelling instead (see prepare).
		DisableHeaderNamesNormalizing: false,
	}
}

func (h *http1Transport) closeIdle() { h.hc.CloseIdleConnections() }

// prime sets on req and resp (nil: none) what HostClient.Do sets on every request and
// response from the client's configuration. Sends call the transport directly (see
// earlyAnswerTransport.roundTrip), and these flags are unexported: the one that matters,
// SecureErrorLogMessage, keeps an answer's bytes out of parse errors and makes fasthttp
// return the sentinels ClassifyError knows. Neither Reset clears them, so once per request and
// response made is enough. Do then calls primeOnly, which does nothing.
func (h *http1Transport) prime(req *fasthttp.Request, resp *fasthttp.Response) {
	_ = h.hc.Do(req, resp) // always errPrimeOnly
}

// newRequest is a request made for shape sh: prepared, then primed.
func (h *http1Transport) newRequest(sh *requestShape) *fasthttp.Request {
	req := new(fasthttp.Request)
	h.prepare(req, sh)
	h.prime(req, nil)
	return req
}

// primeOnly is the HostClient's Transport, reached only from prime: every send goes through
// earlyAnswerTransport.roundTrip.
type primeOnly struct{}

// errPrimeOnly is primeOnly's answer, never a send's.
var errPrimeOnly = errors.New("engine: HostClient.Do called outside prime (sends use earlyAnswerTransport.roundTrip)")

func (primeOnly) RoundTrip(*fasthttp.HostClient, *fasthttp.Request, *fasthttp.Response) (bool, error) {
	return false, errPrimeOnly
}

// prepare sets everything of a request of shape sh that does not change between sends.
func (h *http1Transport) prepare(req *fasthttp.Request, sh *requestShape) {
	// Custom headers go out spelled as the profile wrote them: some gateways match API-key
	// header names case-sensitively.
	req.Header.DisableNormalizing()
	req.SetRequestURI(sh.uri)
	// Parse it now, as HostClient.Do would: Write sends the origin-form path (not the absolute
	// URL) only for a parsed URI, and wireSize must see the request exactly as it will go out.
	req.URI()
	req.Header.SetMethod(sh.method)
	req.Header.SetContentType("application/json")
	req.Header.SetUserAgent(userAgent)
	if h.auth != "" && !hasHeader(sh.headers, "Authorization") {
		req.Header.Set("Authorization", h.auth)
	}
	// Add, not Set: a profile may repeat a header on purpose. fasthttp still keeps one
	// Content-Type, Host and User-Agent, so these replace the defaults above, and a request's
	// own headers (a target's) come last and win for those.
	for _, hd := range h.cfg.Headers {
		req.Header.Add(hd.Name, hd.Value)
	}
	for _, hd := range sh.headers {
		req.Header.Add(hd.Name, hd.Value)
	}
	if hasHeader(h.cfg.Headers, "Host") || hasHeader(sh.headers, "Host") {
		req.UseHostHeader = true // virtual hosting: the profile's Host, not the URL's
	}
}
