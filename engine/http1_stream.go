package engine

// The HTTP/1.1 side of a streamed Source (see source.go): an exchange prepares a request the
// first time it sends one of the Source's entries, as it does for the fixed mix's shapes;
// after that only the body changes, and its size on the wire is counted as a template's.

import "github.com/valyala/fasthttp"

// streamedRequest is an exchange's prepared request for one entry of a Source's table.
type streamedRequest struct {
	req         *fasthttp.Request
	head, empty uint32 // see headSizes
}

// loadStreamed readies request idx of a Source with this send's body. The entry
// Config.Requests[idx] says its method, path and headers, and was written before idx reached
// the caller. Its request is prepared and measured the first time this exchange sends idx.
func (e *http1Exchange) loadStreamed(idx int, body []byte) uint32 {
	if e.streamed == nil {
		e.streamed = make([]streamedRequest, len(e.h.cfg.Requests))
	}
	sr := &e.streamed[idx]
	if sr.req == nil {
		sh := e.h.shapes.forRequest(&e.h.cfg.Requests[idx])
		sr.req = e.h.newRequest(&sh)
		var err error
		if sr.head, sr.empty, err = headSizes(sr.req); err != nil {
			sr.head, sr.empty = 0, 0 // only a count of bytes is wrong: the send shows the error
		}
	}
	setBody(sr.req, body)
	e.cur = sr.req
	return bodySize(sr.head, sr.empty, len(body))
}
