package engine

import (
	"math"

	"github.com/valyala/fastjson"
)

// verdict is what one JSON-RPC answer object says about the call it answers.
type verdict uint8

const (
	answerOK      verdict = iota // a result
	answerLimited                // an error whose code is in Limits.RPCCodes
	answerFailed                 // an error with any other code
	answerBad                    // not a JSON-RPC answer (see FaultNotJSONRPC)
)

// callTally collects the outcome of one answer's calls while it is examined.
type callTally struct {
	ok, limited int // calls
	invalid     int // calls whose result broke a rule of their Expect (failed, counted apart)
	okCost      uint64
	limitCode   bool
	faults      [faultCount]uint32
}

// classifyCalls judges a 2xx answer to JSON-RPC calls. Every call with an id must be answered
// exactly once, by an object with "jsonrpc", the call's id, and a result or an error with a
// numeric code; notifications (calls without an id) expect no answer, so a 2xx is all they
// get. A call is ok by a result, limited or failed by its error's code, and failed by a fault
// (see Fault): no answer (missing), an answer that is not JSON-RPC, or, for a single call, an
// answer with another call's id (foreign id). Answer items of a batch that match no call
// (unknown id) or repeat one (extra) are faults of their own and fail the request, not a call.
//
// The request is limited if any error carries a rate-limit code (limited wins, as for raw
// answers), failed if any call failed or any fault was found, else ok.
//
// Unlike a raw answer, this one is always parsed: answering each call cannot be checked
// otherwise. The parser is reused, so it allocates nothing once warm.
func (c *Classifier) classifyCalls(s *Sample, body []byte, calls *RPCCalls, sampleIdx int32, b *Batch) {
	t := callTally{ok: calls.notes, okCost: calls.noteCost()}
	switch want := calls.answers(); {
	case want == 0: // notifications only
	case isBlank(body):
		t.faults[FaultMissing] += uint32(want)
	default:
		v, ok := c.parse(body)
		switch {
		case !ok:
			t.faults[FaultNotJSONRPC] += uint32(want)
		case calls.Batch:
			c.batchAnswer(v, calls, &t, s, sampleIdx, b)
		default:
			c.singleAnswer(v, calls, &t, s, sampleIdx, b)
		}
	}
	s.CallsOK, s.CallsLimited, s.CallsInvalid = clampU16(t.ok), clampU16(t.limited), clampU16(t.invalid)
	s.CostOK = uint32(min(t.okCost, math.MaxUint32))
	faulty := false
	for f, n := range t.faults {
		if n > 0 {
			faulty = true
			b.Faults = append(b.Faults, CallFault{Sample: sampleIdx, Fault: Fault(f), N: n})
		}
	}
	switch {
	case t.limitCode:
		s.Outcome = OutcomeLimited
	case faulty || t.ok+t.limited < int(s.Calls):
		s.Outcome = OutcomeFailed
	default:
		s.Outcome = OutcomeOK
	}
}

// parse parses a body that must be JSON; ok is false when it is not.
func (c *Classifier) parse(body []byte) (v *fastjson.Value, ok bool) {
	if !looksJSON(body) {
		return nil, false
	}
	v, err := c.p.ParseBytes(body)
	return v, err == nil
}

// singleAnswer matches the answer of a single call. An answer without an id, or with a null
// one, still answers it when it carries an error: JSON-RPC answers with a null id a call whose
// id the server could not read.
func (c *Classifier) singleAnswer(v *fastjson.Value, calls *RPCCalls, t *callTally, s *Sample, sampleIdx int32, b *Batch) {
	if v.Type() != fastjson.TypeObject { // checked first: Object's error would allocate
		t.faults[FaultNotJSONRPC]++
		return
	}
	o, _ := v.Object()
	vd := c.judge(o, t, s, sampleIdx, b)
	id := o.Get("id")
	switch {
	case id == nil || id.Type() == fastjson.TypeNull:
		if vd == answerOK {
			vd = answerBad // a result must say which call it answers
		}
	default:
		c.key = appendIDKey(c.key[:0], id)
		if string(c.key) != string(calls.key(0)) {
			t.faults[FaultForeignID]++
			return
		}
	}
	c.count(t, vd, o, calls, 0, sampleIdx, b)
}

