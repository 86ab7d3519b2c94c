package engine

// One worker's HTTP/1.1 exchange (see exchange in sender.go): a request kept prepared per
// request shape, a reused response, and the reading of an answer's status line and headers
// (their size, and the rate-limit headers among them). Nothing here allocates in steady state.

import (
	"time"

	"github.com/valyala/fasthttp"
)

// maxPreparedShapes bounds the requests an exchange keeps prepared for shapes other than the
// Config's. A target file may hold a thousand shapes, and a request kept prepared per shape
// (about 1.2 KiB) by every worker cost connections × shapes: 73 MiB for 64 connections and a
// file of 1,000 paths. Beyond the bound, the oldest is prepared again for the new shape, in
// under a microsecond and without allocating.
const maxPreparedShapes = 16

// http1Exchange is one worker's private state on the HTTP/1.1 transport. It is not safe for
// concurrent use.
type http1Exchange struct {
	h      *http1Transport
	req    fasthttp.Request                 // shape 0: the Config's method, URL and headers
	shaped [maxPreparedShapes]preparedShape // other shapes, prepared on use (see request)
	evict  int                              // the slot of shaped prepared again next
	cur    *fasthttp.Request                // the request load readied, which roundTrip sends
	resp   fasthttp.Response
	limits rateLimitHeaders
	// written is the part of the request written when the answer came early, before the
	// server took all of it (-1: all of it was written).
	written int64
	// plain, when hasPlain, is the answer an event loop read itself (readPlain), for answer
	// to give in place of resp's.
	plain    plainAnswer
	hasPlain bool
	// streamed are the requests of a Source, by Index, each prepared and measured the first
	// time this exchange sends it (see loadStreamed).
	streamed []streamedRequest
}

// preparedShape is a request prepared for shape (0, the zero value, when empty: shape 0 has
// http1Exchange.req).
type preparedShape struct {
	shape int
	req   *fasthttp.Request
}

func (h *http1Transport) newExchange() exchange {
	e := &http1Exchange{h: h}
	h.prepare(&e.req, &h.shapes.all[0])
	h.prime(&e.req, &e.resp)
	return e
}

// request returns the prepared request for mix entry idx. A shape other than the Config's is
// prepared when this exchange sends it, not in newExchange, and kept among the last
// maxPreparedShapes it sent; the first ones allocate their request, then nothing allocates.
func (e *http1Exchange) request(idx int) *fasthttp.Request {
	k := e.h.shapes.of[idx]
	if k == 0 {
		return &e.req
	}
	for i := range e.shaped {
		if e.shaped[i].shape == k {
			return e.shaped[i].req
		}
	}
	p := &e.shaped[e.evict]
	e.evict = (e.evict + 1) % len(e.shaped)
	if p.req == nil {
		p.req = e.h.newRequest(&e.h.shapes.all[k])
	} else {
		p.req.Reset()
		e.h.prepare(p.req, &e.h.shapes.all[k])
	}
	p.shape = k
	return p.req
}

// load readies mix entry idx with body. Its size on the wire is computed once per mix entry
// for a fixed body; for a Template, the head measured once plus the rendering's length and the
// digits of its Content-Length, so it is exact too.
func (e *http1Exchange) load(idx int, body []byte) uint32 {
	e.cur = e.request(idx)
	setBody(e.cur, body)
	if e.h.cfg.Requests[idx].Template != nil {
		return bodySize(e.h.bytesOut[idx], e.h.bytesOutEmpty[idx], len(body))
	}
	return e.h.bytesOut[idx]
}

// roundTrip sends the loaded request and reads the answer by deadline, on the calling
// goroutine: the deadline is the connection's read and write deadline and bounds the wait
// for a connection or a dial (now is when the send began; see earlyAnswerTransport.roundTrip).
//
// An early answer (see earlyAnswerTransport) is an answer, whose request went out in part only.
func (e *http1Exchange) roundTrip(now, deadline time.Time) error {
	e.written = -1
	err := e.h.rt.roundTrip(e.h.hc, e.cur, &e.resp, now, deadline)
	// A type assertion, not errors.As: fasthttp returns RoundTrip's error as it is, and
	// errors.As's target would escape, an allocation on every send.
	if early, ok := err.(*earlyAnswer); ok {
		e.written = early.written
		return nil
	}
	return err
}

// answer reads the answer roundTrip received. BytesIn counts the status line, every header as
// "Name: value\r\n", the blank line and the body as received, after de-chunking: chunk framing
// and the server's own whitespace are not counted, so it is a close lower bound of the wire
// bytes.
func (e *http1Exchange) answer(b *Batch) answer {
	if e.hasPlain {
		e.hasPlain = false
		if e.plain.limits {
			e.plain.recordLimits(&e.limits, b)
		}
		return answer{status: e.plain.status, body: e.plain.body, bytesIn: e.plain.bytesIn}
	}
	body := e.resp.Body()
	if len(e.resp.Header.ContentEncoding()) > 0 {
		// Only when the profile asked for compression (Accept-Encoding): errors are found in
		// the decoded body, capped like the body itself against decompression bombs. This
		// opt-in path may allocate; an undecodable body is classified as received.
		if d, derr := e.resp.BodyUncompressedWithLimit(e.h.hc.MaxResponseBodySize); derr == nil {
			body = d
		}
	}
	a := answer{
		status:  e.resp.StatusCode(),
		body:    body,
		bytesIn: e.headerBytes(b) + clampU32(len(e.resp.Body())),
	}
	if e.written >= 0 {
		a.sent, a.bytesOut = true, clampU32(int(e.written))
	}
	return a
}

// headerBytes sizes the status line and headers of the answer and copies rate-limit headers
// into b, in one pass over the headers.
func (e *http1Exchange) headerBytes(b *Batch) uint32 {
	h := &e.resp.Header
	proto := len(h.Protocol())
	if proto == 0 {
		proto = len("HTTP/1.1")
	}
	n := proto + 1 + 3 + 1 + len(h.StatusMessage()) + 2 + 2 // "HTTP/1.1 200 OK\r\n" … "\r\n"
	for k, v := range h.All() {
		n += len(k) + 2 + len(v) + 2
		if isRateLimitHeader(k) {
			e.limits.record(b, k, v)
		}
	}
	return clampU32(n)
}
