package engine

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
	"github.com/valyala/fastjson"
)

const (
	// DefaultMaxBodyBytes caps response bodies when Config.MaxBodyBytes is 0.
	DefaultMaxBodyBytes = 4 << 20
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

// dialFunc opens one transport connection to addr within timeout.
type dialFunc func(addr string, timeout time.Duration) (net.Conn, error)

// Client sends the request mix to one target through one fasthttp.HostClient: at most
// Config.Connections keep-alive connections, a response body cap, per-phase read and write
// timeouts, and no retries, ever — a load tester that retried silently would report answers the
// target never gave. Each new connection's setup time (TCP connect plus TLS handshake) is
// recorded with Counters.RecordDial. A Client is safe for concurrent use through its Senders.
type Client struct {
	cfg      *Config
	counters *Counters
	hc       *fasthttp.HostClient
	uri      string // request URI without userinfo
	origin   string // scheme://host[:port] of uri, which a Request.Path completes
	auth     string // Authorization from URL userinfo, "" when none or set in Headers
	shapes   []requestShape
	shapeOf  []int // per mix entry: its index in shapes
	// bytesOut is per mix entry: the request's size on the wire for a fixed body; for a
	// Template, the size without the body and without the digits of its Content-Length, which
	// Send adds per rendering (bytesOutEmpty is the size for an empty rendering, as fasthttp
	// then writes no Content-Length for GET and HEAD).
	bytesOut      []uint32
	bytesOutEmpty []uint32
	seeds         atomic.Uint64 // makes each Sender's random source distinct
	tlsCfg        *tls.Config
	dial          dialFunc // the transport; tests swap in an in-memory one
}

// requestShape is what an HTTP request looks like apart from its body: mix entries with their
// own Method, Path or Headers (vegeta targets) have their own; all others share shape 0, the
// Config's.
type requestShape struct {
	method  string
	uri     string
	headers []Header
}

// NewClient makes the Client for cfg.URL. It fails for a URL that is not http or https or has
// no host; the port defaults to 80 or 443.
func NewClient(cfg *Config, counters *Counters) (*Client, error) {
	return newClient(cfg, counters, nil, nil)
}

// newClient is NewClient with the transport and TLS settings replaceable, for tests.
func newClient(cfg *Config, counters *Counters, dial dialFunc, tlsCfg *tls.Config) (*Client, error) {
	shown := cfg.DisplayURL // errors never print cfg.URL: it may carry secrets
	if shown == "" {
		shown = "(redacted)"
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // *url.Error's text repeats the whole URL
		}
		return nil, fmt.Errorf("target URL %q: %w", shown, err)
	}
	isTLS := false
	port := "80"
	switch strings.ToLower(u.Scheme) {
	case "http":
	case "https":
		isTLS, port = true, "443"
	default:
		return nil, fmt.Errorf("target URL %q: scheme %q is not supported, use http:// or https://", shown, u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("target URL %q has no host, write it like http://127.0.0.1:8899", shown)
	}
	if p := u.Port(); p != "" {
		port = p
	}
	addr := net.JoinHostPort(u.Hostname(), port)

	c := &Client{cfg: cfg, counters: counters, dial: dial}
	if u.User != nil && !hasHeader(cfg.Headers, "Authorization") {
		// Sent explicitly rather than left to fasthttp, which would also do it, so the header is
		// the same whatever fasthttp version, and Headers can override it.
		pass, _ := u.User.Password()
		c.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pass))
	}
	clean := *u
	clean.User = nil
	clean.Fragment, clean.RawFragment = "", ""
	c.uri = clean.String()
	c.origin = (&url.URL{Scheme: clean.Scheme, Host: clean.Host}).String()
	if isTLS {
		c.tlsCfg = tlsCfg
		if c.tlsCfg == nil {
			if c.tlsCfg, err = newTLSConfig(cfg.TLS); err != nil {
				return nil, err
			}
		}
		c.tlsCfg = c.tlsCfg.Clone()
		if cfg.TLS.Insecure {
			c.tlsCfg.InsecureSkipVerify = true // the profile said so, and Describe says it loudly
		}
		if c.tlsCfg.ServerName == "" {
			c.tlsCfg.ServerName = u.Hostname()
		}
		c.tlsCfg.NextProtos = []string{"http/1.1"} // fasthttp speaks HTTP/1.1 only
	}

	maxBody := cfg.MaxBodyBytes
	if maxBody <= 0 {
		maxBody = DefaultMaxBodyBytes
	}
	conns := cfg.Connections
	if conns <= 0 {
		conns = 1
	}
	noRetry := func(*fasthttp.Request, int, error) (bool, bool) { return false, false }
	c.hc = &fasthttp.HostClient{
		Addr:                addr,
		IsTLS:               isTLS,
		DialTimeout:         c.dialConn,
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
		Transport:                 earlyAnswerTransport{}, // reads a 413 sent before the body was
		NoDefaultUserAgentHeader:  true,
		// Parse errors then carry sentinels (see ClassifyError) instead of echoing the answer.
		SecureErrorLogMessage: true,
		// Response header names keep fasthttp's canonical form ("X-Ratelimit-Remaining"), so
		// rate-limit headers land under one name whatever case a server or proxy used; request
		// headers keep the profile's spelling instead (see prepare).
		DisableHeaderNamesNormalizing: false,
	}

	c.shapeRequests()
	if err := c.sizeRequests(); err != nil {
		return nil, err
	}
	return c, nil
}

