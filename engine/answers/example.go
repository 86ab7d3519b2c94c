package answers

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// What a diff shows: what a report prints for a user, not a patch.
const (
	maxDiffLines  = 20
	maxValueBytes = 60
	// rootPath names the whole answer in a diff line (it differs as a whole: not JSON, or a
	// value of another type).
	rootPath = "(answer)"
)

// example builds the example of request p's pair: its last answer (from target last) is
// lastBody, the others were copied. It runs without c.mu: p is this call's alone by now.
func (c *Comparer) example(p *pending, pair, last int, lastBody, sent []byte, total kind) Example {
	a, b := c.pairs[pair][0], c.pairs[pair][1]
	body := func(t int) []byte {
		if t == last {
			return lastBody
		}
		return p.answers[t].body // nil when missing
	}
	ex := Example{Request: p.request, Kind: total.Kind(), A: c.opt.Targets[a], B: c.opt.Targets[b]}
	var cutS, cutA, cutB bool
	ex.Sent, cutS = cutUTF8(sent, c.opt.MaxBytes)
	ex.AnswerA, cutA = cutUTF8(body(a), c.opt.MaxBytes)
	ex.AnswerB, cutB = cutUTF8(body(b), c.opt.MaxBytes)
	ex.Cut = cutS || cutA || cutB
	ex.Diff = c.diff(body(a), body(b), c.ignore[p.request])
	return ex
}

// differ walks two answers side by side, as canon walks one, and lists the paths whose values
// differ. Whether two values differ is decided by their keys, so the diff never disagrees with
// the count.
type differ struct {
	ca, cb *canon
	ig     *ignoreSet
	lines  []DiffLine
	more   int
}

// diff lists where answers a and b differ; a side that is not JSON (or absent) differs as a
// whole.
func (c *Comparer) diff(a, b []byte, ig *ignoreSet) []DiffLine {
	ca, cb := c.scratch.Get().(*canon), c.scratch.Get().(*canon)
	defer c.scratch.Put(ca)
	defer c.scratch.Put(cb)
	d := &differ{ca: ca, cb: cb, ig: ig}
	va, errA := ca.p.ParseBytes(a)
	vb, errB := cb.p.ParseBytes(b)
	if errA != nil || errB != nil {
		x, _ := cutUTF8(a, maxValueBytes)
		y, _ := cutUTF8(b, maxValueBytes)
		return []DiffLine{{Path: rootPath, A: x, B: y}}
	}
	d.top(va, vb)
	if d.more > 0 {
		d.lines = append(d.lines, DiffLine{Path: fmt.Sprintf("(%d more paths)", d.more)})
	}
	return d.lines
}

// top compares two whole answers, as canon.top writes them.
func (d *differ) top(va, vb *fastjson.Value) {
	mask := d.ig.all()
	oa, errA := va.Object()
	ob, errB := vb.Object()
	if errA == nil && errB == nil && isRPC(oa) && isRPC(ob) {
		d.objects("", oa, ob, mask, 0, true)
		return
	}
	arrA, errA := va.Array()
	arrB, errB := vb.Array()
	if errA != nil || errB != nil || !isBatch(arrA) || !isBatch(arrB) {
		d.values("", va, vb, mask, 0)
		return
	}
	// Batches: items paired by id (both sorted as the keys were written), named by position.
	ia, ib := d.ca.sortBatch(arrA), d.cb.sortBatch(arrB)
	for i := range max(len(ia), len(ib)) {
		path := strconv.Itoa(i)
		switch {
		case i >= len(ia):
			d.line(path, nil, ib[i].v)
		case i >= len(ib):
			d.line(path, ia[i].v, nil)
		default:
			oa, _ := ia[i].v.Object()
			ob, _ := ib[i].v.Object()
			d.objects(path, oa, ob, mask, 0, true)
		}
	}
}

// values compares two values at path (depth dep, ignore paths in mask alive).
func (d *differ) values(path string, a, b *fastjson.Value, mask uint64, dep int) {
	if bytes.Equal(d.ca.key(a, d.ig, mask, dep), d.cb.key(b, d.ig, mask, dep)) {
		return
	}
	oa, errA := a.Object()
	ob, errB := b.Object()
	if errA == nil && errB == nil {
		d.objects(path, oa, ob, mask, dep, false)
		return
	}
	arrA, errA := a.Array()
	arrB, errB := b.Array()
	if errA != nil || errB != nil {
		d.line(path, a, b)
		return
	}
	for i := range max(len(arrA), len(arrB)) {
		child, drop := d.ig.stepIndex(mask, dep, i)
		if drop {
			continue
		}
		p := join(path, strconv.Itoa(i))
		switch {
		case i >= len(arrA):
			d.line(p, nil, arrB[i])
		case i >= len(arrB):
			d.line(p, arrA[i], nil)
		default:
			d.values(p, arrA[i], arrB[i], child, dep+1)
		}
	}
}

// objects compares two objects member by member, in key order.
func (d *differ) objects(path string, oa, ob *fastjson.Object, mask uint64, dep int, dropID bool) {
	var keys []string
	collect := func(k []byte, _ *fastjson.Value) { keys = append(keys, string(k)) }
	oa.Visit(collect)
	ob.Visit(collect)
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		child, ok := keep([]byte(k), d.ig, mask, dep, dropID)
		if !ok {
			continue
		}
		va, vb := oa.Get(k), ob.Get(k)
		if va == nil || vb == nil {
			d.line(join(path, k), va, vb)
			continue
		}
		d.values(join(path, k), va, vb, child, dep+1)
	}
}

// line adds one differing path; an absent side (nil) shows as "".
func (d *differ) line(path string, a, b *fastjson.Value) {
	if len(d.lines) >= maxDiffLines {
		d.more++
		return
	}
	if path == "" {
		path = rootPath
	}
	d.lines = append(d.lines, DiffLine{Path: path, A: snippet(a), B: snippet(b)})
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// snippet is a value as compact JSON, cut to maxValueBytes with "…".
func snippet(v *fastjson.Value) string {
	if v == nil {
		return ""
	}
	s, cut := cutUTF8(v.MarshalTo(nil), maxValueBytes)
	if cut {
		s += "…"
	}
	return s
}

// cutUTF8 returns b as valid UTF-8 (a bad byte becomes U+FFFD) of at most limit bytes, cut
// at a character's start, and whether it was cut.
func cutUTF8(b []byte, limit int) (string, bool) {
	// A few bytes past the limit are enough to read: repairing only lengthens, so when b is
	// longer than limit the repaired prefix is too.
	s := strings.ToValidUTF8(string(b[:min(len(b), limit+utf8.UTFMax)]), "\uFFFD")
	if len(s) <= limit {
		return s, false
	}
	n := limit
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
