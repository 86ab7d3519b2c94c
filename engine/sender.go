package engine

// The sender contract. A Sender is what every transport shares: it renders a template's body,
// reads the clock around the round trip (Sent, Done; the intended time is the caller's), bounds
// the request by its deadline, matches the answer's ids to the calls sent and classifies the
// outcome. What depends on the protocol is an exchange: one worker's connection state, which
// readies a request, does the round trip and reads the answer. A new transport (WebSocket,
// HTTP/2) is a transport and an exchange; newClient picks it for the URL. Everything after the
// Sample (outcomes, books, histograms, snapshot) stays as it is.

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/valyala/fastjson"
)

// transport is one protocol's way to the target, shared by a Client's workers.
type transport interface {
	// newExchange makes one worker's private state.
	newExchange() exchange
	// closeIdle closes idle connections; requests in flight finish on their own.
	closeIdle()
}

// exchange is one worker's half of a send that depends on the protocol. Its methods are called
// in this order per send: load or loadStreamed, roundTrip, then answer unless roundTrip failed.
// It is not safe for concurrent use, and must not allocate in steady state.
type exchange interface {
	// load readies mix entry idx to go out with body (the entry's Body, or this send's
	// rendering of its Template) and returns its size on the wire.
	load(idx int, body []byte) uint32
	// loadStreamed is load for entry idx of a Source, with this send's body.
	loadStreamed(idx int, body []byte) uint32
	// roundTrip sends the loaded request and waits for its answer until deadline; now is the
	// clock read when the send began, so that it need not be read again. Its error is a
	// transport error, which ClassifyError names; the answer itself is read by answer.
	roundTrip(now, deadline time.Time) error
	// answer reads what roundTrip received, recording rate-limit headers into b.
	answer(b *Batch) answer
}

// answer is what a round trip received.
type answer struct {
	// calls, when not nil, are the calls as they went out, when the transport gave them ids
	// of its own (WebSocket): the answer is classified against them.
	calls *RPCCalls

	status  int    // the HTTP status
	body    []byte // as the Classifier reads it: decoded, if it came compressed
	bytesIn uint32 // the size received: status line, headers and body
	// sent: BytesOut is bytesOut, not the size load said: the server answered before it took
	// the whole request (an early 413), of which only bytesOut went out; or the transport
	// counts bytes on the connection (HTTP/2, see h2slot.claim).
	sent     bool
	bytesOut uint32
}

// Sender is one worker's private sending state: its transport's exchange, a Classifier, and
// for templates a body buffer and a random source of its own. It is not safe for concurrent
// use; make one per worker.
type Sender struct {
	cfg   *Config
	ex    exchange
	cls   *Classifier
	body  []byte // a Template's rendering; grows to the largest and stays
	rng   *rand.Rand
	calls RPCCalls        // the calls of a rendering whose ids change per send (RPCCalls.PerSend)
	bodyP fastjson.Parser // reads them
	// answered is the body of the last answer, valid until the next send; nil after a
	// transport error (see LastAnswer).
	answered []byte
	// pending, when not nil, makes a send stop once the request is loaded and stamped: an
	// event loop does the round trip and ends the send with finishPending.
	pending *pendingSend
}

// Send sends request mix entry idx and fills smp with the result: Sent (just before the
// request goes out), Done, Status or Err, BytesIn, BytesOut, Request, Outcome and RPCErrN. It
// leaves Intended and Stage to the caller. JSON-RPC errors are appended to b.RPCErrors with
// sampleIdx, rate-limit headers (Retry-After, X-RateLimit-*, X-Rate-Limit-*, RateLimit*) to
// b.Headers. Times are nanoseconds since start, the run's start (monotonic).
//
// The request ends at Config.Timeout after the send, or at ctx's deadline if that is earlier
// (so a draining run bounds its in-flight requests); it always ends with exactly one outcome.
// Cancelling ctx without a deadline does not abort a request in flight: fasthttp cannot, and
// an abandoned request would have no outcome.
//
// A Request with a Template gets a fresh body per send, rendered into the Sender's buffer with
// the Sender's random source; its Method, Path and Headers select a request prepared once.
//
// BytesOut is the request exactly as written, BytesIn what was received (see the exchange's
// answer). A transport error leaves BytesIn 0.
//
// Send allocates nothing in steady state; only a rate-limit header value (and a header name
// the first time it is seen) is copied, because the batch outlives the response.
func (s *Sender) Send(ctx context.Context, idx int, smp *Sample, b *Batch, sampleIdx int32, start time.Time) {
	r := &s.cfg.Requests[idx]
	if r.Template == nil {
		s.SendBody(ctx, idx, r.Body, smp, b, sampleIdx, start)
		return
	}
	s.body = r.Template.Append(s.body[:0], s.rng)
	s.SendBody(ctx, idx, s.body, smp, b, sampleIdx, start)
}

// SendBody is Send with the body given: the entry's Body, or a rendering of its Template made
// by the caller (a run with several targets renders once for all of them, see fanout).
func (s *Sender) SendBody(ctx context.Context, idx int, body []byte, smp *Sample, b *Batch, sampleIdx int32, start time.Time) {
	r := &s.cfg.Requests[idx]
	smp.BytesOut = s.ex.load(idx, body)
	if r.Template == nil {
		s.do(ctx, idx, r.RPC, nil, smp, b, sampleIdx, start)
		return
	}
	// A rendering is a body of this send only, whose ids may be its own.
	s.do(ctx, idx, r.RPC, body, smp, b, sampleIdx, start)
}