// batchAnswer matches the items of a batch's answer to its calls by id. An object instead of
// an array is the server's one error for the whole batch (too large, rate-limited): every call
// shares it.
func (c *Classifier) batchAnswer(v *fastjson.Value, calls *RPCCalls, t *callTally, s *Sample, sampleIdx int32, b *Batch) {
	want := calls.answers()
	if v.Type() == fastjson.TypeObject {
		o, _ := v.Object()
		switch c.judge(o, t, s, sampleIdx, b) {
		case answerLimited:
			t.limited += want
		case answerFailed:
			// failed calls are those not counted ok or limited
		default:
			t.faults[FaultNotJSONRPC] += uint32(want)
		}
		return
	}
	if v.Type() != fastjson.TypeArray {
		t.faults[FaultNotJSONRPC] += uint32(want)
		return
	}
	items, _ := v.Array()
	if cap(c.answered) < want {
		c.answered = make([]bool, want)
	}
	answered := c.answered[:want]
	clear(answered)
	matched := 0
	for _, it := range items {
		if it.Type() != fastjson.TypeObject {
			t.faults[FaultNotJSONRPC]++
			continue
		}
		o, _ := it.Object()
		vd := c.judge(o, t, s, sampleIdx, b)
		i := -1
		if id := o.Get("id"); id != nil {
			c.key = appendIDKey(c.key[:0], id)
			i = calls.find(c.key)
		}
		switch {
		case i < 0:
			t.faults[FaultUnknownID]++
		case answered[i]:
			t.faults[FaultExtra]++
		default:
			answered[i] = true
			matched++
			c.count(t, vd, o, calls, i, sampleIdx, b)
		}
	}
	t.faults[FaultMissing] += uint32(want - matched)
}

// judge reads one answer object: its error, which is recorded, or its result.
func (c *Classifier) judge(o *fastjson.Object, t *callTally, s *Sample, sampleIdx int32, b *Batch) verdict {
	present, coded, limited := c.rpcError(o, s, sampleIdx, b)
	t.limitCode = t.limitCode || limited
	switch {
	case o.Get("jsonrpc") == nil:
		return answerBad
	case present && !coded:
		return answerBad
	case limited:
		return answerLimited
	case present:
		return answerFailed
	case o.Get("result") != nil:
		return answerOK
	}
	return answerBad
}

// count files answered call i under its verdict. A result is checked against the call's
// Expect: one that breaks a rule makes the call invalid, a failed call recorded in b.Invalid
// under the first rule it broke (consecutive calls of a sample that break the same rule share
// a record).
func (c *Classifier) count(t *callTally, vd verdict, o *fastjson.Object, calls *RPCCalls, i int, sampleIdx int32, b *Batch) {
	switch vd {
	case answerOK:
		spec := calls.spec(i)
		if r := spec.Expect.broken(o, &c.scratch); r != nil {
			t.invalid++
			if n := len(b.Invalid); n > 0 && b.Invalid[n-1].Sample == sampleIdx && b.Invalid[n-1].Rule == r {
				b.Invalid[n-1].N++
			} else {
				b.Invalid = append(b.Invalid, InvalidCall{Sample: sampleIdx, Rule: r, N: 1})
			}
			return
		}
		t.ok++
		t.okCost += uint64(spec.Cost)
	case answerLimited:
		t.limited++
	case answerBad:
		t.faults[FaultNotJSONRPC]++
	}
}

// isBlank reports a body of whitespace only.
func isBlank(b []byte) bool {
	for _, ch := range b {
		switch ch {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return false
	}
	return true
}

func clampU16(n int) uint16 {
	return uint16(min(max(n, 0), math.MaxUint16))
}
