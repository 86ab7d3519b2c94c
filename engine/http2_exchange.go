package engine

// One worker's HTTP/2 exchange (see exchange in sender.go). It keeps to one connection slot
// of the transport and sends the transport's prepared request of the entry's shape with this
// send's body and deadline. net/http allocates per request (the request's copy, its context,
// the library's stream state, the answer's header map): HTTP/2 is not the zero-allocation
// path that fasthttp's HTTP/1.1 is; BenchmarkHTTP2Send measures what it costs.

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/valyala/fasthttp"
)

// errBodyTooLarge is an answer whose body is over Config.MaxBodyBytes (ClassifyError:
// toolarge), as fasthttp.ErrBodyTooLarge is over HTTP/1.1.
var errBodyTooLarge = errors.New("response body larger than max_body")

// http2Exchange is one worker's private state on the HTTP/2 transport.
type http2Exchange struct {
	h    *http2Transport
	slot *h2slot
	cur  *http.Request // the prepared request load picked
	body []byte        // this send's body (the Sender's, or the entry's): never written here
	// What roundTrip received, for answer.
	status  int
	header  http.Header
	buf     []byte // the answer's body; grows to the largest and stays
	in, out uint32 // bytes claimed from the slot (see h2slot.claim)
	dec     fasthttp.Response
	limits  rateLimitHeaders
}

func (h *http2Transport) newExchange() exchange {
	i := h.next.Add(1) - 1
	return &http2Exchange{h: h, slot: &h.slots[int(i%uint32(len(h.slots)))]}
}

// load readies mix entry idx with body. Its size on the wire is not known before it goes:
// HPACK compresses headers against what the connection sent before, and frames interleave
// with other streams'. It is counted on the connection instead (see h2slot.claim), and load
// says 0.
func (e *http2Exchange) load(idx int, body []byte) uint32 {
	e.cur, e.body = e.h.request(idx, false), body
	return 0
}

// loadStreamed is load for entry idx of a Source.
func (e *http2Exchange) loadStreamed(idx int, body []byte) uint32 {
	e.cur, e.body = e.h.request(idx, true), body
	return 0
}

// roundTrip sends the loaded request on the slot's connection and reads the whole answer
// by deadline: the body is read here, so the deadline bounds it as over HTTP/1.1.
func (e *http2Exchange) roundTrip(_, deadline time.Time) error {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	e.header = nil
	resp, body, err := e.send(ctx, deadline)
	if err != nil {
		return err
	}
	// The body is the Sender's buffer, rendered again for the next send: after release the
	// library's goroutines cannot read it, whatever state the stream was left in.
	defer body.release()
	err = e.read(resp)
	// Close waits for the stream's end (the request's writer included) unless ctx is done.
	_ = resp.Body.Close()
	if err != nil {
		return err
	}
	e.status, e.header = resp.StatusCode, resp.Header
	e.in, e.out = e.slot.claim()
	return nil
}

// send sends the loaded request on the slot's connection. A request the library refused to
// send because the connection had been told to go away after the slot chose it goes out on
// a new connection: the server never saw it, so this is no retry. Only then is a request
// sent twice, and only once more.
func (e *http2Exchange) send(ctx context.Context, deadline time.Time) (*http.Response, *sendBody, error) {
	for try := 0; ; try++ {
		cc, err := e.h.conn(e.slot, deadline)
		if err != nil {
			return nil, nil, err
		}
		body := &sendBody{b: e.body}
		req := e.cur.WithContext(ctx)
		if len(e.body) > 0 {
			req.Body, req.ContentLength = body, int64(len(e.body))
		}
		resp, err := cc.RoundTrip(req)
		if err == nil {
			e.h.notes.streams(cc, e.h.cfg.Streams)
			return resp, body, nil
		}
		body.release()
		if e.h.cfg.H2C && http2Spoke1(err) {
			e.h.notes.noH2C()
		}
		if try > 0 || !http2NotSent(err) {
			return nil, nil, err
		}
		e.h.dropConn(e.slot, cc)
	}
}

// read reads resp's body into buf, up to the transport's cap.
func (e *http2Exchange) read(resp *http.Response) error {
	limit := e.h.maxBody
	if resp.ContentLength > int64(limit) {
		return errBodyTooLarge
	}
	e.buf = e.buf[:0]
	for {
		if len(e.buf) == cap(e.buf) {
			e.buf = append(e.buf, 0)[:len(e.buf)] // grow: append picks the new capacity
		}
		n, err := resp.Body.Read(e.buf[len(e.buf):cap(e.buf)])
		e.buf = e.buf[:len(e.buf)+n]
		if len(e.buf) > limit {
			return errBodyTooLarge
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// answer reads what roundTrip received. BytesIn and BytesOut are the bytes the connection
// carried since its previous answer (see h2slot.claim).
func (e *http2Exchange) answer(b *Batch) answer {
	body := e.buf
	if enc := e.header.Get("Content-Encoding"); enc != "" {
		// As over HTTP/1.1 (http1Exchange.answer), with fasthttp's decoders: only when the
		// profile asked for compression, capped, an undecodable body classified as received.
		e.dec.Header.SetContentEncoding(enc)
		e.dec.SetBodyRaw(e.buf)
		if d, err := e.dec.BodyUncompressedWithLimit(e.h.maxBody); err == nil {
			body = d
		}
	}
	for k, vs := range e.header {
		if isRateLimitHeader([]byte(k)) {
			for _, v := range vs {
				e.limits.record(b, []byte(k), []byte(v))
			}
		}
	}
	return answer{status: e.status, body: body, bytesIn: e.in, sent: true, bytesOut: e.out}
}

// sendBody is a request body the library reads from another goroutine, until release: then
// it reads nothing more, so the bytes can be rendered over for the next send.
type sendBody struct {
	mu sync.Mutex
	b  []byte
}

func (r *sendBody) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// Close is the library's: it stops reading.
func (r *sendBody) Close() error {
	r.release()
	return nil
}

// release stops all reading; it waits for a Read in progress.
func (r *sendBody) release() {
	r.mu.Lock()
	r.b = nil
	r.mu.Unlock()
}