// newTLSConfig is how https targets are checked: the system's roots plus Config.TLS.CAFile.
func newTLSConfig(t TLSConfig) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.CAFile == "" {
		return cfg, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool() // no system roots (a scratch container): the CA file alone
	}
	pem, err := os.ReadFile(t.CAFile)
	if err != nil {
		return nil, fmt.Errorf("CA file %s: %w", t.CAFile, err)
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("CA file %s holds no PEM certificate", t.CAFile)
	}
	cfg.RootCAs = pool
	return cfg, nil
}

// shapeRequests finds the distinct request shapes of the mix: shape 0 is the Config's method,
// URL and headers; entries with their own Method, Path or Headers get one each (shared by
// equal ones), so that a Sender keeps one prepared request per shape and changes nothing
// but the body per send.
func (c *Client) shapeRequests() {
	method := c.cfg.Method
	if method == "" {
		method = fasthttp.MethodPost
	}
	c.shapes = []requestShape{{method: method, uri: c.uri}}
	if c.cfg.Source != nil {
		return // a streamed request's shape is made by each Sender when it first sends one
	}
	c.shapeOf = make([]int, len(c.cfg.Requests))
	index := map[string]int{}
	for i, r := range c.cfg.Requests {
		if r.Method == "" && r.Path == "" && len(r.Headers) == 0 {
			continue
		}
		sh := c.shapeFor(&r)
		var key strings.Builder
		key.WriteString(sh.method + "\x00" + sh.uri)
		for _, h := range sh.headers {
			key.WriteString("\x00" + h.Name + ":" + h.Value)
		}
		k, ok := index[key.String()]
		if !ok {
			k = len(c.shapes)
			index[key.String()] = k
			c.shapes = append(c.shapes, sh)
		}
		c.shapeOf[i] = k
	}
}

// shapeFor is the shape of a request with its own Method, Path or Headers.
func (c *Client) shapeFor(r *Request) requestShape {
	sh := requestShape{method: c.shapes[0].method, uri: c.uri, headers: r.Headers}
	if r.Method != "" {
		sh.method = r.Method
	}
	if r.Path != "" {
		sh.uri = c.origin + r.Path
		if r.Path[0] != '/' {
			sh.uri = c.origin + "/" + r.Path
		}
	}
	return sh
}

