package answers

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"hash/maphash"
	"slices"

	"github.com/valyala/fastjson"
)

// The canonical form of an answer is not JSON: it is a compact key written by one walk of the
// parsed answer, so that two answers write the same key exactly when they are the same answer
// as the comparison sees it. Every piece is tagged and its length written first, so no two
// different trees write the same bytes. In it:
//   - an object's members are sorted by key (key order is no difference), and members on an
//     ignore path are left out (so an ignored member missing on one side is no difference);
//   - an array keeps its order and length; an item on an ignore path writes only a mark;
//   - numbers write their value (number.go); with NumbersByValue so do 0x-hex strings;
//   - a JSON-RPC answer's "id" is left out, and a batch answer's items are sorted by their id
//     first (JSON-RPC lets a server answer a batch in any order); ignore paths start at each
//     item of a batch, as they start at the top of a single answer.
const (
	tagObject  = 'o'
	tagArray   = 'a'
	tagBatch   = 'b'
	tagString  = 's'
	tagTrue    = 't'
	tagFalse   = 'f'
	tagNull    = 'n'
	tagIgnored = 'x'
)

// canon is one goroutine's scratch for writing keys: a parser and buffers that grow to the
// largest answer seen and are then reused, so a warm walk allocates nothing.
type canon struct {
	p       fastjson.Parser
	numbers bool // NumbersByValue
	buf     []byte
	num     []byte   // a number's text
	kv      []member // a stack of objects' members being sorted
	items   []item   // a batch's items being sorted
	ids     []byte   // their ids' keys
}

type member struct {
	key  []byte
	v    *fastjson.Value
	mask uint64 // the ignore paths alive below it
	pos  int    // its place in the object: equal keys keep their order
}

type item struct {
	v      *fastjson.Value
	id0, n int // its id's key: ids[id0:id0+n]
}

// digest is what is kept of one answer until every target has answered.
type digest struct {
	sum   uint64
	errs  int32 // JSON-RPC errors in it (one per item of a batch)
	state uint8
}

// States of an answer.
const (
	stateOK      uint8 = iota
	stateMissing       // no answer (dropped, transport error)
	stateNotJSON       // an answer that does not parse as JSON
)

// digest parses body and hashes its key.
func (c *canon) digest(body []byte, ig *ignoreSet, seed maphash.Seed) digest {
	v, err := c.p.ParseBytes(body)
	if err != nil {
		return digest{state: stateNotJSON}
	}
	c.buf = c.buf[:0]
	errs := c.top(v, ig)
	return digest{sum: maphash.Bytes(seed, c.buf), errs: errs}
}

// top writes the key of a whole answer into c.buf and counts its JSON-RPC errors.
func (c *canon) top(v *fastjson.Value, ig *ignoreSet) int32 {
	mask := ig.all()
	switch v.Type() {
	case fastjson.TypeObject:
		o, _ := v.Object()
		if !isRPC(o) {
			c.object(o, ig, mask, 0, false)
			return 0
		}
		c.object(o, ig, mask, 0, true)
		return rpcError(o)
	case fastjson.TypeArray:
		arr, _ := v.Array()
		if !isBatch(arr) {
			c.value(v, ig, mask, 0)
			return 0
		}
		var errs int32
		c.buf = append(c.buf, tagBatch)
		c.buf = binary.AppendUvarint(c.buf, uint64(len(arr)))
		for _, it := range c.sortBatch(arr) {
			o, _ := it.v.Object()
			errs += rpcError(o)
			c.object(o, ig, mask, 0, true)
		}
		return errs
	}
	c.value(v, ig, mask, 0)
	return 0
}

// isRPC: o is a JSON-RPC answer (2.0 says "jsonrpc"; 1.0 has an id and a result or an error).
// Only then is its id left out: a plain JSON API's "id" is data.
func isRPC(o *fastjson.Object) bool {
	return o.Get("jsonrpc") != nil || (o.Get("id") != nil && (o.Get("result") != nil || o.Get("error") != nil))
}

// isBatch: every item of arr is a JSON-RPC answer.
func isBatch(arr []*fastjson.Value) bool {
	if len(arr) == 0 {
		return false
	}
	for _, it := range arr {
		o, err := it.Object()
		if err != nil || !isRPC(o) {
			return false
		}
	}
	return true
}

// rpcError: 1 when o answers a JSON-RPC error (an "error" that is not null).
func rpcError(o *fastjson.Object) int32 {
	if e := o.Get("error"); e != nil && e.Type() != fastjson.TypeNull {
		return 1
	}
	return 0
}

// sortBatch returns a batch's items sorted by the keys of their ids (equal ids keep their
// order), in c.items: valid until the next call.
func (c *canon) sortBatch(arr []*fastjson.Value) []item {
	c.items, c.ids = c.items[:0], c.ids[:0]
	for _, v := range arr {
		mark := len(c.buf)
		if id := v.Get("id"); id != nil {
			c.value(id, nil, 0, 0)
		}
		it := item{v: v, id0: len(c.ids), n: len(c.buf) - mark}
		c.ids = append(c.ids, c.buf[mark:]...)
		c.buf = c.buf[:mark]
		c.items = append(c.items, it)
	}
	ids := c.ids
	slices.SortStableFunc(c.items, func(a, b item) int {
		return bytes.Compare(ids[a.id0:a.id0+a.n], ids[b.id0:b.id0+b.n])
	})
	return c.items
}

