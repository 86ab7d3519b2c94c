package engine

// Sizes on the wire of HTTP/1.1 requests, as fasthttp writes them: measured once per mix entry
// when the Client is made (a fixed body), or as a head measured once plus each send's body (a
// Template's rendering, a streamed body), so BytesOut is exact without writing a request twice.

import (
	"bufio"
	"fmt"
	"math"

	"github.com/valyala/fasthttp"
)

// sizeRequests computes bytesOut (see http1Transport) for every mix entry.
func (h *http1Transport) sizeRequests() error {
	if h.cfg.Source != nil {
		return nil // streamed requests are sized per send (see loadStreamed)
	}
	h.bytesOut = make([]uint32, len(h.cfg.Requests))
	h.bytesOutEmpty = make([]uint32, len(h.cfg.Requests))
	reqs := make([]fasthttp.Request, len(h.shapes.all))
	for k := range h.shapes.all {
		h.prepare(&reqs[k], &h.shapes.all[k])
	}
	for i, r := range h.cfg.Requests {
		req := &reqs[h.shapes.of[i]]
		body := r.Body
		if r.Template != nil && len(body) == 0 {
			body = []byte("{}") // any non-empty body: only the head is kept
		}
		setBody(req, body)
		n, err := wireSize(req)
		if err != nil {
			return fmt.Errorf("request %d (%s): %w", i, r.Name, err)
		}
		h.bytesOut[i] = n
		if r.Template == nil {
			continue
		}
		if h.bytesOut[i], h.bytesOutEmpty[i], err = headSizes(req); err != nil {
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

func clampU32(n int) uint32 {
	if n < 0 {
		return 0
	}
	if uint64(n) > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(n)
}
