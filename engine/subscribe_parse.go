package engine

import (
	"bytes"
	"hash/maphash"
	"math"
	"time"

	"github.com/valyala/fastjson"
)

// subKindOf says how to read a subscription's notifications from its method and params.
func subKindOf(method string, params []byte) SubKind {
	switch {
	case method == "eth_subscribe" && bytes.Contains(params, []byte(`"newHeads"`)):
		return SubHeads
	case method == "slotSubscribe":
		return SubSlots
	}
	return SubOther
}

// subMsg is what one WebSocket message said, as a subscriber needs it.
type subMsg struct {
	// answer is set for an answer to a call (it has an id): ok with a result, else refused
	// with code and msg.
	answer bool
	ok     bool
	code   int32
	msg    string
	// note is set for a notification: key identifies its event among every subscriber's.
	note bool
	key  uint64
	// number is a head's block number (or a slot) when hasNumber; ts its block's timestamp
	// in Unix seconds when hasTS.
	number    uint64
	hasNumber bool
	ts        int64
	hasTS     bool
	// hash keys a head's hash, to tell a repeat from a reorg.
	hash uint64
}

// subParser reads messages for one subscriber: its fastjson parser and buffer are reused, so a
// notification costs no allocation.
type subParser struct {
	kind SubKind
	seed maphash.Seed // the run's: every subscriber must key an event alike
	p    fastjson.Parser
	buf  []byte
}

// parse reads one message. A message that is neither an answer nor a notification (not JSON,
// no id and no params.result) comes back with neither flag set.
func (sp *subParser) parse(b []byte) subMsg {
	var m subMsg
	v, err := sp.p.ParseBytes(b)
	if err != nil {
		return m
	}
	if id := v.Get("id"); id != nil && id.Type() != fastjson.TypeNull {
		m.answer = true
		if e := v.Get("error"); e != nil && e.Type() != fastjson.TypeNull {
			m.code = clampCode(e.GetFloat64("code"))
			m.msg = clipText(string(e.GetStringBytes("message")), 120)
			return m
		}
		m.ok = v.Get("result") != nil
		return m
	}
	res := v.Get("params", "result")
	if res == nil {
		return m
	}
	m.note = true
	switch sp.kind {
	case SubHeads:
		sp.head(res, &m)
	case SubSlots:
		// A slot's notification without a slot (Get's nil would panic Uint64: found by
		// FuzzSubParse, a head read as a slot) is keyed by its result.
		if slot := res.Get("slot"); slot != nil {
			if n, err := slot.Uint64(); err == nil {
				m.number, m.hasNumber, m.key = n, true, n
				return m
			}
		}
		m.key = sp.keyOf(res)
	default:
		m.key = sp.keyOf(res)
	}
	return m
}

// head reads a newHeads header: its hash is the event, its number and timestamp are checked.
func (sp *subParser) head(res *fastjson.Value, m *subMsg) {
	if h := res.GetStringBytes("hash"); len(h) > 0 {
		m.hash = maphash.Bytes(sp.seed, h)
		m.key = m.hash
	} else {
		m.key = sp.keyOf(res)
	}
	if n, ok := parseHexQuantity(string(res.GetStringBytes("number"))); ok {
		m.number, m.hasNumber = n, true
	}
	if ts, ok := parseHexQuantity(string(res.GetStringBytes("timestamp"))); ok && ts <= math.MaxInt64/uint64(time.Second) {
		m.ts, m.hasTS = int64(ts), true
	}
}

// keyOf keys an event by its result as written: every subscriber gets the same bytes.
func (sp *subParser) keyOf(res *fastjson.Value) uint64 {
	sp.buf = res.MarshalTo(sp.buf[:0])
	return maphash.Bytes(sp.seed, sp.buf)
}