// sizeRequests computes bytesOut (see Client) for every mix entry.
func (c *Client) sizeRequests() error {
	if c.cfg.Source != nil {
		return nil // streamed requests are sized per send (see SendStreamed)
	}
	c.bytesOut = make([]uint32, len(c.cfg.Requests))
	c.bytesOutEmpty = make([]uint32, len(c.cfg.Requests))
	reqs := make([]fasthttp.Request, len(c.shapes))
	for k := range c.shapes {
		c.prepare(&reqs[k], k)
	}
	for i, r := range c.cfg.Requests {
		req := &reqs[c.shapeOf[i]]
		body := r.Body
		if r.Template != nil && len(body) == 0 {
			body = []byte("{}") // any non-empty body: only the head is kept
		}
		setBody(req, body)
		n, err := wireSize(req)
		if err != nil {
			return fmt.Errorf("request %d (%s): %w", i, r.Name, err)
		}
		c.bytesOut[i] = n
		if r.Template == nil {
			continue
		}
		if c.bytesOut[i], c.bytesOutEmpty[i], err = headSizes(req); err != nil {
			return fmt.Errorf("request %d (%s): %w", i, r.Name, err)
		}
	}
	return nil
}

// headSizes measures a request whose body changes with every send: head is its size without
// the body and without the digits of its Content-Length, which each send adds (see
// bodySize); empty is its size with an empty body (then fasthttp writes no Content-Length
// for GET and HEAD).
func headSizes(req *fasthttp.Request) (head, empty uint32, err error) {
	body := []byte("{}") // any non-empty body: only the head is kept
	setBody(req, body)
	n, err := wireSize(req)
	if err != nil {
		return 0, 0, err
	}
	setBody(req, nil)
	if empty, err = wireSize(req); err != nil {
		return 0, 0, err
	}
	return n - clampU32(len(body)+decimalDigits(len(body))), empty, nil
}

// bodySize is the size on the wire of a request measured by headSizes, sent with a body of
// n bytes.
func bodySize(head, empty uint32, n int) uint32 {
	if n == 0 {
		return empty
	}
	return head + clampU32(n+decimalDigits(n))
}

// setBody sets the body of a prepared request. An empty body gets an explicit
// "Content-Length: 0": for GET and HEAD fasthttp writes no Content-Length of its own then, and
// would send the one left from the previous, non-empty body of the same request (a server
// would wait for bytes that never come).
func setBody(req *fasthttp.Request, body []byte) {
	req.SetBodyRaw(body)
	if len(body) == 0 {
		req.Header.SetContentLength(0)
	}
}

// decimalDigits is the length of n written in decimal, as in a Content-Length header.
func decimalDigits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// Close closes the idle keep-alive connections. Requests in flight finish on their own; call it
// after the workers are done.
func (c *Client) Close() { c.hc.CloseIdleConnections() }

// dialConn is the HostClient's dial: TCP (and TLS, for https) within the request's remaining
// time or Config.Timeout, whichever is shorter, timed for Counters.RecordDial. The handshake is
// done here, not left to fasthttp, so the dial time includes it and the handshake shares the
// deadline. Failed dials are not counted: Counters.Dials is the number of connections made.
func (c *Client) dialConn(addr string, timeout time.Duration) (net.Conn, error) {
	if timeout <= 0 || (c.cfg.Timeout > 0 && timeout > c.cfg.Timeout) {
		timeout = c.cfg.Timeout
	}
	t0 := time.Now()
	var deadline time.Time
	if timeout > 0 {
		deadline = t0.Add(timeout)
	}
	var conn net.Conn
	var err error
	if c.dial != nil {
		conn, err = c.dial(addr, timeout)
	} else {
		d := net.Dialer{Timeout: timeout}
		conn, err = d.Dial("tcp", addr)
	}
	if err != nil {
		return nil, err
	}
	if c.tlsCfg != nil {
		tc := tls.Client(conn, c.tlsCfg)
		if err := tc.SetDeadline(deadline); err != nil {
			_ = conn.Close()
			return nil, err
		}
		if err := tc.Handshake(); err != nil {
			_ = conn.Close()
			return nil, err
		}
		if err := tc.SetDeadline(time.Time{}); err != nil {
			_ = conn.Close()
			return nil, err
		}
		conn = tc
	}
	if c.counters != nil {
		c.counters.RecordDial(int64(time.Since(t0)))
	}
	return conn, nil
}

