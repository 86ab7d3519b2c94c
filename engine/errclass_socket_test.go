package engine

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/hostile"
)

// Transport errors made by real 127.0.0.1 sockets through the real Client stack (dial,
// fasthttp), then classified.

// after is what a raw server does once it has written its answer.
type after int

const (
	closeConn after = iota // close the connection: a FIN, as the request was read whole
	hold                   // keep it open, reading, until the client gives up
	reset                  // let the client read the answer, then reset the connection
)

// rawServer is a server that reads each connection's first request whole, writes answer as
// is and then does then.
func rawServer(t *testing.T, answer string, then after) *hostile.Server {
	return hostile.Start(t, hostile.Config{Serve: func(c net.Conn, br *bufio.Reader) {
		readHTTPRequest(br)
		io.WriteString(c, answer)
		switch then {
		case hold:
			io.Copy(io.Discard, br) // until the client closes, or the server at the test's end
		case reset:
			time.Sleep(50 * time.Millisecond) // let the client read what was sent first
			c.(*net.TCPConn).SetLinger(0)     // the close that follows sends an RST
		}
	}})
}

// TestClassifyErrorRealSockets produces each transport error with a real 127.0.0.1 socket and
// the real Client stack (dial, fasthttp), then classifies it.
func TestClassifyErrorRealSockets(t *testing.T) {
	const partial = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"res"
	tests := []struct {
		name   string
		answer string
		then   after
		want   ErrClass
	}{
		// Nothing answers: the request deadline passes.
		{"no answer", "", hold, ErrTimeout},
		// Headers arrive, the body stalls: the read deadline passes mid-body.
		{"stalled body", partial, hold, ErrTimeout},
		// The server reads the request and closes without a byte: eof.
		{"closed", "", closeConn, ErrEOF},
		// The body ends before its Content-Length: eof.
		{"short body", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}", closeConn, ErrEOF},
		// A chunked body cut off mid-chunk: eof.
		{"short chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc", closeConn, ErrEOF},
		// Headers and part of the body, then an RST (SO_LINGER 0): reset.
		{"reset", partial, reset, ErrReset},
		// Not HTTP at all: malformed.
		{"garbage", "GARBAGE\r\n\r\n", closeConn, ErrMalformed},
		// A status code with letters: malformed.
		{"bad status", "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n", closeConn, ErrMalformed},
		// A chunk size that is not hex: malformed.
		{"bad chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", closeConn, ErrMalformed},
		// Content-Length over MaxBodyBytes (1 KiB here): toolarge, without reading it.
		{"huge body", "HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n", hold, ErrTooLarge},
		// Headers over the read buffer: toolarge too.
		{"huge headers", "HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("a", 2*readBufferSize) + "\r\nContent-Length: 0\r\n\r\n", closeConn, ErrTooLarge},
		// A header line without a colon: malformed.
		{"bad header", "HTTP/1.1 200 OK\r\nX-Token value\r\nContent-Length: 0\r\n\r\n", closeConn, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := rawDo(t, rawServer(t, tt.answer, tt.then).URL, nil)
			if got := ClassifyError(err); got != tt.want {
				t.Errorf("ClassifyError(%v) = %v, want %v", err, got, tt.want)
			}
			// fasthttp's SecureErrorLogMessage is in force: a parse error does not quote the
			// answer's bytes (though fasthttp still quotes a header line without a colon).
			for _, echo := range []string{"contents", "GARBAGE", "2x0", "zz", "aaaa"} {
				if err != nil && strings.Contains(err.Error(), echo) {
					t.Errorf("error %q echoes the answer (%q)", err, echo)
				}
			}
		})
	}
}

// TestClassifyErrorRefused: a closed port on 127.0.0.1 refuses the connection.
func TestClassifyErrorRefused(t *testing.T) {
	err := rawDo(t, "http://"+refusedAddr(t)+"/", nil)
	if got := ClassifyError(err); got != ErrRefused {
		t.Errorf("ClassifyError(%v) = %v, want refused", err, got)
	}
}

// TestClassifyErrorTLS: certificate and protocol failures are tls, not eof or other.
func TestClassifyErrorTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ErrorLog = quietLog() // the handshake failures are the point
	srv.StartTLS()
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	plain := hostile.Start(t, hostile.Config{Serve: func(c net.Conn, _ *bufio.Reader) {
		io.WriteString(c, "HTTP/1.1 400 Bad Request\r\n\r\n") // before the client's hello
	}})
	tests := []struct {
		name string
		url  string
		cfg  *tls.Config
	}{
		// The test server's certificate is signed by nobody the system trusts.
		{"unknown authority", srv.URL, nil},
		// Trusted, but issued for other names.
		{"wrong name", srv.URL, &tls.Config{RootCAs: pool, ServerName: "node.invalid"}},
		// A plain-HTTP server answering a TLS hello.
		{"not TLS", "https://" + plain.Addr + "/", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := rawDo(t, tt.url, tt.cfg)
			if got := ClassifyError(err); got != ErrTLS {
				t.Errorf("ClassifyError(%v) = %v, want tls", err, got)
			}
		})
	}
}

// rawDo sends one request through a real Client to url with a 300 ms timeout and a 1 KiB body
// cap, and returns fasthttp's error as is.
func rawDo(t *testing.T, url string, tlsCfg *tls.Config) error {
	t.Helper()
	cfg := &Config{URL: url, Timeout: 300 * time.Millisecond, Connections: 1, MaxBodyBytes: 1024,
		Requests: []Request{{Name: "r", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"m"}`), Weight: 1}}}
	ex := dialClient(t, cfg, NewCounters(1), tlsCfg).tr.newExchange()
	ex.load(0, cfg.Requests[0].Body)
	now := time.Now()
	return ex.roundTrip(now, now.Add(cfg.Timeout))
}

// readHTTPRequest consumes one whole HTTP request, so that closing the connection afterwards sends
// FIN, not the RST that unread data would cause.
func readHTTPRequest(br *bufio.Reader) bool {
	req, err := http.ReadRequest(br)
	if err != nil {
		return false
	}
	_, err = io.Copy(io.Discard, req.Body)
	return err == nil
}

// refusedAddr returns a 127.0.0.1 address nobody listens on any more.
func refusedAddr(t *testing.T) string {
	srv := hostile.Start(t, hostile.Config{})
	srv.Close()
	return srv.Addr
}
