package engine

// ErrClass is the transport-level failure of a request that got no HTTP status.
type ErrClass uint8

// Transport error classes. Every completed request has either an HTTP status or one of these.
const (
	ErrNone      ErrClass = iota // an HTTP status was received
	ErrTimeout                   // no complete answer within the timeout
	ErrRefused                   // connection refused (target down)
	ErrReset                     // connection reset by peer
	ErrEOF                       // connection closed before a complete answer
	ErrDNS                       // name resolution failed
	ErrTLS                       // TLS handshake or certificate failure
	ErrTooLarge                  // response body over the size cap
	ErrMalformed                 // the answer was not valid HTTP
	ErrOther                     // anything else
	ErrWSClosed                  // the WebSocket connection closed with the call in flight
	errClassCount
)

var errClassNames = [errClassCount]string{"", "timeout", "refused", "reset", "eof", "dns", "tls", "toolarge", "malformed", "other", "ws_closed"}

// String is the class's name as used in reports and snapshots ("timeout", "refused" …).
func (e ErrClass) String() string {
	if int(e) < len(errClassNames) {
		return errClassNames[e]
	}
	return "other"
}

// Outcome is the class of a completed request as users judge it.
type Outcome uint8

// Outcome classes: success, rate-limited, everything else. Latency is kept apart for each, so a
// flood of fast 429s never makes the node look fast.
const (
	OutcomeOK Outcome = iota
	OutcomeLimited
	OutcomeFailed
	outcomeCount
)

var outcomeNames = [outcomeCount]string{"ok", "limited", "failed"}

// String is "ok", "limited" or "failed".
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "failed"
}

// Sample is one finished request. Times are nanoseconds since the run started. It is a plain
// value so batches of them are reused without allocation.
type Sample struct {
	Intended int64 // when the schedule said to send (open loop); equals Sent in closed mode
	Sent     int64 // when the request actually went out
	Done     int64 // when the answer (or error) completed
	Status   uint16
	Err      ErrClass
	Outcome  Outcome
	Request  uint16 // index into Config.Requests
	Stage    uint16 // index into Plan.Stages of the intended time
	RPCErrN  uint16 // number of JSON-RPC error members in the body (batch items counted apart)
	// Calls is the number of JSON-RPC calls the request carried (0 when it is not JSON-RPC);
	// CallsOK and CallsLimited are those answered ok and rate-limited, the rest failed.
	// CallsInvalid are the failed ones whose result broke a rule of their Expect.
	Calls        uint16
	CallsOK      uint16
	CallsLimited uint16
	CallsInvalid uint16
	BytesIn      uint32
	BytesOut     uint32
	// CostOK is the cost (Request.Cost's units) of what was answered ok: the calls answered
	// ok, or the whole request for one that is not JSON-RPC. What was sent is counted when it
	// is sent (Counters), so an answer that never comes is still offered load.
	CostOK uint32
}

// Invalid reports a failed request with a call whose result broke a rule of its Expect.
func (s *Sample) Invalid() bool { return s.CallsInvalid > 0 && s.Outcome == OutcomeFailed }

// Latency is the coordinated-omission-corrected latency: from intended send to done.
func (s *Sample) Latency() int64 { return s.Done - s.Intended }

// Service is the service time: from actual send to done.
func (s *Sample) Service() int64 { return s.Done - s.Sent }

// RPCError is one JSON-RPC error member found in an answer. Message is filled only the first time
// a worker sees a code, so steady streams of errors cost no allocation.
type RPCError struct {
	Sample  int32 // index of the sample in the batch
	Code    int32
	Message string
}

// InvalidCall is N calls of sample Sample of a batch whose results broke Rule (the first rule
// of their Expect each broke).
type InvalidCall struct {
	Sample int32
	N      uint32
	Rule   *ExpectRule
}

// HeaderSeen is a rate-limit related response header (Retry-After, X-RateLimit-*) as last seen.
type HeaderSeen struct {
	Name, Value string
}

// Batch is what workers send to the aggregator: samples and their side records. Batches are
// pooled and reused; the aggregator returns them after ingesting.
type Batch struct {
	Samples   []Sample
	RPCErrors []RPCError
	Faults    []CallFault
	Invalid   []InvalidCall
	Headers   []HeaderSeen
}

// Reset empties the batch, keeping its storage.
func (b *Batch) Reset() {
	b.Samples = b.Samples[:0]
	b.RPCErrors = b.RPCErrors[:0]
	b.Faults = b.Faults[:0]
	clear(b.Invalid) // no rule stays reachable from a pooled batch
	b.Invalid = b.Invalid[:0]
	b.Headers = b.Headers[:0]
}
