package engine

import (
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// h2Server is a net/http test server speaking HTTP/2 only: over TLS with ALPN "h2" alone, or
// h2c with prior knowledge alone. It counts its connections and the requests it holds at once.
type h2Server struct {
	*httptest.Server
	conns, inflight, peak atomic.Int64
	tlsCfg                *tls.Config // what a client trusts it with; nil for h2c
}

// startH2 starts h behind an h2Server, over TLS when tlsOn, its http.Server set up by
// configure first.
func startH2(t testing.TB, tlsOn bool, h http.HandlerFunc, configure ...func(*http.Server)) *h2Server {
	t.Helper()
	s := &h2Server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor != 2 {
			http.Error(w, "not HTTP/2: "+r.Proto, http.StatusHTTPVersionNotSupported)
			return
		}
		n := s.inflight.Add(1)
		defer s.inflight.Add(-1)
		for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
		}
		h(w, r)
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Config.ErrorLog = quietLog()
	for _, f := range configure {
		f(s.Config)
	}
	if tlsOn {
		s.EnableHTTP2 = true // httptest then offers "h2" alone over ALPN
		s.StartTLS()
		pool := x509.NewCertPool()
		pool.AddCert(s.Certificate())
		s.tlsCfg = &tls.Config{RootCAs: pool}
	} else {
		s.Config.Protocols = new(http.Protocols)
		s.Config.Protocols.SetUnencryptedHTTP2(true)
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

// h2Config is clientConfig for s: http2 over TLS, h2c in cleartext.
func (s *h2Server) config() *Config {
	cfg := clientConfig(s.URL + "/")
	cfg.HTTP2, cfg.H2C = s.tlsCfg != nil, s.tlsCfg == nil
	return cfg
}

// rpcOK answers the JSON-RPC call of clientTestBody.
func rpcOK(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":"0x1"}`)
}

// TestHTTP2Send: over TLS with "h2" alone and over h2c, requests go out as HTTP/2 with their
// body, on one connection dialed once, and come back ok with their bytes counted and their
// rate-limit headers recorded; a compressed answer the profile asked for is decoded.
func TestHTTP2Send(t *testing.T) {
	for _, tt := range []struct {
		name  string
		tlsOn bool
		gzip  bool
	}{
		{"tls", true, false},  // ALPN "h2" against a server that speaks nothing else
		{"h2c", false, false}, // cleartext, prior knowledge, against an h2c-only server
		{"gzip", false, true}, // Accept-Encoding from the profile: the answer is decoded
	} {
		t.Run(tt.name, func(t *testing.T) {
			var bodies atomic.Int64
			s := startH2(t, tt.tlsOn, func(w http.ResponseWriter, r *http.Request) {
				if b, _ := io.ReadAll(r.Body); string(b) == clientTestBody {
					bodies.Add(1)
				}
				w.Header().Set("X-RateLimit-Remaining", "7")
				if !tt.gzip {
					rpcOK(w, r)
					return
				}
				w.Header().Set("Content-Encoding", "gzip")
				zw := gzip.NewWriter(w)
				_, _ = io.WriteString(zw, `{"jsonrpc":"2.0","id":1,"result":"0x1"}`)
				_ = zw.Close()
			})
			cfg := s.config()
			if tt.gzip {
				cfg.Headers = []Header{{Name: "Accept-Encoding", Value: "gzip"}}
			}
			counters := NewCounters(1)
			c := dialClient(t, cfg, counters, s.tlsCfg)
			snd := c.NewSender()
			const sends = 3
			for range sends {
				smp, b := sendOne(context.Background(), snd, 0)
				if smp.Err != ErrNone || smp.Status != 200 || smp.Outcome != OutcomeOK || smp.BytesIn == 0 || smp.BytesOut == 0 {
					t.Fatalf("sample %+v", smp)
				}
				if len(b.Headers) != 1 || b.Headers[0] != (HeaderSeen{Name: "X-Ratelimit-Remaining", Value: "7"}) {
					t.Errorf("rate-limit headers %+v", b.Headers)
				}
			}
			if bodies.Load() != sends || counters.Dials.Load() != 1 || s.conns.Load() != 1 {
				t.Errorf("bodies %d, dials %d, server connections %d; want %d, 1, 1", bodies.Load(), counters.Dials.Load(), s.conns.Load(), sends)
			}
		})
	}
}

// TestHTTP2Refused: http2 = true against a TLS server that does not agree to "h2" counts
// every request as tls, and says why once as an event, whether the server refused ALPN's
// offer or knows no ALPN at all.
func TestHTTP2Refused(t *testing.T) {
	for _, tt := range []struct {
		name   string
		protos []string
		chose  string
	}{
		{"http1.1 only", []string{"http/1.1"}, "it chose no protocol"}, // Go ends the handshake
		{"no ALPN", []string{}, "it chose no protocol"},                // the handshake completes without one
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(rpcOK))
			srv.TLS = &tls.Config{NextProtos: tt.protos}
			srv.Config.ErrorLog = quietLog()
			srv.StartTLS()
			defer srv.Close()
			pool := x509.NewCertPool()
			pool.AddCert(srv.Certificate())
			cfg := clientConfig(srv.URL + "/")
			cfg.HTTP2 = true
			c := dialClient(t, cfg, NewCounters(1), &tls.Config{RootCAs: pool})
			events := NewEventLog(time.Now())
			c.noteTo(events, "")
			snd := c.NewSender()
			for range 2 {
				if smp, _ := sendOne(context.Background(), snd, 0); smp.Err != ErrTLS || smp.Outcome != OutcomeFailed {
					t.Fatalf("sample %+v, want a tls error", smp)
				}
			}
			ev := events.List()
			if len(ev) != 1 || ev[0].Kind != "http2" || !strings.Contains(ev[0].Detail, "did not agree to HTTP/2") ||
				!strings.Contains(ev[0].Detail, tt.chose) {
				t.Errorf("events %+v, want one saying the server did not agree (%s)", ev, tt.chose)
			}
		})
	}
}

