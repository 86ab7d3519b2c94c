package engine

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/hostile"
	"github.com/valyala/fasthttp"
	"github.com/valyala/fasthttp/fasthttputil"
)

const clientTestBody = `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ"]}`

// clientConfig is a small valid config for url.
func clientConfig(url string) *Config {
	return &Config{
		Name: "test", URL: url, Timeout: 2 * time.Second, Connections: 4, Limits: DefaultLimits(),
		Requests: []Request{
			{Name: "getBalance", Body: []byte(clientTestBody), Weight: 1, Items: 1},
			{Name: "batch", Body: []byte(`[` + clientTestBody + `,` + clientTestBody + `]`), Weight: 1, Items: 2},
		},
	}
}

// memTarget serves h on an in-memory listener and returns a Client for cfg whose every dial
// reaches it.
func memTarget(t testing.TB, cfg *Config, counters *Counters, h fasthttp.RequestHandler) *Client {
	t.Helper()
	ln := fasthttputil.NewInmemoryListener()
	srv := &fasthttp.Server{Handler: h, DisableHeaderNamesNormalizing: true}
	go srv.Serve(ln) //nolint:errcheck // ends when ln closes
	c, err := newClient(cfg, counters, func(string, time.Duration) (net.Conn, error) { return ln.Dial() }, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		ln.Close()
	})
	return c
}

