package answers

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestExampleDiff: the paths a kept example lists, as `rpcstress report` prints them.
func TestExampleDiff(t *testing.T) {
	tests := []struct {
		a, b    string
		numbers bool
		ignore  []string
		want    []DiffLine
	}{
		// Two blocks of one number from two dev chains: the fields that differ, in key order.
		{`{"jsonrpc":"2.0","id":1,"result":{"number":"0x5","timestamp":"0x6743a1b2","hash":"0xaa"}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"hash":"0xbb","number":"0x5","timestamp":"0x6744c3d4"}}`, false, nil,
			[]DiffLine{{"result.hash", `"0xaa"`, `"0xbb"`}, {"result.timestamp", `"0x6743a1b2"`, `"0x6744c3d4"`}}},
		// An ignored path is not listed.
		{`{"jsonrpc":"2.0","id":1,"result":{"timestamp":"0x1","hash":"0xaa"}}`,
			`{"jsonrpc":"2.0","id":1,"result":{"timestamp":"0x2","hash":"0xbb"}}`, false, []string{"result.timestamp"},
			[]DiffLine{{"result.hash", `"0xaa"`, `"0xbb"`}}},
		// Numbers equal by value are not listed; the id never is.
		{`{"jsonrpc":"2.0","id":1,"result":{"n":"0x1b4","m":1}}`, `{"jsonrpc":"2.0","id":2,"result":{"n":436,"m":2}}`, true, nil,
			[]DiffLine{{"result.m", `1`, `2`}}},
		// An error against a result: each member absent on one side.
		{okOne, badArgs, false, nil,
			[]DiffLine{{"error", "", `{"code":-32602,"message":"invalid argument 0"}`}, {"result", `"0x1"`, ""}}},
		// Arrays item by item; an extra item is absent on the other side.
		{`{"result":[1,2,3]}`, `{"result":[1,5]}`, false, nil,
			[]DiffLine{{"result.1", "2", "5"}, {"result.2", "3", ""}}},
		// Values of other types differ as a whole.
		{`{"result":{"a":1}}`, `{"result":[1]}`, false, nil, []DiffLine{{"result", `{"a":1}`, "[1]"}}},
		// Whole answers of other types.
		{`[1]`, `{"a":1}`, false, nil, []DiffLine{{rootPath, "[1]", `{"a":1}`}}},
		// A side that is not JSON: both as text.
		{okOne, "<html>bad gateway</html>", false, nil, []DiffLine{{rootPath, okOne, "<html>bad gateway</html>"}}},
		// A batch answered in another order: items paired by id, named by position.
		{`[{"jsonrpc":"2.0","id":1,"result":"a"},{"jsonrpc":"2.0","id":2,"result":"b"}]`,
			`[{"jsonrpc":"2.0","id":2,"result":"c"},{"jsonrpc":"2.0","id":1,"result":"a"}]`, false, nil,
			[]DiffLine{{"1.result", `"b"`, `"c"`}}},
		// A long value is cut to 60 bytes with "…".
		{`{"result":"` + strings.Repeat("ab", 50) + `"}`, `{"result":"x"}`, false, nil,
			[]DiffLine{{"result", `"` + strings.Repeat("ab", 29) + `a…`, `"x"`}}},
	}
	for _, tt := range tests {
		c := newComparer(t, Options{NumbersByValue: tt.numbers, Ignore: map[string][]string{"r": tt.ignore}}, "a", "b")
		c.Add(1, "r", nil, body(0, tt.a))
		c.Add(1, "r", nil, body(1, tt.b))
		r := c.Result()
		if len(r.Examples) != 1 {
			t.Errorf("%s vs %s: %d examples, want 1 (totals %+v)", tt.a, tt.b, len(r.Examples), r.Totals)
			continue
		}
		if got := r.Examples[0].Diff; !slices.Equal(got, tt.want) {
			t.Errorf("%s vs %s:\n got %q\nwant %q", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestDiffCapped: a diff lists 20 paths and says how many more differ.
func TestDiffCapped(t *testing.T) {
	var a, b []string
	for i := range 25 {
		a = append(a, fmt.Sprintf(`"k%02d":1`, i))
		b = append(b, fmt.Sprintf(`"k%02d":2`, i))
	}
	c := newComparer(t, Options{}, "a", "b")
	c.Add(1, "r", nil, body(0, "{"+strings.Join(a, ",")+"}"))
	c.Add(1, "r", nil, body(1, "{"+strings.Join(b, ",")+"}"))
	d := c.Result().Examples[0].Diff
	if len(d) != maxDiffLines+1 || d[0].Path != "k00" || d[maxDiffLines-1].Path != "k19" || d[maxDiffLines].Path != "(5 more paths)" {
		t.Errorf("diff %q: want k00 … k19 and (5 more paths)", d)
	}
}

// TestExamplesKept: the first Keep requests of each name and kind are kept, with the request
// and both answers, in order; matches never are.
func TestExamplesKept(t *testing.T) {
	c := newComparer(t, Options{Keep: 2}, "geth", "erigon")
	for seq := range uint64(12) {
		req, a, b := "eth_getBalance", okOne, okOne
		switch seq % 3 {
		case 1:
			b = fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":"0x%x"}`, 100+seq)
		case 2:
			req, b = "eth_call", badArgs
		}
		sent := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":[%d]}`, req, seq)
		c.Add(seq, req, []byte(sent), body(0, a))
		c.Add(seq, req, []byte(sent), body(1, b))
	}
	var got []string
	for _, e := range c.Result().Examples {
		got = append(got, fmt.Sprintf("%s %s %s/%s %s | %s | %s", e.Request, e.Kind, e.A, e.B, e.Sent, e.AnswerA, e.AnswerB))
	}
	want := []string{
		`eth_call error_vs_result geth/erigon {"jsonrpc":"2.0","id":1,"method":"eth_call","params":[2]} | ` + okOne + ` | ` + badArgs,
		`eth_call error_vs_result geth/erigon {"jsonrpc":"2.0","id":1,"method":"eth_call","params":[5]} | ` + okOne + ` | ` + badArgs,
		`eth_getBalance mismatch geth/erigon {"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":[1]} | ` + okOne + ` | {"jsonrpc":"2.0","id":1,"result":"0x65"}`,
		`eth_getBalance mismatch geth/erigon {"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":[4]} | ` + okOne + ` | {"jsonrpc":"2.0","id":1,"result":"0x68"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("examples:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestExamplesByKind: each kind has its own places, so head skew on "latest" cannot crowd out
// a real mismatch of the same request name.
func TestExamplesByKind(t *testing.T) {
	c := newComparer(t, Options{Keep: 1}, "a", "b")
	for seq := range uint64(5) {
		c.Add(seq, "r", nil, Answer{Target: 0, Body: []byte(okOne), Head: 10})
		c.Add(seq, "r", nil, Answer{Target: 1, Body: []byte(okTwo), Head: 11})
	}
	c.Add(9, "r", nil, Answer{Target: 0, Body: []byte(okOne), Head: 10})
	c.Add(9, "r", nil, Answer{Target: 1, Body: []byte(okTwo), Head: 10})
	var kinds []Kind
	for _, e := range c.Result().Examples {
		kinds = append(kinds, e.Kind)
	}
	if !slices.Equal(kinds, []Kind{Mismatch, HeadSkew}) {
		t.Errorf("kinds kept %v, want one mismatch and one head skew", kinds)
	}
}

// TestIncompleteExample: an answer that is not JSON is kept to show what came back; a target
// that gave nothing is not (there is nothing to show).
func TestIncompleteExample(t *testing.T) {
	c := newComparer(t, Options{}, "a", "b")
	c.Add(1, "r", nil, body(0, okOne))
	c.Add(1, "r", nil, Answer{Target: 1, Missing: true})
	c.Add(2, "r", nil, body(1, "upstream timed out"))
	c.Add(2, "r", nil, body(0, okOne))
	ex := c.Result().Examples
	if len(ex) != 1 || ex[0].Kind != Incomplete || ex[0].AnswerB != "upstream timed out" || ex[0].AnswerA != okOne {
		t.Errorf("examples %+v: want the one with text", ex)
	}
}

// TestExampleCut: kept bodies are cut to MaxBytes at a character's start, stay valid UTF-8
// and say they were cut.
func TestExampleCut(t *testing.T) {
	long := `{"result":"` + strings.Repeat("é", 20) + `"}` // é is 2 bytes
	c := newComparer(t, Options{MaxBytes: 16}, "a", "b")
	c.Add(1, "r", []byte(strings.Repeat("x", 30)), body(0, long))
	c.Add(1, "r", []byte(strings.Repeat("x", 30)), body(1, okOne))
	e := c.Result().Examples[0]
	for name, s := range map[string]string{"sent": e.Sent, "a": e.AnswerA, "b": e.AnswerB} {
		if len(s) > 16 || !utf8.ValidString(s) {
			t.Errorf("%s %q: %d bytes, valid %v; want at most 16, valid", name, s, len(s), utf8.ValidString(s))
		}
	}
	if !e.Cut || e.AnswerA != `{"result":"éé` || e.Sent != strings.Repeat("x", 16) {
		t.Errorf("cut %v, answer a %q, sent %q", e.Cut, e.AnswerA, e.Sent)
	}
	c = newComparer(t, Options{MaxBytes: 100}, "a", "b")
	c.Add(1, "r", nil, body(0, okOne))
	c.Add(1, "r", nil, body(1, okTwo))
	if e := c.Result().Examples[0]; e.Cut {
		t.Errorf("short bodies marked cut")
	}
}

// TestCutUTF8: cutting text keeps it valid UTF-8 within the limit.
func TestCutUTF8(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		out   string
		cut   bool
	}{
		// Short enough.
		{"abc", 3, "abc", false},
		// Cut at the limit.
		{"abcd", 3, "abc", true},
		// Not in the middle of a character: é is two bytes.
		{"aé", 2, "a", true},
		// A bad byte becomes U+FFFD (three bytes), within the limit.
		{"a\xffb", 5, "a\uFFFDb", false},
		// …and is cut like any character when it does not fit.
		{"a\xffb", 3, "a", true},
		// Nothing.
		{"", 4, "", false},
	}
	for _, tt := range tests {
		out, cut := cutUTF8([]byte(tt.in), tt.limit)
		if out != tt.out || cut != tt.cut {
			t.Errorf("cutUTF8(%q, %d) = %q, %v; want %q, %v", tt.in, tt.limit, out, cut, tt.out, tt.cut)
		}
	}
}

// TestBodiesCopiedOnlyForExamples: an answer is copied while its request name could still
// give an example, and no longer once every kind has its examples.
func TestBodiesCopiedOnlyForExamples(t *testing.T) {
	c := newComparer(t, Options{Keep: 1}, "a", "b")
	copied := func(seq uint64) bool {
		c.Add(seq, "r", nil, body(0, okOne))
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.pending[seq].answers[0].copied
	}
	if !copied(1) {
		t.Fatal("no copy while no example is kept")
	}
	c.Add(1, "r", nil, body(1, okTwo)) // the mismatch
	c.Add(2, "r", nil, body(0, okOne))
	c.Add(2, "r", nil, body(1, badArgs)) // the error against a result
	if !copied(3) {
		t.Fatal("no copy while head skew has no example")
	}
	c.Add(3, "r", nil, Answer{Target: 1, Body: []byte(okTwo), Head: 9}) // a's head unknown: a mismatch
	c.Add(4, "r", nil, Answer{Target: 0, Body: []byte(okOne), Head: 8})
	c.Add(4, "r", nil, Answer{Target: 1, Body: []byte(okTwo), Head: 9}) // head skew
	if copied(5) {
		t.Error("copied after every kind had its example")
	}
}