// prepare sets everything of a request of shape k that does not change between sends.
func (c *Client) prepare(req *fasthttp.Request, k int) { c.prepareShape(req, &c.shapes[k]) }

// prepareShape sets everything of a request of shape sh that does not change between sends.
func (c *Client) prepareShape(req *fasthttp.Request, sh *requestShape) {
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
	if c.auth != "" && !hasHeader(sh.headers, "Authorization") {
		req.Header.Set("Authorization", c.auth)
	}
	// Add, not Set: a profile may repeat a header on purpose. fasthttp still keeps one
	// Content-Type, Host and User-Agent, so these replace the defaults above, and a request's
	// own headers (a target's) come last and win for those.
	for _, h := range c.cfg.Headers {
		req.Header.Add(h.Name, h.Value)
	}
	for _, h := range sh.headers {
		req.Header.Add(h.Name, h.Value)
	}
	if hasHeader(c.cfg.Headers, "Host") || hasHeader(sh.headers, "Host") {
		req.UseHostHeader = true // virtual hosting: the profile's Host, not the URL's
	}
}

// wireSize is the request's size on the wire, as fasthttp writes it.
func wireSize(req *fasthttp.Request) (uint32, error) {
	var n countWriter
	w := bufio.NewWriter(&n)
	if err := req.Write(w); err != nil {
		return 0, err
	}
	if err := w.Flush(); err != nil {
		return 0, err
	}
	if n > math.MaxUint32 {
		return math.MaxUint32, nil
	}
	return uint32(n), nil
}

// countWriter counts bytes written to it.
type countWriter int64

func (n *countWriter) Write(p []byte) (int, error) {
	*n += countWriter(len(p))
	return len(p), nil
}

func hasHeader(hs []Header, name string) bool {
	for _, h := range hs {
		if strings.EqualFold(h.Name, name) {
			return true
		}
	}
	return false
}

// Sender is one worker's private sending state: a reused request per request shape with the
// static headers set, a reused response, a Classifier, and for templates a body buffer and a
// random source of its own. It is not safe for concurrent use; make one per worker.
type Sender struct {
	c      *Client
	req    fasthttp.Request                 // shape 0: the Config's method, URL and headers
	shaped [maxPreparedShapes]preparedShape // other shapes, prepared on use (see request)
	evict  int                              // the slot of shaped prepared again next
	resp   fasthttp.Response
	cls    *Classifier
	names  []string // rate-limit header names already allocated, reused for every answer
	body   []byte   // a Template's rendering; grows to the largest and stays
	rng    *rand.Rand
	calls  RPCCalls        // the calls of a rendering whose ids change per send (RPCCalls.PerSend)
	bodyP  fastjson.Parser // reads them
	// streamed are the requests of a Source, by Index, each prepared and measured the first
	// time this Sender sends it.
	streamed []streamedRequest
}

// NewSender makes one worker's Sender.
func (c *Client) NewSender() *Sender {
	s := &Sender{c: c, cls: NewClassifier(c.cfg.Limits)}
	c.prepare(&s.req, 0)
	s.rng = rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), c.seeds.Add(1)))
	return s
}

// maxPreparedShapes bounds the requests a Sender keeps prepared for shapes other than the
// Config's. A target file may hold a thousand shapes, and a request kept prepared per shape
// (about 1.2 KiB) by every worker cost connections × shapes: 73 MiB for 64 connections and a
// file of 1,000 paths. Beyond the bound, the oldest is prepared again for the new shape, in
// under a microsecond and without allocating.
const maxPreparedShapes = 16

// preparedShape is a request prepared for shape (0, the zero value, when empty: shape 0 has
// Sender.req).
type preparedShape struct {
	shape int
	req   *fasthttp.Request
}

