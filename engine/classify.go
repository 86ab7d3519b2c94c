package engine

import (
	"bytes"
	"math"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// errorKey is the JSON-RPC error member name as it appears on the wire. A body without these
// bytes cannot hold a JSON-RPC error, so it is never parsed: most answers cost one scan.
// (A key spelled with escapes, like "\u0065rror", is missed; no real node writes that.)
var errorKey = []byte(`"error"`)

const (
	// maxMessageBytes caps the message kept for a code: it ends up in the UI and the snapshot,
	// and a node may put a whole stack trace there.
	maxMessageBytes = 256
	// maxSeenCodes caps the codes whose message a Classifier remembers, so a target inventing a
	// new code per answer cannot make it allocate forever; later new codes get no message.
	maxSeenCodes = 1024
)

// Classifier decides a completed answer's outcome: ok, rate-limited or failed, plus the JSON-RPC
// error codes in the body and, for a JSON-RPC request, the outcome of each of its calls. Each
// worker owns one: it holds a fastjson.Parser (reused, so parsing allocates nothing once warm),
// the set of codes whose message it already reported and scratch space for matching ids. It is
// not safe for concurrent use.
type Classifier struct {
	statuses []int
	rpcCodes []int
	p        fastjson.Parser
	seen     map[int32]struct{}
	key      []byte // an answer's id key
	answered []bool // per call of the batch being classified: an answer was matched to it
	scratch  []byte // the text of a value an ExpectRule matches (see ExpectRule.Check)
	memo     classMemo
}

// NewClassifier makes a Classifier for the given rate-limit rules. The limits are copied.
func NewClassifier(l Limits) *Classifier {
	return &Classifier{
		statuses: append([]int(nil), l.Statuses...),
		rpcCodes: append([]int(nil), l.RPCCodes...),
		seen:     make(map[int32]struct{}),
	}
}

// Classify fills s.Outcome, s.RPCErrN, the call counts (s.Calls, s.CallsOK, s.CallsLimited,
// s.CallsInvalid) and s.CostOK from an HTTP status and body. It appends one RPCError per
// JSON-RPC error member found (each batch element counted apart) to b.RPCErrors, with Sample =
// sampleIdx; Message is set only the first time this Classifier sees the code. For a JSON-RPC
// request (calls not nil) it appends the faults of the answer to b.Faults, and the calls whose
// result broke a rule of their Expect to b.Invalid. s.CostOK, the cost of the calls answered
// ok, is left 0 for a request that is not JSON-RPC (its cost is the Sender's to give).
//
// Rules, in order:
//   - a status in Limits.Statuses is limited, and so is every call; the body is not read (the
//     cheapest answer in a flood of 429s);
//   - any other status has its body searched for JSON-RPC errors: an error whose code is in
//     Limits.RPCCodes makes it limited (limited wins over failed), even under a non-2xx status,
//     because some providers say "slow down" as a 503 carrying -32005;
//   - otherwise a non-2xx status is failed, and so is every call;
//   - a 2xx answer to a request that is not JSON-RPC (calls nil: a raw HTTP API) is failed if
//     it holds a JSON-RPC error, else ok: such APIs answer in any format, so a body that is not
//     JSON or does not parse is ok, and a body without the bytes "error" is not even parsed;
//   - a 2xx answer to JSON-RPC calls must answer each call, and each result must pass the
//     call's Expect: see classifyCalls.
//
// A JSON-RPC error is an `error` member holding an object with a numeric `code`. An `error`
// member that is present, not null and not such an object (a string, an object without a code)
// still makes the answer failed, but yields no RPCError, because there is no code to count it
// under. Codes outside int32 are clamped to it. RPCErrN saturates at 65535 and exactly that many
// errors are appended, so RPCErrN always equals the number of records added.
func (c *Classifier) Classify(s *Sample, status int, body []byte, calls *RPCCalls, sampleIdx int32, b *Batch) {
	s.RPCErrN, s.CallsInvalid, s.CostOK = 0, 0, 0
	s.Calls, s.CallsOK, s.CallsLimited = clampU16(calls.Calls()), 0, 0
	if containsInt(c.statuses, status) {
		s.Outcome, s.CallsLimited = OutcomeLimited, s.Calls
		return
	}
	if calls != nil && status >= 200 && status <= 299 {
		memo := memoable(status, body, calls)
		if memo && c.memo.recall(s, status, body, calls) {
			return
		}
		records := classRecords(b)
		c.classifyCalls(s, body, calls, sampleIdx, b)
		if memo {
			c.memo.remember(s, status, body, calls, classRecords(b) != records)
		}
		return
	}
	c.classifyRaw(s, status, body, sampleIdx, b)
	switch s.Outcome { // a non-2xx answer: every call shares it
	case OutcomeOK:
		s.CallsOK = s.Calls
	case OutcomeLimited:
		s.CallsLimited = s.Calls
	}
}

// classifyRaw is the rule for answers judged by status and error members alone: non-2xx
// answers, and every answer to a request that is not JSON-RPC.
func (c *Classifier) classifyRaw(s *Sample, status int, body []byte, sampleIdx int32, b *Batch) {
	failed := status < 200 || status > 299
	limited := false
	if looksJSON(body) && bytes.Contains(body, errorKey) {
		v, err := c.p.ParseBytes(body)
		if err == nil {
			switch v.Type() {
			case fastjson.TypeObject:
				o, _ := v.Object()
				present, _, lim := c.rpcError(o, s, sampleIdx, b)
				failed, limited = failed || present, limited || lim
			case fastjson.TypeArray:
				items, _ := v.Array()
				for _, it := range items {
					if it.Type() == fastjson.TypeObject {
						o, _ := it.Object()
						present, _, lim := c.rpcError(o, s, sampleIdx, b)
						failed, limited = failed || present, limited || lim
					}
				}
			}
		}
	}
	switch {
	case limited:
		s.Outcome = OutcomeLimited
	case failed:
		s.Outcome = OutcomeFailed
	default:
		s.Outcome = OutcomeOK
	}
}

// rpcError examines the error member of an answer object: present reports one that is not
// null; coded, one with a numeric code, which is appended to b.RPCErrors; limited, a coded one
// whose code is in Limits.RPCCodes.
func (c *Classifier) rpcError(o *fastjson.Object, s *Sample, sampleIdx int32, b *Batch) (present, coded, limited bool) {
	e := o.Get("error")
	if e == nil || e.Type() == fastjson.TypeNull {
		return false, false, false
	}
	if e.Type() != fastjson.TypeObject {
		return true, false, false
	}
	eo, _ := e.Object()
	cv := eo.Get("code")
	if cv == nil || cv.Type() != fastjson.TypeNumber {
		return true, false, false
	}
	// Float64 rather than Int64: it parses every JSON number without allocating an error for
	// "-32000.0" or 1e3, and is exact for every code that fits int32.
	f, err := cv.Float64()
	if err != nil {
		return true, false, false
	}
	code := clampCode(f)
	limited = containsInt(c.rpcCodes, int(code))
	if s.RPCErrN == math.MaxUint16 {
		return true, true, limited
	}
	s.RPCErrN++
	b.RPCErrors = append(b.RPCErrors, RPCError{Sample: sampleIdx, Code: code, Message: c.message(code, eo)})
	return true, true, limited
}

// message returns the error's message the first time this Classifier sees code with a non-empty
// message, else "". Only this first time is a string allocated.
func (c *Classifier) message(code int32, eo *fastjson.Object) string {
	if _, ok := c.seen[code]; ok || len(c.seen) >= maxSeenCodes {
		return ""
	}
	mv := eo.Get("message")
	if mv == nil || mv.Type() != fastjson.TypeString {
		return "" // not marked seen: a later answer with this code may carry a message
	}
	m, _ := mv.StringBytes()
	if len(m) == 0 {
		return ""
	}
	c.seen[code] = struct{}{}
	return truncateUTF8(m, maxMessageBytes)
}

// clampCode turns a JSON number into an int32 code: fractions are dropped, values beyond int32
// saturate, NaN becomes 0.
func clampCode(f float64) int32 {
	switch {
	case f != f:
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}

// looksJSON reports whether the first non-space byte opens an object or an array.
func looksJSON(b []byte) bool {
	for _, ch := range b {
		switch ch {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return true
		}
		return false
	}
	return false
}

// truncateUTF8 copies at most n bytes of b into a string, cutting only at a rune boundary.
func truncateUTF8(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return string(b[:cut])
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