// TestHTTP2StreamsLimited: a server that allows fewer streams per connection than the run's
// streams gets an event saying so, once.
func TestHTTP2StreamsLimited(t *testing.T) {
	s := startH2(t, false, rpcOK, func(srv *http.Server) {
		srv.HTTP2 = &http.HTTP2Config{MaxConcurrentStreams: 2}
	})
	cfg := s.config()
	cfg.Streams = 4
	c := dialClient(t, cfg, NewCounters(1), nil)
	events := NewEventLog(time.Now())
	c.noteTo(events, "b")
	snd := c.NewSender()
	for range 2 {
		if smp, _ := sendOne(context.Background(), snd, 0); smp.Err != ErrNone {
			t.Fatalf("sample %+v", smp)
		}
	}
	ev := events.List()
	if len(ev) != 1 || !strings.HasPrefix(ev[0].Detail, "target b: the server allows 2 streams per connection, fewer than streams = 4") {
		t.Errorf("events %+v", ev)
	}
}

// TestHTTP2TransportOutcomes: an answer over max_body (with or without its length up front),
// headers over the limit, and a server slower than the timeout are the same outcomes as over
// HTTP/1.1.
func TestHTTP2TransportOutcomes(t *testing.T) {
	const maxBody = 1000
	big := strings.Repeat("x", maxBody+1)
	tests := []struct {
		name string
		h    http.HandlerFunc
		want ErrClass
	}{
		{"body over max_body", func(w http.ResponseWriter, _ *http.Request) { // Content-Length says so
			_, _ = io.WriteString(w, big)
		}, ErrTooLarge},
		{"streamed body over max_body", func(w http.ResponseWriter, _ *http.Request) { // no length: read until over
			for range 4 {
				_, _ = io.WriteString(w, big[:maxBody/2])
				w.(http.Flusher).Flush()
			}
		}, ErrTooLarge},
		{"headers over the limit", func(w http.ResponseWriter, r *http.Request) {
			for i := range 20 { // 10 KiB in all, over readBufferSize and net/http's 320 bytes more
				w.Header().Set(fmt.Sprintf("X-Big-%d", i), strings.Repeat("h", 512))
			}
			rpcOK(w, r)
		}, ErrTooLarge},
		{"one header longer than the limit", func(w http.ResponseWriter, r *http.Request) {
			// The HPACK decoder stops on a string longer than the whole limit: a connection
			// error it cannot tell from corrupt HPACK.
			w.Header().Set("X-Big", strings.Repeat("h", readBufferSize+512))
			rpcOK(w, r)
		}, ErrMalformed},
		{"slower than the timeout", func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
			}
		}, ErrTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startH2(t, false, tt.h)
			cfg := s.config()
			cfg.MaxBodyBytes, cfg.Timeout = maxBody, 200*time.Millisecond
			c := dialClient(t, cfg, NewCounters(1), nil)
			if smp, _ := sendOne(context.Background(), c.NewSender(), 0); smp.Err != tt.want || smp.Status != 0 {
				t.Errorf("sample %+v, want %v", smp, tt.want)
			}
		})
	}
}

// TestHTTP2URLs: http2 needs https, h2c needs http, and not both.
func TestHTTP2URLs(t *testing.T) {
	tests := []struct {
		url        string
		http2, h2c bool
		want       string // in the error; "" for none
	}{
		{"https://node.test/", true, false, ""},                     // HTTP/2 over TLS
		{"http://node.test/", false, true, ""},                      // h2c
		{"http://node.test/", true, false, "needs an https:// URL"}, // http2 in cleartext
		{"https://node.test/", false, true, "needs an http:// URL"}, // h2c over TLS
		{"https://node.test/", true, true, "set one"},               // both
	}
	for _, tt := range tests {
		cfg := clientConfig(tt.url)
		cfg.HTTP2, cfg.H2C = tt.http2, tt.h2c
		_, err := NewClient(cfg, nil)
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s http2=%v h2c=%v: error %v, want %q", tt.url, tt.http2, tt.h2c, err, tt.want)
		}
	}
}

