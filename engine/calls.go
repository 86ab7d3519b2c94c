package engine

import (
	"fmt"
	"hash/maphash"
	"math"
	"strconv"

	"github.com/valyala/fastjson"
)

// RPCCalls describes the JSON-RPC calls a request's body carries, so that its answer can be
// matched to them by id: every call with an id must get exactly one answer carrying that id.
// It is made once per request of the mix when the profile loads (ParseRPCCalls) and shared, read
// only, by every worker; a Sender refills its own copy per send for bodies whose ids change.
type RPCCalls struct {
	// Batch says the body is a JSON array of calls, so the answer must be an array too.
	Batch bool
	// PerSend says the ids may change from send to send (a templated raw body, or target file
	// bodies that differ): the Sender reads them from each rendering.
	PerSend bool
	keys    []byte // the ids of the calls that expect an answer, as id keys (see appendIDKey), back to back
	ends    []int32
	index   map[uint64]int32 // for a batch: hash of an id key → its call; the first call wins a duplicate
	notes   int              // notifications: calls without an id, which get no answer
	seed    maphash.Seed
	// specs are what the profile asks of the calls (see SetSpecs): none, one for every call,
	// or one per call that expects an answer, in body order.
	specs []CallSpec
}

// CallSpec is what a profile asks of one call beyond its body: the rules its answer must pass
// (nil: any result will do) and its cost, in the units a provider bills (0: not counted).
type CallSpec struct {
	Expect *Expect
	Cost   uint32
}

// SetSpecs says what each call must answer and costs: specs holds one CallSpec for every
// call, or one per call that expects an answer (those with an id), in body order.
func (c *RPCCalls) SetSpecs(specs []CallSpec) error {
	if len(specs) > 1 && len(specs) != c.answers() {
		return fmt.Errorf("%d call specs for %d calls that expect an answer", len(specs), c.answers())
	}
	c.specs = specs
	return nil
}

// Spec is what call i (of those that expect an answer, in body order) must answer and costs.
func (c *RPCCalls) Spec(i int) CallSpec { return c.spec(i) }

// spec is Spec for the classifier, on its hot path.
func (c *RPCCalls) spec(i int) CallSpec {
	switch {
	case len(c.specs) == 1:
		return c.specs[0]
	case i < len(c.specs):
		return c.specs[i]
	}
	return CallSpec{}
}

// noteCost is what the notifications of the body cost: each gets a 2xx and nothing more, so
// a 2xx answer accepts them all.
func (c *RPCCalls) noteCost() uint64 {
	if len(c.specs) != 1 {
		return 0
	}
	return uint64(c.notes) * uint64(c.specs[0].Cost)
}

// ParseRPCCalls reads the calls of a request body: a JSON object with "jsonrpc" and a string
// "method" is one call, an array of such objects a batch. Anything else (a raw HTTP API's body,
// a batch with an element that is not a call) is not JSON-RPC: nil, and its answers are judged
// by their HTTP status alone.
func ParseRPCCalls(body []byte) *RPCCalls {
	var p fastjson.Parser
	c := &RPCCalls{}
	if !c.parse(&p, body) {
		return nil
	}
	return c
}

// parse refills c from body, reusing its storage; false when body is not JSON-RPC calls.
func (c *RPCCalls) parse(p *fastjson.Parser, body []byte) bool {
	c.reset()
	v, err := p.ParseBytes(body)
	if err != nil {
		return false
	}
	switch v.Type() {
	case fastjson.TypeObject:
		return c.addCall(v)
	case fastjson.TypeArray:
		c.Batch = true
		items, _ := v.Array()
		for _, it := range items {
			if !c.addCall(it) {
				return false
			}
		}
		return len(items) > 0
	}
	return false
}

func (c *RPCCalls) reset() {
	clear(c.index)
	c.keys, c.ends, c.notes, c.Batch = c.keys[:0], c.ends[:0], 0, false
}