// dialClient is a Client for cfg that dials for real (TCP, then TLS with tlsCfg, or with the
// profile's settings when nil), closed when the test ends.
func dialClient(t testing.TB, cfg *Config, counters *Counters, tlsCfg *tls.Config) *Client {
	t.Helper()
	c, err := newClient(cfg, counters, nil, tlsCfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// http1Of is c's transport, HTTP/1.1 (the only one there is).
func http1Of(c *Client) *http1Transport { return c.tr.(*http1Transport) }

// sendOne runs one Send of mix entry idx into a fresh batch, keeping the caller's Intended and Stage.
func sendOne(ctx context.Context, s *Sender, idx int) (Sample, *Batch) {
	b := &Batch{}
	smp := Sample{Intended: 12, Stage: 3}
	s.Send(ctx, idx, &smp, b, 5, time.Now())
	return smp, b
}

// TestSendOutcomes: every rule of rawAnswers holds through a whole send, which leaves the
// caller's fields alone and times and sizes the request.
func TestSendOutcomes(t *testing.T) {
	for _, tt := range rawAnswers() {
		t.Run(tt.name, func(t *testing.T) {
			c := memTarget(t, clientConfig("http://node.test:8899/"), NewCounters(1), func(ctx *fasthttp.RequestCtx) {
				ctx.SetStatusCode(tt.status)
				ctx.SetBodyString(tt.body)
			})
			smp, b := sendOne(context.Background(), c.NewSender(), 0)
			if smp.Status != uint16(tt.status) || smp.Err != ErrNone || smp.Outcome != tt.outcome {
				t.Errorf("status %d err %v outcome %v, want %d none %v", smp.Status, smp.Err, smp.Outcome, tt.status, tt.outcome)
			}
			checkRecords(t, smp.RPCErrN, b.RPCErrors, 5, tt.errs)
			if smp.Intended != 12 || smp.Stage != 3 || smp.Request != 0 {
				t.Errorf("intended %d stage %d request %d: caller fields changed", smp.Intended, smp.Stage, smp.Request)
			}
			if smp.Sent <= 0 || smp.Done < smp.Sent {
				t.Errorf("sent %d done %d", smp.Sent, smp.Done)
			}
			if smp.BytesIn < uint32(len(tt.body)+len("HTTP/1.1 200 OK\r\n\r\n")) || smp.BytesOut <= uint32(len(clientTestBody)) {
				t.Errorf("bytes in %d out %d", smp.BytesIn, smp.BytesOut)
			}
		})
	}
}

// TestSendRequestShape: method, URI, Host, Content-Type, custom headers (spelled as written),
// Authorization from the URL's userinfo and the body all reach the server; BytesOut is exact.
func TestSendRequestShape(t *testing.T) {
	tests := []struct {
		name    string
		profile Config // its URL, Method and Headers; the rest is clientConfig's
		lines   requestLines
	}{
		// Defaults: POST, JSON content type, Host from the URL, path and query kept.
		{"defaults", Config{URL: "http://node.test:8899/rpc?api-key=abc"}, requestLines{
			has: []string{"POST /rpc?api-key=abc HTTP/1.1\r\n", "\r\nHost: node.test:8899\r\n", "\r\nContent-Type: application/json\r\n", "\r\nUser-Agent: rpcstress\r\n"}}},
		// Custom headers keep their spelling; Content-Type from the profile wins.
		{"custom", Config{URL: "http://node.test/", Method: "PUT", Headers: []Header{{Name: "x-api-key", Value: "k1", Secret: true}, {Name: "Content-Type", Value: "application/json-rpc"}}}, requestLines{
			has:   []string{"PUT / HTTP/1.1\r\n", "\r\nx-api-key: k1\r\n", "\r\nContent-Type: application/json-rpc\r\n", "\r\nHost: node.test\r\n"},
			lacks: []string{"application/json\r\n"}}},
		// Userinfo becomes Basic auth and never appears in the request line.
		{"userinfo", Config{URL: "http://alice:s3cret@node.test:8899/"}, requestLines{
			has:   []string{"POST / HTTP/1.1\r\n", "\r\nAuthorization: Basic YWxpY2U6czNjcmV0\r\n"},
			lacks: []string{"alice"}}},
		// A Host header in the profile overrides the URL's (virtual hosting).
		{"host override", Config{URL: "http://127.0.0.1:8899/", Headers: []Header{{Name: "Host", Value: "rpc.example"}}}, requestLines{
			has:   []string{"POST / HTTP/1.1\r\n", "\r\nHost: rpc.example\r\n"},
			lacks: []string{"127.0.0.1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := clientConfig(tt.profile.URL)
			cfg.Method, cfg.Headers = tt.profile.Method, tt.profile.Headers
			var srv captureServer
			c := memTarget(t, cfg, NewCounters(1), srv.handle)
			smp, _ := sendOne(context.Background(), c.NewSender(), 1)
			tt.lines.check(t, srv.last(), smp, cfg, 1)
		})
	}
}

// requestLines are what a raw request must contain, and what it must not.
type requestLines struct{ has, lacks []string }

// check checks the request a server captured for a send of mix entry idx of cfg: it holds
// every line of has and none of lacks, the entry's body, and BytesOut is its size on the wire
// (request line, headers as received with the blank line, and the body).
func (l requestLines) check(t *testing.T, got capturedRequest, smp Sample, cfg *Config, idx int) {
	t.Helper()
	for _, w := range l.has {
		if !strings.Contains(got.raw, w) {
			t.Errorf("request %d lacks %q:\n%s", idx, w, got.raw)
		}
	}
	for _, a := range l.lacks {
		if strings.Contains(got.raw, a) {
			t.Errorf("request %d has %q:\n%s", idx, a, got.raw)
		}
	}
	if got.body != string(cfg.Requests[idx].Body) || int(smp.BytesOut) != len(got.raw)+len(got.body) || smp.Err != ErrNone || int(smp.Request) != idx {
		t.Errorf("request %d: body %q BytesOut %d, want %d (err %v, request %d)", idx, got.body, smp.BytesOut, len(got.raw)+len(got.body), smp.Err, smp.Request)
	}
}

// TestSendBytesIn: status line, headers, blank line and body are counted as they were sent.
func TestSendBytesIn(t *testing.T) {
	const answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Node: a\r\nContent-Length: 11\r\n\r\n{\"result\":1"
	srv := hostile.Start(t, hostile.Config{Serve: func(c net.Conn, br *bufio.Reader) {
		for readHTTPRequest(br) {
			io.WriteString(c, answer)
		}
	}})
	smp, _ := sendOne(context.Background(), dialClient(t, clientConfig(srv.URL), NewCounters(1), nil).NewSender(), 0)
	if smp.Err != ErrNone || smp.BytesIn != uint32(len(answer)) {
		t.Errorf("err %v BytesIn %d, want %d", smp.Err, smp.BytesIn, len(answer))
	}
}

// TestSendTransportErrors: a transport error leaves no status and a failed outcome.
func TestSendTransportErrors(t *testing.T) {
	stall := hostile.Start(t, hostile.Config{Mode: hostile.Silent}).Addr
	big := hostile.Start(t, hostile.Config{Mode: hostile.Huge, Size: 4096}).Addr
	tests := []struct {
		name    string
		addr    string
		timeout time.Duration
		ctxWait time.Duration // a ctx deadline, when > 0
		want    ErrClass
		maxTime time.Duration
	}{
		// The server never answers: timeout after Config.Timeout.
		{"timeout", stall, 150 * time.Millisecond, 0, ErrTimeout, 2 * time.Second},
		// A ctx deadline earlier than the timeout ends the request sooner.
		{"ctx deadline", stall, 10 * time.Second, 100 * time.Millisecond, ErrTimeout, 2 * time.Second},
		// A 4 KiB body over a 1 KiB cap.
		{"toolarge", big, time.Second, 0, ErrTooLarge, 2 * time.Second},
		// Nobody listens.
		{"refused", refusedAddr(t), time.Second, 0, ErrRefused, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := clientConfig("http://" + tt.addr + "/")
			cfg.Timeout, cfg.MaxBodyBytes = tt.timeout, 1024
			c := dialClient(t, cfg, NewCounters(1), nil)
			ctx := context.Background()
			if tt.ctxWait > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.ctxWait)
				defer cancel()
			}
			smp, b := sendOne(ctx, c.NewSender(), 0)
			if smp.Err != tt.want || smp.Status != 0 || smp.Outcome != OutcomeFailed || smp.BytesIn != 0 || smp.RPCErrN != 0 || len(b.RPCErrors) != 0 {
				t.Errorf("got %+v, want err %v, no status, failed", smp, tt.want)
			}
			if d := time.Duration(smp.Done - smp.Sent); d > tt.maxTime {
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestSendDials: Counters.Dials is the number of connections made: one for sequential
// keep-alive requests, one per request when the server closes, one per concurrent request.
func TestSendDials(t *testing.T) {
	t.Run("keep-alive", func(t *testing.T) {
		counters := NewCounters(1)
		c := memTarget(t, clientConfig("http://node.test/"), counters, func(ctx *fasthttp.RequestCtx) {})
		s := c.NewSender()
		for range 10 {
			sendOne(context.Background(), s, 0)
		}
		if n := counters.Dials.Load(); n != 1 {
			t.Errorf("dials %d, want 1", n)
		}
		if counters.DialNanos.Load() <= 0 || counters.DialMax.Load() <= 0 {
			t.Errorf("dial time not recorded")
		}
	})
	t.Run("connection close", func(t *testing.T) {
		counters := NewCounters(1)
		c := memTarget(t, clientConfig("http://node.test/"), counters, func(ctx *fasthttp.RequestCtx) { ctx.SetConnectionClose() })
		s := c.NewSender()
		for range 5 {
			if smp, _ := sendOne(context.Background(), s, 0); smp.Err != ErrNone {
				t.Fatalf("err %v", smp.Err)
			}
		}
		if n := counters.Dials.Load(); n != 5 {
			t.Errorf("dials %d, want 5", n)
		}
	})
	t.Run("concurrent", func(t *testing.T) {
		const workers = 3
		counters := NewCounters(1)
		var arrived sync.WaitGroup
		arrived.Add(workers)
		c := memTarget(t, clientConfig("http://node.test/"), counters, func(ctx *fasthttp.RequestCtx) {
			arrived.Done()
			arrived.Wait() // all three in flight at once: three connections
		})
		var wg sync.WaitGroup
		for range workers {
			s := c.NewSender()
			wg.Go(func() { sendOne(context.Background(), s, 0) })
		}
		wg.Wait()
		if n := counters.Dials.Load(); n != workers {
			t.Errorf("dials %d, want %d", n, workers)
		}
	})
}

// TestSendRateLimitHeaders: rate-limit headers are captured, once per value per batch, and
// nothing is recorded for answers without them.
func TestSendRateLimitHeaders(t *testing.T) {
	var mu sync.Mutex
	remaining := "5"
	c := memTarget(t, clientConfig("http://node.test/"), NewCounters(1), func(ctx *fasthttp.RequestCtx) {
		mu.Lock()
		defer mu.Unlock()
		if remaining == "" {
			return
		}
		ctx.SetStatusCode(429)
		ctx.Response.Header.Set("Retry-After", "1")
		ctx.Response.Header.Set("X-RateLimit-Remaining", remaining)
		ctx.Response.Header.Set("RateLimit-Policy", "10;w=1")
		ctx.Response.Header.Set("X-Other", "no")
	})
	s := c.NewSender()
	b := &Batch{}
	var smp Sample
	s.Send(context.Background(), 0, &smp, b, 0, time.Now())
	s.Send(context.Background(), 0, &smp, b, 1, time.Now()) // same values: nothing new
	mu.Lock()
	remaining = "4"
	mu.Unlock()
	s.Send(context.Background(), 0, &smp, b, 2, time.Now())
	want := []HeaderSeen{{"Retry-After", "1"}, {"X-Ratelimit-Remaining", "5"}, {"Ratelimit-Policy", "10;w=1"}, {"X-Ratelimit-Remaining", "4"}}
	if len(b.Headers) != len(want) {
		t.Fatalf("headers %v, want %v", b.Headers, want)
	}
	for i := range want {
		if b.Headers[i] != want[i] {
			t.Errorf("header %d = %v, want %v", i, b.Headers[i], want[i])
		}
	}
	mu.Lock()
	remaining = ""
	mu.Unlock()
	b.Reset()
	s.Send(context.Background(), 0, &smp, b, 0, time.Now())
	if smp.Status != 200 || len(b.Headers) != 0 {
		t.Errorf("status %d headers %v, want 200 and none", smp.Status, b.Headers)
	}
}

// TestSendCompressed: when the profile asks for gzip, errors are found in the decoded body, and
// BytesIn counts the compressed bytes received.
func TestSendCompressed(t *testing.T) {
	cfg := clientConfig("http://node.test/")
	cfg.Headers = []Header{{Name: "Accept-Encoding", Value: "gzip"}}
	gz := fasthttp.AppendGzipBytes(nil, rpcErrBody)
	c := memTarget(t, cfg, NewCounters(1), func(ctx *fasthttp.RequestCtx) {
		ctx.Response.Header.Set("Content-Encoding", "gzip")
		ctx.SetBody(gz)
	})
	smp, b := sendOne(context.Background(), c.NewSender(), 0)
	if smp.Outcome != OutcomeFailed || smp.RPCErrN != 1 || len(b.RPCErrors) != 1 || b.RPCErrors[0].Code != -32602 {
		t.Errorf("got %+v %v, want one -32602", smp, b.RPCErrors)
	}
	if smp.BytesIn > uint32(len(gz)+200) {
		t.Errorf("BytesIn %d for %d compressed bytes", smp.BytesIn, len(gz))
	}
}

// TestSendHTTPS: a TLS target works end to end, and the handshake is part of the dial time.
func TestSendHTTPS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":1}`)
	}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	counters := NewCounters(1)
	c := dialClient(t, clientConfig(srv.URL+"/"), counters, &tls.Config{RootCAs: pool})
	if !http1Of(c).hc.IsTLS {
		t.Fatal("https URL without TLS")
	}
	smp, _ := sendOne(context.Background(), c.NewSender(), 0)
	if smp.Status != 200 || smp.Outcome != OutcomeOK || counters.Dials.Load() != 1 {
		t.Errorf("got %+v, dials %d", smp, counters.Dials.Load())
	}
}

func TestNewClientURL(t *testing.T) {
	tests := []struct {
		url   string
		addr  string // "" means an error is expected
		isTLS bool
	}{
		{"http://127.0.0.1:8899", "127.0.0.1:8899", false},
		{"http://node.test/rpc", "node.test:80", false},
		{"https://node.test/rpc?key=1", "node.test:443", true},
		{"HTTPS://[::1]:8443/", "[::1]:8443", true},
		{"ftp://node.test/", "", false},
		{"http:///path", "", false},
		{"127.0.0.1:8899", "", false},
		{"http://bad host/", "", false},
		{"http://user:s3cret@bad host/", "", false}, // the error must not show the password
	}
	for _, tt := range tests {
		c, err := NewClient(clientConfig(tt.url), NewCounters(1))
		switch {
		case tt.addr == "" && err == nil:
			t.Errorf("%q: no error", tt.url)
		case err != nil && strings.Contains(err.Error(), "s3cret"):
			t.Errorf("%q: error shows the secret: %v", tt.url, err)
		case tt.addr != "" && err != nil:
			t.Errorf("%q: %v", tt.url, err)
		case err == nil && (http1Of(c).hc.Addr != tt.addr || http1Of(c).hc.IsTLS != tt.isTLS):
			t.Errorf("%q: addr %q tls %v, want %q %v", tt.url, http1Of(c).hc.Addr, http1Of(c).hc.IsTLS, tt.addr, tt.isTLS)
		}
	}
}

// raceEnabled reports a test binary built with -race.
func raceEnabled() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// sizesTemplate renders bodies of the given lengths in turn: lengths around a Content-Length
// digit boundary, and an empty one.
type sizesTemplate struct {
	sizes []int
	next  atomic.Int64
}

func (t *sizesTemplate) Append(dst []byte, rng *rand.Rand) []byte {
	n := t.sizes[int(t.next.Add(1)-1)%len(t.sizes)]
	for range n {
		dst = append(dst, 'a'+byte(rng.IntN(26)))
	}
	return dst
}

// captureServer records each request's first line, headers and body as received.
type captureServer struct {
	mu   sync.Mutex
	reqs []capturedRequest
}

type capturedRequest struct {
	raw  string // request line and headers, with the blank line
	body string
}

func (s *captureServer) handle(ctx *fasthttp.RequestCtx) {
	s.mu.Lock()
	defer s.mu.Unlock()
	line := string(ctx.Request.Header.Method()) + " " + string(ctx.Request.Header.RequestURI()) + " HTTP/1.1\r\n"
	s.reqs = append(s.reqs, capturedRequest{raw: line + string(ctx.Request.Header.RawHeaders()), body: string(ctx.Request.Body())})
}

func (s *captureServer) last() capturedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs[len(s.reqs)-1]
}

// TestSendTemplate: a Template renders a fresh body for every send; BytesOut is exact for
// each rendering, across Content-Length digit boundaries and for an empty body, for the
// Config's method and for a GET target.
func TestSendTemplate(t *testing.T) {
	for _, method := range []string{"", "GET"} {
		t.Run("method "+method, func(t *testing.T) {
			sizes := []int{0, 1, 9, 10, 99, 100, 1000, 0, 3} // an empty body after a long one too
			cfg := clientConfig("http://node.test:8899/")
			cfg.Requests = []Request{{Name: "t", Body: []byte("sample"), Template: &sizesTemplate{sizes: sizes}, Method: method, Weight: 1, Items: 1}}
			var srv captureServer
			c := memTarget(t, cfg, NewCounters(1), srv.handle)
			s := c.NewSender()
			seen := map[string]bool{}
			for i, n := range sizes {
				smp, _ := sendOne(context.Background(), s, 0)
				got := srv.last()
				if smp.Err != ErrNone || len(got.body) != n {
					t.Fatalf("send %d: err %v body %q, want %d bytes", i, smp.Err, got.body, n)
				}
				if want := len(got.raw) + len(got.body); int(smp.BytesOut) != want {
					t.Errorf("send %d (%d bytes): BytesOut %d, want %d\n%s", i, n, smp.BytesOut, want, got.raw)
				}
				seen[got.body] = true
			}
			if len(seen) != len(sizes)-1 {
				t.Errorf("bodies repeat: %d distinct of %d", len(seen), len(sizes))
			}
		})
	}
}

// TestSendShapes: a request's own Method, Path and Headers reach the server, next to the
// Config's headers; requests without them keep the Config's; BytesOut stays exact.
func TestSendShapes(t *testing.T) {
	cfg := clientConfig("http://alice:pw@node.test:8899/rpc?key=1")
	cfg.Headers = []Header{{Name: "X-Profile", Value: "p"}}
	cfg.Requests = []Request{
		{Name: "default", Body: []byte(`{"a":1}`), Weight: 1, Items: 1},
		{Name: "GET /health", Method: "GET", Path: "/health?x=1", Weight: 1, Items: 1},
		{Name: "getSlot", Body: []byte(`{"b":2}`), Path: "/", Headers: []Header{{Name: "X-Api-Key", Value: "k1"}, {Name: "Authorization", Value: "Bearer t"}}, Weight: 1, Items: 1},
		{Name: "same shape", Body: []byte(`{"c":3}`), Path: "/", Headers: []Header{{Name: "X-Api-Key", Value: "k1"}, {Name: "Authorization", Value: "Bearer t"}}, Weight: 1, Items: 1},
	}
	var srv captureServer
	c := memTarget(t, cfg, NewCounters(1), srv.handle)
	if n := len(http1Of(c).shapes.all); n != 3 {
		t.Errorf("%d shapes, want 3 (equal ones shared)", n)
	}
	s := c.NewSender()
	tests := []struct {
		idx   int
		lines requestLines
	}{
		// The Config's shape: URL path and query, basic auth from the userinfo.
		{0, requestLines{has: []string{"POST /rpc?key=1 HTTP/1.1\r\n", "\r\nX-Profile: p\r\n", "\r\nAuthorization: Basic "}}},
		// Its own method and path; no body.
		{1, requestLines{has: []string{"GET /health?x=1 HTTP/1.1\r\n", "\r\nX-Profile: p\r\n", "\r\nHost: node.test:8899\r\n"}, lacks: []string{"key=1"}}},
		// Its own headers, after the Config's; its Authorization replaces the URL's.
		{2, requestLines{has: []string{"POST / HTTP/1.1\r\n", "\r\nX-Profile: p\r\n", "\r\nX-Api-Key: k1\r\n", "\r\nAuthorization: Bearer t\r\n"}, lacks: []string{"Basic"}}},
		// The same shape as the one before: its prepared request.
		{3, requestLines{has: []string{"POST / HTTP/1.1\r\n", "\r\nX-Api-Key: k1\r\n"}}},
	}
	for _, tt := range tests {
		for range 2 { // the second send reuses the prepared request
			smp, _ := sendOne(context.Background(), s, tt.idx)
			tt.lines.check(t, srv.last(), smp, cfg, tt.idx)
		}
	}
}

// TestSendTLSVerification: verification is on by default (a self-signed node is a tls
// error), a CA file makes it pass, insecure skips it; each connection's setup (TCP and TLS
// handshake) is counted and timed.
func TestSendTLSVerification(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":1}`)
	}))
	srv.Config.ErrorLog = quietLog() // the refused handshakes are the point
	srv.StartTLS()
	defer srv.Close()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		tls  TLSConfig
		want ErrClass
	}{
		// The test server's certificate is self-signed: refused.
		{"default", TLSConfig{}, ErrTLS},
		// Trusting its certificate as a CA.
		{"ca file", TLSConfig{CAFile: caFile}, ErrNone},
		// Not checking at all.
		{"insecure", TLSConfig{Insecure: true}, ErrNone},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := clientConfig(srv.URL + "/")
			cfg.TLS = tt.tls
			counters := NewCounters(1)
			c := dialClient(t, cfg, counters, nil)
			var wg sync.WaitGroup
			for range 3 { // three at once: three connections
				s := c.NewSender()
				wg.Go(func() {
					for range 3 {
						if smp, _ := sendOne(context.Background(), s, 0); smp.Err != tt.want {
							t.Errorf("err %v, want %v", smp.Err, tt.want)
						}
					}
				})
			}
			wg.Wait()
			dials := counters.Dials.Load()
			switch {
			case tt.want != ErrNone && dials != 0:
				t.Errorf("%d failed dials counted as connections", dials)
			case tt.want == ErrNone && (dials < 1 || dials > 3):
				t.Errorf("dials %d, want 1 to 3 for 3 senders", dials)
			case tt.want == ErrNone && counters.DialNanos.Load()/dials <= 0:
				t.Errorf("mean dial time %d ns", counters.DialNanos.Load()/dials)
			}
		})
	}
	t.Run("bad CA file", func(t *testing.T) {
		cfg := clientConfig(srv.URL + "/")
		cfg.TLS.CAFile = filepath.Join(t.TempDir(), "none.pem")
		if _, err := NewClient(cfg, NewCounters(1)); err == nil || !strings.Contains(err.Error(), "none.pem") {
			t.Errorf("error %v", err)
		}
	})
}
