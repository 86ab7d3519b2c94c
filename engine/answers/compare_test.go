package answers

import (
	"fmt"
	"strings"
	"testing"
)

// newComparer makes a Comparer of targets named by names, failing the test on an error.
func newComparer(t testing.TB, opt Options, names ...string) *Comparer {
	t.Helper()
	opt.Targets = names
	c, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// body is an Answer of target i with text s.
func body(i int, s string) Answer { return Answer{Target: i, Body: []byte(s)} }

// counted is Counts of one request of kind k.
func counted(k Kind) Counts {
	n := Counts{Compared: 1}
	switch k {
	case Match:
		n.Match = 1
	case Mismatch:
		n.Mismatch = 1
	case ErrorVsResult:
		n.ErrorVsResult = 1
	case HeadSkew:
		n.HeadSkew = 1
	case Incomplete:
		n.Incomplete = 1
	}
	return n
}

const (
	okOne   = `{"jsonrpc":"2.0","id":1,"result":"0x1"}`
	okTwo   = `{"jsonrpc":"2.0","id":1,"result":"0x2"}`
	badArgs = `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid argument 0"}}`
	limited = `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}`
)

// TestKinds: how two targets' answers to one request are counted.
func TestKinds(t *testing.T) {
	tests := []struct {
		a, b Answer
		want Kind
	}{
		// The same answer.
		{body(0, okOne), body(1, okOne), Match},
		// Other results.
		{body(0, okOne), body(1, okTwo), Mismatch},
		// An error against a result.
		{body(0, okOne), body(1, badArgs), ErrorVsResult},
		// …either way round.
		{body(0, badArgs), body(1, okOne), ErrorVsResult},
		// Two different errors: a mismatch, not an error against a result.
		{body(0, badArgs), body(1, limited), Mismatch},
		// Other results at other heads: head skew.
		{Answer{Target: 0, Body: []byte(okOne), Head: 100}, Answer{Target: 1, Body: []byte(okTwo), Head: 101}, HeadSkew},
		// Other results at one head: a mismatch.
		{Answer{Target: 0, Body: []byte(okOne), Head: 100}, Answer{Target: 1, Body: []byte(okTwo), Head: 100}, Mismatch},
		// A head unknown on one side: a mismatch (nothing says the heads differ).
		{Answer{Target: 0, Body: []byte(okOne), Head: 100}, Answer{Target: 1, Body: []byte(okTwo)}, Mismatch},
		// The same result at other heads: a match.
		{Answer{Target: 0, Body: []byte(okOne), Head: 100}, Answer{Target: 1, Body: []byte(okOne), Head: 105}, Match},
		// An error against a result at other heads is still one.
		{Answer{Target: 0, Body: []byte(okOne), Head: 100}, Answer{Target: 1, Body: []byte(badArgs), Head: 105}, ErrorVsResult},
		// A target gave no answer.
		{body(0, okOne), Answer{Target: 1, Missing: true}, Incomplete},
		// Neither did.
		{Answer{Target: 0, Missing: true}, Answer{Target: 1, Missing: true}, Incomplete},
		// An answer that is not JSON (a proxy's error page).
		{body(0, okOne), body(1, "<html>502 Bad Gateway</html>"), Incomplete},
		// An empty answer.
		{body(0, ""), body(1, okOne), Incomplete},
		// The same text that is not JSON on both sides: still nothing to compare.
		{body(0, "<html>502</html>"), body(1, "<html>502</html>"), Incomplete},
		// The same error to the byte on both sides: a match.
		{body(0, badArgs), body(1, badArgs), Match},
	}
	for _, tt := range tests {
		c := newComparer(t, Options{}, "a", "b")
		c.Add(1, "r", nil, tt.a)
		c.Add(1, "r", nil, tt.b)
		r := c.Live()
		want := counted(tt.want)
		if r.Totals != want || r.ByRequest["r"] != want || r.Pairs[0].Counts != want {
			t.Errorf("%q vs %q: totals %+v, by request %+v, pair %+v; want %+v",
				tt.a.Body, tt.b.Body, r.Totals, r.ByRequest["r"], r.Pairs[0].Counts, want)
		}
	}
}

// TestSeed001: three branches, one of which answers every call with -32602. Its errors show
// from the first request, on its pairs only, while the two sound branches match.
func TestSeed001(t *testing.T) {
	c := newComparer(t, Options{}, "main", "b1", "b2")
	for seq := range uint64(10) {
		req := "eth_getBalance"
		if seq%2 == 1 {
			req = "eth_blockNumber"
		}
		answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":"0x%x"}`, seq, seq*7)
		c.Add(seq, req, nil, body(2, badArgs))
		c.Add(seq, req, nil, body(0, answer))
		c.Add(seq, req, nil, body(1, answer))
		if got := c.Live().Totals.ErrorVsResult; got != int64(seq)+1 {
			t.Fatalf("after request %d: %d errors against results, want %d", seq, got, seq+1)
		}
	}
	r := c.Result()
	if r.Totals.Compared != 10 || r.Totals.ErrorVsResult != 10 {
		t.Errorf("totals %+v: want all 10 errors against results", r.Totals)
	}
	if r.ByRequest["eth_getBalance"].ErrorVsResult != 5 || r.ByRequest["eth_blockNumber"].ErrorVsResult != 5 {
		t.Errorf("by request %+v: want 5 of each", r.ByRequest)
	}
	want := []PairCounts{
		{A: "main", B: "b1", Counts: Counts{Compared: 10, Match: 10}},
		{A: "main", B: "b2", Counts: Counts{Compared: 10, ErrorVsResult: 10}},
		{A: "b1", B: "b2", Counts: Counts{Compared: 10, ErrorVsResult: 10}},
	}
	if fmt.Sprint(r.Pairs) != fmt.Sprint(want) {
		t.Errorf("pairs %+v, want %+v", r.Pairs, want)
	}
}

// TestTotalsNeedAll: with three targets a request matches only when all three agree; its kind
// is the weightiest its pairs show.
func TestTotalsNeedAll(t *testing.T) {
	tests := []struct {
		bodies [3]string
		want   Kind
	}{
		// All agree.
		{[3]string{okOne, okOne, okOne}, Match},
		// One differs: two pairs mismatch, one matches; the request mismatches.
		{[3]string{okOne, okOne, okTwo}, Mismatch},
		// The last is the first's to the byte, not the second's: it is compared all the same.
		{[3]string{okOne, okTwo, okOne}, Mismatch},
		// One errs and one differs: the error weighs more.
		{[3]string{okOne, okTwo, badArgs}, ErrorVsResult},
		// One is not JSON and the others agree: incomplete.
		{[3]string{okOne, "oops", okOne}, Incomplete},
		// One is not JSON and the others differ: the mismatch weighs more.
		{[3]string{okOne, "oops", okTwo}, Mismatch},
	}
	for _, tt := range tests {
		c := newComparer(t, Options{}, "a", "b", "c")
		for i, s := range tt.bodies {
			c.Add(7, "r", nil, body(i, s))
		}
		if got := c.Live().Totals; got != counted(tt.want) {
			t.Errorf("%q: totals %+v, want %+v", tt.bodies, got, counted(tt.want))
		}
	}
}

// TestAddMisuse: answers come in any order of targets; an unknown target's answer and a
// second answer of one target are left out rather than counting a request twice.
func TestAddMisuse(t *testing.T) {
	c := newComparer(t, Options{}, "a", "b")
	c.Add(1, "r", nil, body(1, okOne)) // the second target first
	c.Add(1, "r", nil, body(5, okTwo)) // no such target
	c.Add(1, "r", nil, body(-1, okTwo))
	c.Add(2, "r", nil, body(0, okOne))
	c.Add(2, "r", nil, body(0, okTwo)) // a second answer of target a
	if r := c.Live(); r.Totals.Compared != 0 {
		t.Fatalf("counted %+v before every target answered", r.Totals)
	}
	c.Add(1, "r", nil, body(0, okOne))
	c.Add(2, "r", nil, body(1, okOne)) // matches a's first answer to 2
	if r := c.Live(); r.Totals != (Counts{Compared: 2, Match: 2}) {
		t.Errorf("totals %+v, want 2 matches", r.Totals)
	}
	if len(c.pending) != 0 {
		t.Errorf("%d requests still pending", len(c.pending))
	}
}

// TestResultCountsUnanswered: a request some target never answered is not in the live counts
// (it is in flight) but is incomplete in the final result, without changing the books.
func TestResultCountsUnanswered(t *testing.T) {
	c := newComparer(t, Options{}, "a", "b", "c")
	c.Add(1, "r", nil, body(0, okOne))
	c.Add(1, "r", nil, body(1, okOne))
	if r := c.Live(); r.Totals.Compared != 0 {
		t.Errorf("live %+v: a request in flight was counted", r.Totals)
	}
	r := c.Result()
	want := []Counts{{Compared: 1, Match: 1}, {Compared: 1, Incomplete: 1}, {Compared: 1, Incomplete: 1}}
	if r.Totals != counted(Incomplete) || r.Pairs[0].Counts != want[0] || r.Pairs[1].Counts != want[1] || r.Pairs[2].Counts != want[2] {
		t.Errorf("result totals %+v, pairs %+v: want one incomplete (a and b matching)", r.Totals, r.Pairs)
	}
	c.Add(1, "r", nil, body(2, okOne))
	if r := c.Result(); r.Totals != counted(Match) {
		t.Errorf("after the last answer: %+v, want one match", r.Totals)
	}
}

// TestManyIgnorePaths: a request may name 64 paths, and the 64th works as the first.
func TestManyIgnorePaths(t *testing.T) {
	paths := make([]string, maxIgnore)
	for i := range paths {
		paths[i] = fmt.Sprintf("result.k%d", i)
	}
	c := newComparer(t, Options{Ignore: map[string][]string{"r": paths}}, "a", "b")
	c.Add(1, "r", nil, body(0, `{"result":{"k0":1,"k63":1,"x":1}}`))
	c.Add(1, "r", nil, body(1, `{"result":{"k0":2,"k63":2,"x":1}}`))
	c.Add(2, "r", nil, body(0, `{"result":{"k0":1,"k63":1,"x":1}}`))
	c.Add(2, "r", nil, body(1, `{"result":{"k0":1,"k63":1,"x":2}}`))
	if r := c.Live(); r.Totals != (Counts{Compared: 2, Match: 1, Mismatch: 1}) {
		t.Errorf("totals %+v: want the ignored keys to match and x to differ", r.Totals)
	}
}

// TestAddAllocates: once warm, comparing answers allocates nothing, whether their bodies are
// copied (the request name has no examples yet) or not (it has them all).
func TestAddAllocates(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector allocates")
	}
	bodies := [][]byte{
		blockAnswer(1, 1000, 1700000000),
		blockWith(1, 1000, 1700000000, true), // its members sorted here
		// JSON numbers below 10^19 (past it, math/big counts them, and allocates)
		[]byte(`{"jsonrpc":"2.0","id":1,"result":[1,2.5,-1e3,1234567890123456789,0.000125]}`),
		[]byte(`[{"jsonrpc":"2.0","id":2,"result":"0x2"},{"jsonrpc":"2.0","id":1,"error":{"code":-32000}}]`),
	}
	for _, b := range bodies {
		for _, full := range []bool{false, true} {
			c := newComparer(t, Options{NumbersByValue: true}, "a", "b")
			if full {
				c.methods["r"] = &method{kept: [nKinds]int{kMismatch: 5, kErrorVsResult: 5, kHeadSkew: 5}}
			}
			seq := uint64(0)
			one := func() {
				c.Add(seq, "r", nil, Answer{Target: 0, Body: b})
				c.Add(seq, "r", nil, Answer{Target: 1, Body: b})
				seq++
			}
			for range 10 {
				one()
			}
			if n := testing.AllocsPerRun(200, one); n != 0 {
				t.Errorf("%.40s… examples full %v: %v allocations per request, want 0", b, full, n)
			}
			if r := c.Live(); r.Totals.Match != r.Totals.Compared {
				t.Fatalf("counts %+v: the answers were to match", r.Totals)
			}
		}
	}
}

