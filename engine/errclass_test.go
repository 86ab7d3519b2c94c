package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/valyala/fasthttp"
)

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
