package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/valyala/fasthttp"
)

// ClassifyError maps a transport error from fasthttp, x/net/http2 or net to an ErrClass; nil
// is ErrNone.
//
// The order matters where one error fits several classes:
//
//  1. toolarge first: the answer arrived, it was only too big (headers over the read buffer
//     count too, as fasthttp's ErrSmallBuffer);
//  2. dns before timeout: a *net.DNSError may report Timeout(), but the user needs to know the
//     name did not resolve, not that the node was slow;
//  3. tls before timeout, so a certificate problem is never hidden behind the handshake's
//     deadline; a TLS handshake that runs out of time is a timeout, though;
//  4. timeout: fasthttp.ErrTimeout, ErrDialTimeout, ErrTLSHandshakeTimeout, deadlines, and any
//     error in the chain whose Timeout() is true (ETIMEDOUT included);
//  5. HTTP/2's own errors (RST_STREAM, GOAWAY, protocol errors: see http2Class);
//  6. refused (ECONNREFUSED); reset (ECONNRESET, EPIPE, ECONNABORTED); eof (io.EOF,
//     io.ErrUnexpectedEOF, fasthttp.ErrConnectionClosed, a chunked body cut short, and
//     net.ErrClosed: the connection closed under the request). fasthttp reports any read error
//     before the first response byte as EOF, so an RST that arrives before the answer starts
//     counts as eof, not reset;
//  7. malformed: the answer was not valid HTTP;
//  8. other: everything else, including fasthttp.ErrNoFreeConns. That one cannot happen while at
//     most Config.Connections Senders run (the HostClient has as many connections); if it does,
//     it is an engine bug, and "other" keeps it visible instead of disguising it as a timeout.
//
// fasthttp wraps the socket error with %w in most places, so errors.Is/As does the work. String
// matching is the last resort, for four cases only: fasthttp.ErrBrokenChunk, whose cause is
// hidden (it embeds the error without Unwrap); fasthttp parse errors without an exported
// sentinel (status line and chunk size errors built with fmt.Errorf or unexported errors.New);
// crypto/tls's plain "tls: …" handshake errors; and x/net/http2's unexported connection-state
// errors (errclass_http2.go).
func ClassifyError(err error) ErrClass {
	if err == nil {
		return ErrNone
	}
	if c, ok := wsClass(err); ok {
		return c
	}
	var small *fasthttp.ErrSmallBuffer
	if errors.Is(err, fasthttp.ErrBodyTooLarge) || errors.Is(err, errBodyTooLarge) || errors.As(err, &small) {
		return ErrTooLarge
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return ErrDNS
	}
	if isTLSError(err) {
		return ErrTLS
	}
	if isTimeout(err) {
		return ErrTimeout
	}
	if c, ok := http2Class(err); ok {
		return c
	}
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return ErrRefused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED):
		return ErrReset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, fasthttp.ErrConnectionClosed),
		errors.Is(err, net.ErrClosed):
		return ErrEOF
	}
	var chunk fasthttp.ErrBrokenChunk
	if errors.As(err, &chunk) {
		return brokenChunkClass(chunk.Error())
	}
	if isMalformed(err) {
		return ErrMalformed
	}
	msg := err.Error()
	if strings.Contains(msg, "server closed connection before returning the first response byte") {
		return ErrEOF // older fasthttp spelling of ErrConnectionClosed, kept for wrapped copies
	}
	return ErrOther
}

// isTimeout reports any error in the chain that means "out of time".
func isTimeout(err error) bool {
	if errors.Is(err, fasthttp.ErrTimeout) || errors.Is(err, fasthttp.ErrDialTimeout) ||
		errors.Is(err, fasthttp.ErrTLSHandshakeTimeout) || errors.Is(err, os.ErrDeadlineExceeded) ||
		errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var te interface{ Timeout() bool }
	return errors.As(err, &te) && te.Timeout()
}

// isTLSError reports handshake and certificate failures.
func isTLSError(err error) bool {
	var (
		rh       tls.RecordHeaderError
		alert    tls.AlertError
		verify   *tls.CertificateVerificationError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		roots    x509.SystemRootsError
	)
	switch {
	case errors.As(err, &rh), errors.As(err, &alert), errors.As(err, &verify), errors.As(err, &unknown),
		errors.As(err, &hostname), errors.As(err, &invalid), errors.As(err, &roots):
		return true
	}
	var noH2 *noH2Error // a server that did not agree to HTTP/2 over ALPN
	if errors.As(err, &noH2) {
		return true
	}
	// crypto/tls reports most local handshake failures ("tls: server selected unsupported
	// protocol version", "tls: handshake failure") as plain errors; their prefix is stable.
	return strings.HasPrefix(err.Error(), "tls: ") || strings.Contains(err.Error(), ": tls: ")
}

// malformedErrs are fasthttp's sentinels for an answer that is not valid HTTP. Some only appear
// with HostClient.SecureErrorLogMessage, which the Client sets.
var malformedErrs = [...]error{
	fasthttp.ErrReadingResponseHeaders,
	fasthttp.ErrResponseFirstLineMissingSpace,
	fasthttp.ErrUnexpectedStatusCodeChar,
	fasthttp.ErrDuplicateContentLength,
	fasthttp.ErrUnsupportedTransferEncoding,
	fasthttp.ErrNonNumericChars,
	fasthttp.ErrNeedMore,
	fasthttp.ErrReadingResponseTrailer,
	fasthttp.ErrBadTrailer,
}

// malformedText are fragments of fasthttp's response parse errors that carry no sentinel.
var malformedText = [...]string{
	"error when reading response headers",
	"error when reading response trailer",
	"cannot find whitespace in the first line of response",
	"invalid response status code",
	"unsupported http version",
	"cannot parse response status line",
	"too many 1xx informational responses",
	"invalid chunk",
	"non-numeric chars",
	"hex number", // a chunk size that is not hex ("empty hex number", "too large hex number")
}

// isMalformed reports errors that say the answer was not valid HTTP.
func isMalformed(err error) bool {
	for _, m := range malformedErrs {
		if errors.Is(err, m) {
			return true
		}
	}
	msg := err.Error()
	for _, t := range malformedText {
		if strings.Contains(msg, t) {
			return true
		}
	}
	return false
}

// brokenChunkClass classifies a broken chunked body by its text, since fasthttp hides its
// cause: a connection that ended mid-body is eof, one that timed out or was reset is that, and
// the rest (bad chunk sizes, missing CRLF) is malformed.
func brokenChunkClass(msg string) ErrClass {
	switch {
	case strings.Contains(msg, "timeout"):
		return ErrTimeout
	case strings.Contains(msg, "connection reset"), strings.Contains(msg, "broken pipe"):
		return ErrReset
	case strings.Contains(msg, "EOF"):
		return ErrEOF
	}
	return ErrMalformed
}
