package engine

// The HTTP/2 transport's errors, named for ClassifyError. net/http's HTTP/2 (its bundled copy
// of golang.org/x/net/http2) exports none of its error types, so they are told apart by their
// texts, which have not changed since 2016 (x/net's exported StreamError, GoAwayError and
// ConnectionError print the same): TestClassifyHTTP2 holds each text to its class, and the
// fault tests get them from real servers, so a change of wording shows as a failing test,
// not as a silent "other".

import "strings"

// http2Closed are texts of a request that met a connection the server closed or was closing:
// the server's graceful GOAWAY (the request was not taken), a connection closed under it. Like
// a keep-alive connection closed under an HTTP/1.1 request, they are eof.
var http2Closed = [...]string{
	"http2: Transport received Server's graceful shutdown GOAWAY",
	"http2: client conn is closed",
	"http2: client conn not usable",
	"http2: client conn could not be established",
	"http2: client connection force closed",
	"http2: client connection lost",
}

// http2Class classifies an HTTP/2 error; ok is false for any other error.
//
//   - RST_STREAM from the server ("stream error: …; received from peer"): REFUSED_STREAM is
//     refused (RFC 9113 §8.7: the server did not process it), any other code reset. A stream
//     error the client raised on what the server sent (a bad header) is malformed.
//   - GOAWAY: the connection closed after a GOAWAY before the answer came is eof when the
//     GOAWAY said NO_ERROR (a graceful close, as a keep-alive close over HTTP/1.1), reset when
//     it carried an error code; a request the server's graceful GOAWAY left untaken is eof.
//   - a connection error, a frame that cannot be read: the server broke the protocol (h2c to
//     a server that answered in HTTP/1.1 lands here): malformed. One header field longer than the whole header limit
//     lands here too (COMPRESSION_ERROR: the HPACK decoder stops on it, and cannot tell it
//     from corrupt HPACK).
//   - answer headers over the client's limit in all: toolarge.
func http2Class(err error) (ErrClass, bool) {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "http2: response header list larger than advertised limit"):
		return ErrTooLarge, true // a stream error of the client's own, first
	case strings.Contains(msg, "stream error: stream ID"):
		switch {
		case strings.Contains(msg, "REFUSED_STREAM"):
			return ErrRefused, true
		case strings.Contains(msg, "received from peer"):
			return ErrReset, true
		}
		return ErrMalformed, true
	case strings.Contains(msg, "http2: server sent GOAWAY and closed the connection"):
		if strings.Contains(msg, "ErrCode=NO_ERROR") {
			return ErrEOF, true
		}
		return ErrReset, true
	case strings.Contains(msg, "http2: Transport received GOAWAY from server ErrCode:"):
		return ErrReset, true
	case strings.HasPrefix(msg, "connection error: "), strings.Contains(msg, "http2: connection error: "),
		strings.Contains(msg, "http2: failed reading the frame payload"):
		return ErrMalformed, true
	}
	for _, t := range http2Closed {
		if strings.Contains(msg, t) {
			return ErrEOF, true
		}
	}
	return ErrOther, false
}

// http2NotSent reports an error for which the library did not send the request: the
// connection could take no more (a GOAWAY came after the request chose it).
func http2NotSent(err error) bool {
	return strings.Contains(err.Error(), "http2: client conn not usable")
}

// http2Spoke1 reports an error of a connection whose server answered in HTTP/1.1: h2c to a
// server that does not speak it.
func http2Spoke1(err error) bool {
	return strings.Contains(err.Error(), "looked like an HTTP/1.1 header")
}