// LastAnswer is the body of the last answer as the Classifier read it (decoded), valid until
// the next send; nil when the last send got no answer (a transport error). A transport that
// sends ids of its own (WebSocket) gives a batch answer back the ids the body wrote, so that
// it compares with another target's answer as it would have been to the body as written.
func (s *Sender) LastAnswer() []byte {
	if w, ok := s.ex.(interface{ asWritten([]byte) []byte }); ok && s.answered != nil {
		return w.asWritten(s.answered)
	}
	return s.answered
}

// SendStreamed is Send for request idx of a Source (see Source) with this send's body: the
// entry Config.Requests[idx] says its method, path and headers, and was written before idx
// reached the caller. Its request is prepared and measured the first time this Sender sends
// idx; after that only the body changes.
func (s *Sender) SendStreamed(ctx context.Context, idx int, body []byte, smp *Sample, b *Batch, sampleIdx int32, start time.Time) {
	smp.BytesOut = s.ex.loadStreamed(idx, body)
	// A streamed body is its own, ids too: its calls are read from it as it is sent (the
	// Source marks its requests' RPC PerSend).
	s.do(ctx, idx, s.cfg.Requests[idx].RPC, body, smp, b, sampleIdx, start)
}

// do sends the loaded request of mix entry idx and fills smp with the result (see Send). rpc
// are the calls of the request's body, or of its sample when sent, this send's own body, may
// carry other ids (RPCCalls.PerSend; see callsOf).
func (s *Sender) do(ctx context.Context, idx int, rpc *RPCCalls, sent []byte, smp *Sample, b *Batch, sampleIdx int32, start time.Time) {
	smp.Request = uint16(idx)
	smp.BytesIn = 0
	smp.RPCErrN = 0

	now := time.Now()
	deadline := now.Add(s.cfg.Timeout)
	if s.cfg.Timeout <= 0 {
		deadline = now.Add(time.Hour) // unvalidated config: still never wait forever
	}
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	smp.Sent = int64(now.Sub(start))
	if s.pending != nil {
		// An event loop does the round trip (loop_linux.go): it writes the loaded request,
		// reads the answer and calls finishPending then.
		*s.pending = pendingSend{idx: idx, rpc: rpc, sent: sent, deadline: deadline}
		return
	}
	err := s.ex.roundTrip(now, deadline)
	smp.Done = int64(time.Since(start))
	s.finish(idx, rpc, sent, err, smp, b, sampleIdx)
}

// pendingSend is a send whose round trip an event loop does: what do started with, for
// finishPending.
type pendingSend struct {
	idx      int
	rpc      *RPCCalls
	sent     []byte
	deadline time.Time
}

// finishPending ends the pending send with the round trip's outcome (err, or the answer the
// exchange read), as do would have after roundTrip. smp is the send's sample, Done already set.
func (s *Sender) finishPending(err error, smp *Sample, b *Batch, sampleIdx int32) {
	p := s.pending
	s.finish(p.idx, p.rpc, p.sent, err, smp, b, sampleIdx)
	p.sent = nil // the caller's body: keep no reference
}

// finish fills smp from a round trip's outcome: err, or the answer the exchange read.
func (s *Sender) finish(idx int, rpc *RPCCalls, sent []byte, err error, smp *Sample, b *Batch, sampleIdx int32) {
	calls := s.callsOf(rpc, sent)
	s.answered = nil
	if err != nil {
		smp.Status = 0
		smp.Err = ClassifyError(err)
		smp.Outcome = OutcomeFailed
		smp.Calls, smp.CallsOK, smp.CallsLimited, smp.CallsInvalid = clampU16(calls.Calls()), 0, 0, 0
		smp.CostOK = 0
		return
	}
	a := s.ex.answer(b)
	s.answered = a.body
	if a.calls != nil {
		calls = a.calls
	}
	smp.Status = uint16(a.status)
	smp.Err = ErrNone
	smp.BytesIn = a.bytesIn
	if a.sent {
		smp.BytesOut = a.bytesOut
	}
	s.cls.Classify(smp, a.status, a.body, calls, sampleIdx, b)
	if calls == nil && smp.Outcome == OutcomeOK {
		smp.CostOK = s.cfg.Requests[idx].Cost // not JSON-RPC: the request is the unit
	}
}

// callsOf is the JSON-RPC calls a request sent: rpc, its sample's. For a body whose ids change
// per send (a template's rendering, a streamed target's body) they are read from body, this
// send's (one parse of it, no allocation once warm); a body that does not have the calls the
// sample had keeps the sample's, so the count of calls sent and answered always agree.
func (s *Sender) callsOf(rpc *RPCCalls, body []byte) *RPCCalls {
	if rpc == nil || !rpc.PerSend || body == nil {
		return rpc
	}
	if !s.calls.parse(&s.bodyP, body) || s.calls.Calls() != rpc.Calls() || s.calls.Batch != rpc.Batch {
		return rpc
	}
	s.calls.specs = rpc.specs // the same calls, so the same checks and costs
	return &s.calls
}
