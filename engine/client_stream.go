package engine

import (
	"context"
	"time"

	"github.com/valyala/fasthttp"
)

// The send path of a streamed Source (see source.go): each Sender prepares a request the
// first time it sends one of the Source's entries, as it does for the fixed mix's shapes;
// after that only the body changes, and its size on the wire is counted as a template's.

// streamedRequest is a Sender's prepared request for one entry of a Source's table.
type streamedRequest struct {
	req         *fasthttp.Request
	head, empty uint32 // see headSizes
}

// SendStreamed is Send for request idx of a Source (see Source) with this send's body: the
// entry Config.Requests[idx] says its method, path and headers, and was written before idx
// reached the caller. Its request is prepared and measured the first time this Sender sends
// idx; after that only the body changes.
func (s *Sender) SendStreamed(ctx context.Context, idx int, body []byte, smp *Sample, b *Batch, sampleIdx int32, start time.Time) {
	if s.streamed == nil {
		s.streamed = make([]streamedRequest, len(s.c.cfg.Requests))
	}
	sr := &s.streamed[idx]
	if sr.req == nil {
		sr.req = new(fasthttp.Request)
		sh := s.c.shapeFor(&s.c.cfg.Requests[idx])
		s.c.prepareShape(sr.req, &sh)
		var err error
		if sr.head, sr.empty, err = headSizes(sr.req); err != nil {
			sr.head, sr.empty = 0, 0 // only a count of bytes is wrong: the send shows the error
		}
	}
	setBody(sr.req, body)
	smp.BytesOut = bodySize(sr.head, sr.empty, len(body))
	// A streamed body is its own, ids too: its calls are read from it as it is sent (the
	// Source marks its requests' RPC PerSend).
	s.do(ctx, sr.req, idx, s.c.cfg.Requests[idx].RPC, body, smp, b, sampleIdx, start)
}