// addCall adds one call of the body; false when v is not a JSON-RPC call.
func (c *RPCCalls) addCall(v *fastjson.Value) bool {
	o, err := v.Object()
	if err != nil || o.Get("jsonrpc") == nil {
		return false
	}
	if m := o.Get("method"); m == nil || m.Type() != fastjson.TypeString {
		return false
	}
	id := o.Get("id")
	if id == nil {
		c.notes++
		return true
	}
	start := len(c.keys)
	c.keys = appendIDKey(c.keys, id)
	c.ends = append(c.ends, int32(len(c.keys)))
	if !c.Batch {
		return true // a single call's answer is compared with its key directly
	}
	if c.index == nil {
		c.index = map[uint64]int32{}
		c.seed = maphash.MakeSeed()
	}
	h := maphash.Bytes(c.seed, c.keys[start:])
	if _, dup := c.index[h]; !dup {
		c.index[h] = int32(len(c.ends) - 1)
	}
	return true
}

// Calls is the number of calls in the body, notifications included.
func (c *RPCCalls) Calls() int {
	if c == nil {
		return 0
	}
	return len(c.ends) + c.notes
}

// answers is the number of calls that expect an answer (those with an id).
func (c *RPCCalls) answers() int { return len(c.ends) }

// key is the id key of call i.
func (c *RPCCalls) key(i int) []byte {
	start := int32(0)
	if i > 0 {
		start = c.ends[i-1]
	}
	return c.keys[start:c.ends[i]]
}

// find returns the call of a batch whose id has key k, or -1.
func (c *RPCCalls) find(k []byte) int {
	if c.index == nil {
		return -1
	}
	i, ok := c.index[maphash.Bytes(c.seed, k)]
	if !ok || string(c.key(int(i))) != string(k) {
		return -1
	}
	return int(i)
}

// appendIDKey appends the key an id is matched by. Numbers that are whole are written in plain
// decimal, so 7, 7.0 and 7e0 match as JSON says they are equal; strings are their unescaped
// text after a quote, so the string "7" never matches the number 7; anything else (null, and
// the types JSON-RPC forbids as ids) is its JSON text after a '~'.
func appendIDKey(dst []byte, v *fastjson.Value) []byte {
	switch v.Type() {
	case fastjson.TypeNumber:
		if f, err := v.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return strconv.AppendInt(dst, int64(f), 10)
		}
		return v.MarshalTo(dst)
	case fastjson.TypeString:
		s, _ := v.StringBytes()
		return append(append(dst, '"'), s...)
	}
	return v.MarshalTo(append(dst, '~'))
}

// Fault is a way an answer breaks JSON-RPC, counted apart from JSON-RPC error codes: each
// makes the call (or the answer item) failed.
type Fault uint8

// Faults, per call (missing, foreign id, not JSON-RPC) or per answer item of a batch (extra,
// unknown id, and not JSON-RPC for an item that is no answer at all).
const (
	FaultMissing    Fault = iota // a call got no answer: its id is not in the batch's answer, or the body is empty
	FaultExtra                   // a second answer to a call already answered
	FaultUnknownID               // a batch answer item whose id (or lack of one) is none of the calls'
	FaultForeignID               // a single call answered with another id
	FaultNotJSONRPC              // not a JSON-RPC answer: not JSON, no "jsonrpc", no id, neither result nor error, an error without a numeric code
	faultCount
)

var faultNames = [faultCount]string{"missing", "extra", "unknown id", "foreign id", "not JSON-RPC"}

// String is the fault's name as reports and snapshots show it ("missing", "unknown id" …).
func (f Fault) String() string {
	if int(f) < len(faultNames) {
		return faultNames[f]
	}
	return "not JSON-RPC"
}

// CallFault is N faults of one kind found in the answer of sample Sample of a batch.
type CallFault struct {
	Sample int32
	Fault  Fault
	N      uint32
}