// request returns the prepared request for mix entry idx. A shape other than the Config's is
// prepared when this Sender sends it, not in NewSender, and kept among the last
// maxPreparedShapes it sent; the first ones allocate their request, then nothing allocates.
func (s *Sender) request(idx int) *fasthttp.Request {
	k := s.c.shapeOf[idx]
	if k == 0 {
		return &s.req
	}
	for i := range s.shaped {
		if s.shaped[i].shape == k {
			return s.shaped[i].req
		}
	}
	p := &s.shaped[s.evict]
	s.evict = (s.evict + 1) % len(s.shaped)
	if p.req == nil {
		p.req = new(fasthttp.Request)
	} else {
		p.req.Reset()
	}
	s.c.prepare(p.req, k)
	p.shape = k
	return p.req
}

// Send sends request mix entry idx and fills smp with the result: Sent (just before the
// request goes out), Done, Status or Err, BytesIn, BytesOut, Request, Outcome and RPCErrN. It
// leaves Intended and Stage to the caller. JSON-RPC errors are appended to b.RPCErrors with
// sampleIdx, rate-limit headers (Retry-After, X-RateLimit-*, X-Rate-Limit-*, RateLimit*) to
// b.Headers. Times are nanoseconds since start, the run's start (monotonic).
//
// The request ends at Config.Timeout after the send, or at ctx's deadline if that is earlier
// (so a draining run bounds its in-flight requests); it always ends with exactly one outcome.
// Cancelling ctx without a deadline does not abort a request in flight: fasthttp cannot, and
// an abandoned request would have no outcome.
//
// DoDeadline rather than DoTimeout: in fasthttp v1.74 both run the request on the calling
// goroutine (nothing is left running behind a timeout, unlike old Client.DoTimeout), but a
// deadline lets ctx's deadline cap it. fasthttp sets it as the connection's read and write
// deadline, and re-checks it when a connection is dialed or awaited.
//
// A Request with a Template gets a fresh body per send, rendered into the Sender's buffer with
// the Sender's random source; its Method, Path and Headers select a request prepared once.
//
// BytesOut is the request exactly as written: computed once per mix entry for a fixed body;
// for a Template, the head measured once plus the rendering's length and the digits of its
// Content-Length, so it is exact too. BytesIn counts the
// status line, every header as "Name: value\r\n", the blank line and the body as received,
// after de-chunking: chunk framing and the server's own whitespace are not counted, so it
// is a close lower bound of the wire bytes. A transport error leaves BytesIn 0.
//
// Send allocates nothing in steady state; only a rate-limit header value (and a header name
// the first time it is seen) is copied, because the batch outlives the response.
func (s *Sender) Send(ctx context.Context, idx int, smp *Sample, b *Batch, sampleIdx int32, start time.Time) {
	c := s.c
	r := &c.cfg.Requests[idx]
	req := s.request(idx)
	smp.BytesOut = c.bytesOut[idx]
	var rendered []byte // a body of this send only, whose ids may be its own
	if r.Template != nil {
		s.body = r.Template.Append(s.body[:0], s.rng)
		setBody(req, s.body)
		smp.BytesOut = bodySize(c.bytesOut[idx], c.bytesOutEmpty[idx], len(s.body))
		rendered = s.body
	} else {
		setBody(req, r.Body)
	}
	s.do(ctx, req, idx, r.RPC, rendered, smp, b, sampleIdx, start)
}

// do sends the prepared req and fills smp with the result (see Send). rpc are the calls of
// the request's body, or of its sample when sent, this send's own body, may carry other ids
// (RPCCalls.PerSend; see callsOf).
func (s *Sender) do(ctx context.Context, req *fasthttp.Request, idx int, rpc *RPCCalls, sent []byte, smp *Sample, b *Batch, sampleIdx int32, start time.Time) {
	c := s.c
	smp.Request = uint16(idx)
	smp.BytesIn = 0
	smp.RPCErrN = 0

	now := time.Now()
	deadline := now.Add(c.cfg.Timeout)
	if c.cfg.Timeout <= 0 {
		deadline = now.Add(time.Hour) // unvalidated config: still never wait forever
	}
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	smp.Sent = int64(now.Sub(start))
	err := c.hc.DoDeadline(req, &s.resp, deadline)
	smp.Done = int64(time.Since(start))

	calls := s.callsOf(rpc, sent)
	if err != nil {
		smp.Status = 0
		smp.Err = ClassifyError(err)
		smp.Outcome = OutcomeFailed
		smp.Calls, smp.CallsOK, smp.CallsLimited = clampU16(calls.Calls()), 0, 0
		return
	}
	status := s.resp.StatusCode()
	smp.Status = uint16(status)
	smp.Err = ErrNone
	body := s.resp.Body()
	if len(s.resp.Header.ContentEncoding()) > 0 {
		// Only when the profile asked for compression (Accept-Encoding): errors are found in
		// the decoded body, capped like the body itself against decompression bombs. This
		// opt-in path may allocate; an undecodable body is classified as received.
		if d, derr := s.resp.BodyUncompressedWithLimit(c.hc.MaxResponseBodySize); derr == nil {
			body = d
		}
	}
	smp.BytesIn = s.headerBytes(b) + clampU32(len(s.resp.Body()))
	s.cls.Classify(smp, status, body, calls, sampleIdx, b)
}