// TestNewErrors: options New refuses, each with what to do.
func TestNewErrors(t *testing.T) {
	many := make([]string, maxIgnore+1)
	for i := range many {
		many[i] = "result.a"
	}
	tests := []struct {
		opt Options
		err string // a part of the error
	}{
		// No targets.
		{Options{}, "at least 2 targets, got 0"},
		// One target: nothing to compare it with.
		{Options{Targets: []string{"a"}}, "at least 2 targets, got 1"},
		// A target without a name.
		{Options{Targets: []string{"a", ""}}, "target 2 has no name"},
		// Two targets of one name: a pair could not be told from its mirror.
		{Options{Targets: []string{"a", "a"}}, `"a" is given twice`},
		// A negative number of examples.
		{Options{Targets: []string{"a", "b"}, Keep: -1}, "must not be negative"},
		// A negative size limit.
		{Options{Targets: []string{"a", "b"}, MaxBytes: -1}, "must not be negative"},
		// A bad ignore path names its request.
		{Options{Targets: []string{"a", "b"}, Ignore: map[string][]string{"eth_getBlockByNumber": {"result..hash"}}}, `request "eth_getBlockByNumber": ignore path "result..hash" has an empty key`},
		// Too many ignore paths for one request.
		{Options{Targets: []string{"a", "b"}, Ignore: map[string][]string{"r": many}}, "at most 64"},
	}
	for _, tt := range tests {
		_, err := New(tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%+v: error %v, want one with %q", tt.opt, err, tt.err)
		}
	}
	if _, err := New(Options{Targets: []string{"a", "b", "c"}, Ignore: map[string][]string{"r": many[:maxIgnore]}}); err != nil {
		t.Errorf("three targets, %d ignore paths: %v", maxIgnore, err)
	}
}