// object writes o's key; at depth d the ignore paths in mask are alive. dropID leaves out the
// member "id" (a JSON-RPC answer's).
//
// Many nodes write keys sorted already (geth marshals maps), so the members are first written
// as they come, each key checked against the one before; only an object found out of order is
// written again, its members sorted. Either way the count of members goes in a fixed-width
// slot, written when known, so both ways write the same bytes.
func (c *canon) object(o *fastjson.Object, ig *ignoreSet, mask uint64, d int, dropID bool) {
	mark := len(c.buf)
	if c.objectInOrder(o, ig, mask, d, dropID) {
		return
	}
	c.buf = c.buf[:mark]
	c.objectSorted(o, ig, mask, d, dropID)
}

// objectInOrder writes o's key if its members come sorted, and reports whether they did.
func (c *canon) objectInOrder(o *fastjson.Object, ig *ignoreSet, mask uint64, d int, dropID bool) bool {
	c.buf = append(c.buf, tagObject, 0, 0, 0, 0)
	countAt := len(c.buf) - 4
	var prev []byte
	n, sorted := 0, true
	o.Visit(func(k []byte, v *fastjson.Value) {
		if !sorted {
			return
		}
		child, ok := keep(k, ig, mask, d, dropID)
		if !ok {
			return
		}
		if n > 0 && bytes.Compare(prev, k) > 0 {
			sorted = false
			return
		}
		prev, n = k, n+1
		c.member(k, v, ig, child, d)
	})
	binary.BigEndian.PutUint32(c.buf[countAt:], uint32(n))
	return sorted
}

// objectSorted writes o's key, its members sorted by key (equal keys kept in their order).
func (c *canon) objectSorted(o *fastjson.Object, ig *ignoreSet, mask uint64, d int, dropID bool) {
	start := len(c.kv)
	o.Visit(func(k []byte, v *fastjson.Value) {
		if child, ok := keep(k, ig, mask, d, dropID); ok {
			c.kv = append(c.kv, member{key: k, v: v, mask: child, pos: len(c.kv)})
		}
	})
	end := len(c.kv)
	// pdqsort, not a stable sort: a stable sort's insertion runs cost ten times more on keys
	// in reverse order; the place breaks ties instead.
	slices.SortFunc(c.kv[start:end], func(a, b member) int {
		return cmp.Or(bytes.Compare(a.key, b.key), cmp.Compare(a.pos, b.pos))
	})
	c.buf = append(c.buf, tagObject)
	c.buf = binary.BigEndian.AppendUint32(c.buf, uint32(end-start))
	for i := start; i < end; i++ {
		// c.kv may grow below (nested objects push above end): index it afresh.
		m := c.kv[i]
		c.member(m.key, m.v, ig, m.mask, d)
	}
	c.kv = c.kv[:start]
}

// keep says whether member k of an object at depth d is compared (not the JSON-RPC id when
// dropID, not on an ignore path), and which ignore paths stay alive below it.
func keep(k []byte, ig *ignoreSet, mask uint64, d int, dropID bool) (child uint64, ok bool) {
	if dropID && string(k) == "id" {
		return 0, false
	}
	child, drop := ig.stepKey(mask, d, k)
	return child, !drop
}

// member writes one member of an object at depth d: its key, then its value's.
func (c *canon) member(k []byte, v *fastjson.Value, ig *ignoreSet, mask uint64, d int) {
	c.buf = binary.AppendUvarint(c.buf, uint64(len(k)))
	c.buf = append(c.buf, k...)
	c.value(v, ig, mask, d+1)
}

// value writes v's key; at depth d the ignore paths in mask are alive.
func (c *canon) value(v *fastjson.Value, ig *ignoreSet, mask uint64, d int) {
	switch v.Type() {
	case fastjson.TypeObject:
		o, _ := v.Object()
		c.object(o, ig, mask, d, false)
	case fastjson.TypeArray:
		arr, _ := v.Array()
		c.buf = append(c.buf, tagArray)
		c.buf = binary.AppendUvarint(c.buf, uint64(len(arr)))
		for i, it := range arr {
			child, drop := ig.stepIndex(mask, d, i)
			if drop {
				c.buf = append(c.buf, tagIgnored)
				continue
			}
			c.value(it, ig, child, d+1)
		}
	case fastjson.TypeString:
		s, _ := v.StringBytes()
		if c.numbers {
			if out, ok := appendHex(c.buf, s); ok {
				c.buf = out
				return
			}
		}
		c.buf = appendTagged(c.buf, tagString, s)
	case fastjson.TypeNumber:
		c.num = v.MarshalTo(c.num[:0]) // a number marshals as its text
		c.buf = appendNumber(c.buf, c.num)
	case fastjson.TypeTrue:
		c.buf = append(c.buf, tagTrue)
	case fastjson.TypeFalse:
		c.buf = append(c.buf, tagFalse)
	default:
		c.buf = append(c.buf, tagNull)
	}
}

// key writes v's key (below the top: no id left out) and returns it: valid until the next
// call. The diff compares values by it.
func (c *canon) key(v *fastjson.Value, ig *ignoreSet, mask uint64, d int) []byte {
	c.buf = c.buf[:0]
	c.value(v, ig, mask, d)
	return c.buf
}
