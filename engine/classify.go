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
// error codes in the body. Each worker owns one: it holds a fastjson.Parser (reused, so parsing
// allocates nothing once warm) and the set of codes whose message it already reported. It is not
// safe for concurrent use.
type Classifier struct {
	statuses []int
	rpcCodes []int
	p        fastjson.Parser
	seen     map[int32]struct{}
}

// NewClassifier makes a Classifier for the given rate-limit rules. The limits are copied.
func NewClassifier(l Limits) *Classifier {
	return &Classifier{
		statuses: append([]int(nil), l.Statuses...),
		rpcCodes: append([]int(nil), l.RPCCodes...),
		seen:     make(map[int32]struct{}),
	}
}

// Classify fills s.Outcome and s.RPCErrN from an HTTP status and body, and appends one RPCError
// per JSON-RPC error member found (each batch element counted apart) to errs, with Sample =
// sampleIdx; Message is set only the first time this Classifier sees the code. It returns the
// extended slice.
//
// Rules, in order:
//   - a status in Limits.Statuses is limited; the body is not read (the cheapest answer in a
//     flood of 429s);
//   - any other status has its body searched for JSON-RPC errors: an error whose code is in
//     Limits.RPCCodes makes it limited (limited wins over failed), even under a non-2xx status,
//     because some providers say "slow down" as a 503 carrying -32005;
//   - otherwise a non-2xx status, or any JSON-RPC error, is failed;
//   - everything else is ok.
//
// A JSON-RPC error is an `error` member holding an object with a numeric `code`. An `error`
// member that is present, not null and not such an object (a string, an object without a code)
// still makes the answer failed, but yields no RPCError, because there is no code to count it
// under. A body that does not look like JSON (first non-space byte not '{' or '['), or does not
// parse, is ok under a 2xx status: raw HTTP APIs answer in any format, and the classifier looks
// for error members, it does not validate JSON (validating would mean parsing every body, which
// the cheap path exists to avoid).
//
// Codes outside int32 are clamped to it. RPCErrN saturates at 65535 and exactly that many
// errors are appended, so RPCErrN always equals the number of records added.
func (c *Classifier) Classify(s *Sample, status int, body []byte, sampleIdx int32, errs []RPCError) []RPCError {
	s.RPCErrN = 0
	if containsInt(c.statuses, status) {
		s.Outcome = OutcomeLimited
		return errs
	}
	failed := status < 200 || status > 299
	limited := false
	if looksJSON(body) && bytes.Contains(body, errorKey) {
		v, err := c.p.ParseBytes(body)
		if err == nil {
			var bad, lim bool
			switch v.Type() {
			case fastjson.TypeObject:
				errs, bad, lim = c.member(v, s, sampleIdx, errs)
				failed, limited = failed || bad, limited || lim
			case fastjson.TypeArray:
				items, _ := v.Array()
				for _, it := range items {
					errs, bad, lim = c.member(it, s, sampleIdx, errs)
					failed, limited = failed || bad, limited || lim
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
	return errs
}

// member examines one JSON-RPC response object. bad reports an error member of any shape;
// limited reports a code listed in Limits.RPCCodes.
func (c *Classifier) member(v *fastjson.Value, s *Sample, sampleIdx int32, errs []RPCError) (_ []RPCError, bad, limited bool) {
	if v.Type() != fastjson.TypeObject {
		return errs, false, false
	}
	o, _ := v.Object()
	e := o.Get("error")
	if e == nil || e.Type() == fastjson.TypeNull {
		return errs, false, false
	}
	if e.Type() != fastjson.TypeObject {
		return errs, true, false
	}
	eo, _ := e.Object()
	cv := eo.Get("code")
	if cv == nil || cv.Type() != fastjson.TypeNumber {
		return errs, true, false
	}
	// Float64 rather than Int64: it parses every JSON number without allocating an error for
	// "-32000.0" or 1e3, and is exact for every code that fits int32.
	f, err := cv.Float64()
	if err != nil {
		return errs, true, false
	}
	code := clampCode(f)
	limited = containsInt(c.rpcCodes, int(code))
	if s.RPCErrN == math.MaxUint16 {
		return errs, true, limited
	}
	s.RPCErrN++
	errs = append(errs, RPCError{Sample: sampleIdx, Code: code, Message: c.message(code, eo)})
	return errs, true, limited
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