// TestHTTP2BytesAreTheConnections: the bytes a run counts out are exactly what the server
// read from its connection (every frame, the preface and SETTINGS included), and the bytes in
// never more than the server wrote, at least the answers' bodies.
func TestHTTP2BytesAreTheConnections(t *testing.T) {
	var read, written atomic.Int64
	closed := make(chan struct{})
	s := &h2Server{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(rpcOK))
	s.Config.Protocols = new(http.Protocols)
	s.Config.Protocols.SetUnencryptedHTTP2(true)
	s.Config.ErrorLog = quietLog()
	s.Listener = &countingListener{Listener: s.Listener, read: &read, written: &written, closed: closed}
	s.Start()
	defer s.Close()
	c := dialClient(t, s.config(), NewCounters(1), nil)
	snd := c.NewSender()
	var in, out int64
	const sends = 20
	for range sends {
		smp, _ := sendOne(context.Background(), snd, 0)
		if smp.Err != ErrNone {
			t.Fatalf("sample %+v", smp)
		}
		in, out = in+int64(smp.BytesIn), out+int64(smp.BytesOut)
	}
	slot := &c.tr.(*http2Transport).slots[0]
	c.Close()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the server never saw the connection close")
	}
	restIn, restOut := slot.claim() // carried after the last answer: never lost, only unfiled
	if out+int64(restOut) != read.Load() {
		t.Errorf("bytes out %d + %d unfiled, the server read %d", out, restOut, read.Load())
	}
	body := int64(len(`{"jsonrpc":"2.0","id":1,"result":"0x1"}`))
	if got := in + int64(restIn); got > written.Load() || in < sends*body {
		t.Errorf("bytes in %d (+%d unfiled): the server wrote %d, the bodies alone are %d", in, restIn, written.Load(), sends*body)
	}
}

// countingListener counts what its connections read and write, and says when one closed.
type countingListener struct {
	net.Listener
	read, written *atomic.Int64
	closed        chan struct{}
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingServerConn{countedConn: countedConn{Conn: c, in: l.read, out: l.written}, l: l}, nil
}

// countingServerConn counts as the client's connections do (countedConn), and says when it
// closed.
type countingServerConn struct {
	countedConn
	l    *countingListener
	once atomic.Bool
}

func (c *countingServerConn) Close() error {
	if c.once.CompareAndSwap(false, true) {
		close(c.l.closed)
	}
	return c.Conn.Close()
}

// TestClassifyHTTP2: each of net/http's HTTP/2 error texts (x/net's are the same) is named.
func TestClassifyHTTP2(t *testing.T) {
	tests := []struct {
		msg  string
		want ErrClass
	}{
		{"stream error: stream ID 3; INTERNAL_ERROR; received from peer", ErrReset},   // RST_STREAM
		{"stream error: stream ID 5; CANCEL; received from peer", ErrReset},           // RST_STREAM
		{"stream error: stream ID 7; REFUSED_STREAM; received from peer", ErrRefused}, // not processed
		{`stream error: stream ID 9; PROTOCOL_ERROR; invalid header field value for "x"`, ErrMalformed},
		{`http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=NO_ERROR, debug=""`, ErrEOF},
		{`http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=ENHANCE_YOUR_CALM, debug=""`, ErrReset},
		{"http2: Transport received Server's graceful shutdown GOAWAY", ErrEOF},
		{"http2: Transport received GOAWAY from server ErrCode:PROTOCOL_ERROR", ErrReset},
		{"connection error: PROTOCOL_ERROR", ErrMalformed},
		{"http2: client conn not usable", ErrEOF},
		{"http2: client conn is closed", ErrEOF},
		{"stream error: stream ID 1; PROTOCOL_ERROR; http2: response header list larger than advertised limit", ErrTooLarge},
	}
	for _, tt := range tests {
		if got := ClassifyError(&textError{tt.msg}); got != tt.want {
			t.Errorf("%q: %v, want %v", tt.msg, got, tt.want)
		}
	}
	if got := ClassifyError(&noH2Error{proto: "http/1.1"}); got != ErrTLS {
		t.Errorf("no h2: %v, want tls", got)
	}
	if got := ClassifyError(errBodyTooLarge); got != ErrTooLarge {
		t.Errorf("body too large: %v, want toolarge", got)
	}
}

// textError is an error of another package's unexported type: only its text is known.
type textError struct{ s string }

func (e *textError) Error() string { return e.s }

// quietLog keeps a test server's complaints (a client that hung up) out of the test output.
func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }
