package engine

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"
)

// TestClassifyErrorRealSockets produces each transport error with a real 127.0.0.1 socket and
// the real Client stack (dial, fasthttp), then classifies it.
func TestClassifyErrorRealSockets(t *testing.T) {
	tests := []struct {
		name   string
		handle func(c net.Conn, br *bufio.Reader, done <-chan struct{})
		want   ErrClass
	}{
		// Nothing answers: the request deadline passes.
		{"no answer", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) { <-done }, ErrTimeout},
		// Headers arrive, the body stalls: the read deadline passes mid-body.
		{"stalled body", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"res")
			<-done
		}, ErrTimeout},
		// The server reads the request and closes without a byte: eof.
		{"closed", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) { readHTTPRequest(br) }, ErrEOF},
		// The body ends before its Content-Length: eof.
		{"short body", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}")
		}, ErrEOF},
		// A chunked body cut off mid-chunk: eof.
		{"short chunk", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\nabc")
		}, ErrEOF},
		// Headers and part of the body, then an RST (SO_LINGER 0): reset.
		{"reset", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"res")
			time.Sleep(50 * time.Millisecond) // let the client read what was sent first
			c.(*net.TCPConn).SetLinger(0)
		}, ErrReset},
		// Not HTTP at all: malformed.
		{"garbage", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "GARBAGE\r\n\r\n")
		}, ErrMalformed},
		// A status code with letters: malformed.
		{"bad status", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n")
		}, ErrMalformed},
		// A chunk size that is not hex: malformed.
		{"bad chunk", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")
		}, ErrMalformed},
		// Content-Length over MaxBodyBytes (1 KiB here): toolarge, without reading it.
		{"huge body", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n")
			<-done
		}, ErrTooLarge},
		// Headers over the read buffer: toolarge too.
		{"huge headers", func(c net.Conn, br *bufio.Reader, done <-chan struct{}) {
			readHTTPRequest(br)
			io.WriteString(c, "HTTP/1.1 200 OK\r\nX-Big: "+strings.Repeat("a", 2*readBufferSize)+"\r\nContent-Length: 0\r\n\r\n")
		}, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr := rawTCPServer(t, func(c net.Conn, done <-chan struct{}) {
				tt.handle(c, bufio.NewReader(c), done)
			})
			err := rawDo(t, "http://"+addr+"/", nil)
			if got := ClassifyError(err); got != tt.want {
				t.Errorf("ClassifyError(%v) = %v, want %v", err, got, tt.want)
			}
		})
	}
}

// TestClassifyErrorRefused: a closed port on 127.0.0.1 refuses the connection.
func TestClassifyErrorRefused(t *testing.T) {
	err := rawDo(t, "http://"+closedTCPPort(t)+"/", nil)
	if got := ClassifyError(err); got != ErrRefused {
		t.Errorf("ClassifyError(%v) = %v, want refused", err, got)
	}
}

// TestClassifyErrorTLS: certificate and protocol failures are tls, not eof or other.
func TestClassifyErrorTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake failures are the point
	srv.StartTLS()
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	plain := rawTCPServer(t, func(c net.Conn, done <-chan struct{}) {
		io.WriteString(c, "HTTP/1.1 400 Bad Request\r\n\r\n")
	})
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
		{"not TLS", "https://" + plain + "/", nil},
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

// TestClassifyErrorDNS: a resolver failure is dns, even though net.DNSError may say Timeout.
func TestClassifyErrorDNS(t *testing.T) {
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
		return nil, errors.New("no DNS in tests")
	}}
	_, err := r.LookupHost(context.Background(), "node.rpcstress.invalid")
	if got := ClassifyError(fmt.Errorf("dial: %w", err)); got != ErrDNS {
		t.Errorf("ClassifyError(%v) = %v, want dns", err, got)
	}
	timeout := &net.DNSError{Err: "i/o timeout", Name: "x", IsTimeout: true}
	if got := ClassifyError(timeout); got != ErrDNS {
		t.Errorf("DNS timeout = %v, want dns", got)
	}
}

// TestClassifyErrorValues covers what real sockets cannot produce here, with the error values
// the libraries return, wrapped as fasthttp and net wrap them.
func TestClassifyErrorValues(t *testing.T) {
	sys := func(op string, errno syscall.Errno) error {
		return &net.OpError{Op: op, Net: "tcp", Err: os.NewSyscallError(op, errno)}
	}
	tests := []struct {
		err  error
		want ErrClass
	}{
		{nil, ErrNone},
		{fasthttp.ErrTimeout, ErrTimeout},
		{fasthttp.ErrDialTimeout, ErrTimeout},
		{fasthttp.ErrTLSHandshakeTimeout, ErrTimeout},
		{os.ErrDeadlineExceeded, ErrTimeout},
		{context.DeadlineExceeded, ErrTimeout},
		{sys("dial", syscall.ETIMEDOUT), ErrTimeout},
		{sys("dial", syscall.ECONNREFUSED), ErrRefused},
		{sys("read", syscall.ECONNRESET), ErrReset},
		{fmt.Errorf("error when reading response headers: %w", sys("read", syscall.ECONNRESET)), ErrReset},
		{sys("write", syscall.EPIPE), ErrReset},
		{sys("write", syscall.ECONNABORTED), ErrReset},
		{io.EOF, ErrEOF},
		{io.ErrUnexpectedEOF, ErrEOF},
		{fasthttp.ErrConnectionClosed, ErrEOF},
		{net.ErrClosed, ErrEOF},
		{errors.New("the server closed connection before returning the first response byte"), ErrEOF},
		{fasthttp.ErrBodyTooLarge, ErrTooLarge},
		{fmt.Errorf("reading: %w", fasthttp.ErrBodyTooLarge), ErrTooLarge},
		{tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, ErrTLS},
		{tls.AlertError(40), ErrTLS},
		{&tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}, ErrTLS},
		{x509.HostnameError{Host: "x"}, ErrTLS},
		{errors.New("tls: server selected unsupported protocol version 300"), ErrTLS},
		{fasthttp.ErrResponseFirstLineMissingSpace, ErrMalformed},
		{fmt.Errorf("error when reading response headers: %w", fasthttp.ErrUnexpectedStatusCodeChar), ErrMalformed},
		{errors.New("cannot parse response status line"), ErrMalformed},
		{fasthttp.ErrNoFreeConns, ErrOther},
		{errors.New("something new"), ErrOther},
	}
	for _, tt := range tests {
		if got := ClassifyError(tt.err); got != tt.want {
			t.Errorf("ClassifyError(%v) = %v, want %v", tt.err, got, tt.want)
		}
	}
}

// rawDo sends one request through a real Client to url with a 300 ms timeout and a 1 KiB body
// cap, and returns fasthttp's error as is.
func rawDo(t *testing.T, url string, tlsCfg *tls.Config) error {
	t.Helper()
	cfg := &Config{URL: url, Timeout: 300 * time.Millisecond, Connections: 1, MaxBodyBytes: 1024,
		Requests: []Request{{Name: "r", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"m"}`), Weight: 1}}}
	c, err := newClient(cfg, NewCounters(1), nil, tlsCfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ex := c.tr.newExchange()
	ex.load(0, cfg.Requests[0].Body)
	return ex.roundTrip(time.Now().Add(cfg.Timeout))
}

// rawTCPServer serves handle on every connection accepted on a 127.0.0.1 port and returns the
// address. handle may block until done is closed, which happens when the test ends.
func rawTCPServer(t *testing.T, handle func(c net.Conn, done <-chan struct{})) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				handle(c, done)
			}()
		}
	}()
	t.Cleanup(func() {
		close(done)
		ln.Close()
		wg.Wait()
	})
	return ln.Addr().String()
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

// closedTCPPort returns a 127.0.0.1 address nobody listens on.
func closedTCPPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}