// callsOf is the JSON-RPC calls a request sent: rpc, its sample's. For a body whose ids change
// per send (a template's rendering, a streamed target's body) they are read from body, this
// send's (one parse of it, no allocation once warm); a body that does not have the calls the
// sample had keeps the sample's, so the count of calls sent and answered always agree.
func (s *Sender) callsOf(rpc *RPCCalls, body []byte) *RPCCalls {
	if rpc == nil || !rpc.PerSend || body == nil {
		return rpc
	}
	if !s.calls.parse(&s.bodyP, body) || s.calls.Calls() != rpc.Calls() || s.calls.Batch != rpc.Batch {
		return rpc
	}
	return &s.calls
}

// headerBytes sizes the status line and headers of the answer and copies rate-limit headers
// into b, in one pass over the headers.
func (s *Sender) headerBytes(b *Batch) uint32 {
	h := &s.resp.Header
	proto := len(h.Protocol())
	if proto == 0 {
		proto = len("HTTP/1.1")
	}
	n := proto + 1 + 3 + 1 + len(h.StatusMessage()) + 2 + 2 // "HTTP/1.1 200 OK\r\n" … "\r\n"
	for k, v := range h.All() {
		n += len(k) + 2 + len(v) + 2
		if isRateLimitHeader(k) {
			s.record(b, k, v)
		}
	}
	return clampU32(n)
}

// record appends a rate-limit header to b unless the batch already ends its record of that
// header with the same value (a flood of identical "Retry-After: 1" costs nothing).
func (s *Sender) record(b *Batch, k, v []byte) {
	name := ""
	for _, n := range s.names {
		if n == string(k) {
			name = n
			break
		}
	}
	if name == "" {
		name = string(k)
		s.names = append(s.names, name)
	}
	for i := len(b.Headers) - 1; i >= 0; i-- {
		if b.Headers[i].Name == name {
			if b.Headers[i].Value == string(v) {
				return
			}
			break
		}
	}
	b.Headers = append(b.Headers, HeaderSeen{Name: name, Value: string(v)})
}

// rateLimitPrefixes are the header name prefixes providers use to announce limits, lower case.
var rateLimitPrefixes = [...]string{"retry-after", "x-ratelimit-", "x-rate-limit-", "ratelimit"}

// isRateLimitHeader reports Retry-After, X-RateLimit-*, X-Rate-Limit-* and the IETF RateLimit
// headers (RateLimit, RateLimit-Policy, RateLimit-Limit …), whatever their case.
func isRateLimitHeader(k []byte) bool {
	for _, p := range rateLimitPrefixes {
		if len(k) >= len(p) && asciiEqualFold(k[:len(p)], p) {
			return true
		}
	}
	return false
}

// asciiEqualFold compares a header name with a lower-case ASCII string, ignoring case.
func asciiEqualFold(b []byte, lower string) bool {
	for i := range len(b) {
		ch := b[i]
		if 'A' <= ch && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		if ch != lower[i] {
			return false
		}
	}
	return true
}

func clampU32(n int) uint32 {
	if n < 0 {
		return 0
	}
	if uint64(n) > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(n)
}
