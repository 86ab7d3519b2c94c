package engine

// Ids over WebSocket. Many calls share a connection, so every call that goes out gets an id
// of its own on that connection: the body is cut around its calls' id values once (per mix
// entry for a fixed body, per send for a rendering), and each send writes the pieces back with
// the connection's next numbers. The answer is classified against those numbers (sentCalls);
// only to be compared with another target's answer is a batch answer given back the ids the
// body wrote (asWritten). buger/jsonparser finds the values and their offsets without
// building the document, so neither the cut nor the routing of an answer (wsAnswerID)
// allocates.

import (
	"errors"
	"hash/maphash"
	"strconv"

	"github.com/buger/jsonparser"
)

// errNotRPC is a body that cannot go over WebSocket: its answer could not be told from the
// others on the connection without JSON-RPC ids.
var errNotRPC = errors.New("the body is not JSON-RPC calls, which WebSocket needs to match answers by id")

// idSplice is a body cut around the id values of its calls.
type idSplice struct {
	rest  []byte  // the body without its id values
	cuts  []int32 // where each id value stood in rest, in body order
	notes int     // calls without an id (notifications): they are sent as they are
	batch bool
	// written holds the id values as the body wrote them, one after another, each ending
	// at its writtenEnds: a batch answer is given them back to be compared (asWritten).
	written     []byte
	writtenEnds []int32
}

// cut refills sp from body; false when body is not a JSON-RPC call or a batch of them.
func (sp *idSplice) cut(body []byte) bool {
	sp.rest, sp.cuts, sp.notes, sp.batch = sp.rest[:0], sp.cuts[:0], 0, false
	sp.written, sp.writtenEnds = sp.written[:0], sp.writtenEnds[:0]
	i := skipSpace(body)
	if i == len(body) {
		return false
	}
	switch body[i] {
	case '{':
		last, ok := sp.cutCall(body, 0, body)
		sp.rest = append(sp.rest, body[last:]...)
		return ok
	case '[':
		sp.batch = true
		last, ok, any := 0, true, false
		_, err := jsonparser.ArrayEach(body, func(v []byte, t jsonparser.ValueType, off int, err error) {
			if err != nil || t != jsonparser.Object || !ok {
				ok = false
				return
			}
			any = true
			last, ok = sp.cutCall(body[:off+len(v)], last, v)
		})
		sp.rest = append(sp.rest, body[last:]...)
		return ok && any && err == nil
	}
	return false
}

// cutCall cuts the id value out of call (a slice of body ending where the call does), copying
// body[from:] up to it into rest; it returns where the uncopied part of body starts.
func (sp *idSplice) cutCall(body []byte, from int, call []byte) (int, bool) {
	start := len(body) - len(call) // the call's offset in body
	v, t, end, err := jsonparser.Get(call, "id")
	switch {
	case errors.Is(err, jsonparser.KeyPathNotFoundError):
		sp.notes++
		return from, true
	case err != nil:
		return from, false
	}
	n := len(v)
	if t == jsonparser.String {
		n += 2 // Get gives a string without its quotes
	}
	sp.rest = append(sp.rest, body[from:start+end-n]...)
	sp.cuts = append(sp.cuts, int32(len(sp.rest)))
	sp.written = append(sp.written, body[start+end-n:start+end]...)
	sp.writtenEnds = append(sp.writtenEnds, int32(len(sp.written)))
	return start + end, true
}

// skipSpace is the index of the first byte of b that is not JSON white space.
func skipSpace(b []byte) int {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// ids is how many calls of the body carry an id.
func (sp *idSplice) ids() int { return len(sp.cuts) }

// appendWith appends the body with ids base, base+1, … in place of its calls' ids.
func (sp *idSplice) appendWith(dst []byte, base uint64) []byte {
	from := int32(0)
	for i, at := range sp.cuts {
		dst = append(dst, sp.rest[from:at]...)
		dst = strconv.AppendUint(dst, base+uint64(i), 10)
		from = at
	}
	return append(dst, sp.rest[from:]...)
}

// sentCalls refills c as the calls of sp sent with ids base, base+1, …, with specs (those of
// the request, when its calls are the ones sp holds): what the answer is classified against.
func (c *RPCCalls) sentCalls(sp *idSplice, base uint64, specs []CallSpec) {
	c.reset()
	c.Batch, c.notes = sp.batch, sp.notes
	for i := range sp.ids() {
		start := len(c.keys)
		c.keys = strconv.AppendUint(c.keys, base+uint64(i), 10) // appendIDKey's form of a whole number
		c.ends = append(c.ends, int32(len(c.keys)))
		if !c.Batch {
			continue
		}
		if c.index == nil {
			c.index = map[uint64]int32{}
			c.seed = maphash.MakeSeed()
		}
		c.index[maphash.Bytes(c.seed, c.keys[start:])] = int32(i)
	}
	c.specs = nil
	if len(specs) == 1 || len(specs) == c.answers() {
		c.specs = specs
	}
}

// wsAnswerID is the id an answer message carries, which says whose it is: a call's, or the
// first item's of a batch answer. ok is false for a message without a whole-number id (a
// subscription's notification, an answer to a call the server could not read).
func wsAnswerID(msg []byte) (uint64, bool) {
	i := skipSpace(msg)
	if i == len(msg) {
		return 0, false
	}
	var v []byte
	var t jsonparser.ValueType
	var err error
	if msg[i] == '[' {
		v, t, _, err = jsonparser.Get(msg, "[0]", "id")
	} else {
		v, t, _, err = jsonparser.Get(msg, "id")
	}
	if err != nil || t != jsonparser.Number {
		return 0, false
	}
	id, err := jsonparser.ParseInt(v)
	return uint64(id), err == nil && id > 0
}

// writtenID is the value of the i-th id as the body wrote it.
func (sp *idSplice) writtenID(i int) []byte {
	from := int32(0)
	if i > 0 {
		from = sp.writtenEnds[i-1]
	}
	return sp.written[from:sp.writtenEnds[i]]
}

// asWritten is a batch answer msg to calls sp sent with ids base, base+1, …, with each item's
// id the one its call had in the body, appended to dst; msg itself when it is no batch
// answer, or holds none of those ids. Package answers orders a batch answer's items by id, and
// the ids the connection gave follow the calls' order where the body's need not: [2, 1] goes
// out as [7, 8], whose answer would then compare in the other order than the answer of a
// target that was sent [2, 1].
func (sp *idSplice) asWritten(dst, msg []byte, base uint64) []byte {
	if !sp.batch || len(msg) == 0 || msg[skipSpace(msg)] != '[' {
		return msg
	}
	out, last := dst[:0], 0
	_, err := jsonparser.ArrayEach(msg, func(v []byte, t jsonparser.ValueType, off int, _ error) {
		idv, it, end, err := jsonparser.Get(v, "id")
		if t != jsonparser.Object || err != nil || it != jsonparser.Number {
			return // an item of no call of ours: a fault the classifier counted
		}
		n, err := jsonparser.ParseInt(idv)
		if i := uint64(n) - base; err == nil && n > 0 && i < uint64(sp.ids()) {
			at := off + end - len(idv)
			out = append(append(out, msg[last:at]...), sp.writtenID(int(i))...)
			last = at + len(idv)
		}
	})
	if err != nil || last == 0 {
		return msg
	}
	return append(out, msg[last:]...)
}
