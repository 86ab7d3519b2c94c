package engine

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/valyala/fastjson"

	"github.com/rpcstress/rpcstress/internal/errtest"
)

// answerObject parses a JSON-RPC answer for a rule to check.
func answerObject(t testing.TB, answer string) *fastjson.Object {
	t.Helper()
	v, err := fastjson.Parse(answer)
	if err != nil {
		t.Fatalf("test answer %s: %v", answer, err)
	}
	o, err := v.Object()
	if err != nil {
		t.Fatalf("test answer %s: %v", answer, err)
	}
	return o
}

// TestExpectRuleCheck: each kind of rule against the answers that pass and break it.
func TestExpectRuleCheck(t *testing.T) {
	const (
		block = `{"jsonrpc":"2.0","id":1,"result":{"number":"0x1b4","hash":"0xabc","transactions":[{"hash":"0x01"}],"size":1200,"uncles":[],"extra":"","final":true,"miner":{}}}`
		null  = `{"jsonrpc":"2.0","id":1,"result":null}`
		empty = `{"jsonrpc":"2.0","id":1,"result":[]}`
	)
	tests := []struct {
		name   string
		kind   ExpectKind
		path   string
		want   any
		answer string
		pass   bool
	}{
		// A result that is there passes "present".
		{"present", ExpectPresent, "result", nil, block, true},
		// A null result is what a pruned node answers: it is not there.
		{"present null", ExpectPresent, "result", nil, null, false},
		// No result member at all (an error answer is judged apart, but a rule still says no).
		{"present missing", ExpectPresent, "result", nil, `{"jsonrpc":"2.0","id":1,"error":{"code":1}}`, false},
		// A nested key that is there.
		{"present nested", ExpectPresent, "result.transactions", nil, block, true},
		// A nested key that is not.
		{"present nested missing", ExpectPresent, "result.logs", nil, block, false},
		// An array element by index, then a key inside it.
		{"present index", ExpectPresent, "result.transactions.0.hash", nil, block, true},
		// The bracket form of the same path.
		{"present bracket", ExpectPresent, "result.transactions[0].hash", nil, block, true},
		// An index past the end.
		{"present index past end", ExpectPresent, "result.transactions[1]", nil, block, false},
		// A key below a null result.
		{"present below null", ExpectPresent, "result.number", nil, null, false},
		// Absent: a missing key passes.
		{"absent missing", ExpectAbsent, "result.logs", nil, block, true},
		// Absent: null counts as absent.
		{"absent null", ExpectAbsent, "result", nil, null, true},
		// Absent: a key that is there breaks it.
		{"absent there", ExpectAbsent, "result.hash", nil, block, false},
		// Nonempty: an array with an element.
		{"nonempty array", ExpectNonEmpty, "result.transactions", nil, block, true},
		// Nonempty: [] (eth_getLogs over a range without logs).
		{"nonempty []", ExpectNonEmpty, "result", nil, empty, false},
		// Nonempty: an empty nested array.
		{"nonempty nested []", ExpectNonEmpty, "result.uncles", nil, block, false},
		// Nonempty: "" breaks it.
		{"nonempty empty string", ExpectNonEmpty, "result.extra", nil, block, false},
		// Nonempty: {} breaks it.
		{"nonempty empty object", ExpectNonEmpty, "result.miner", nil, block, false},
		// Nonempty: null breaks it.
		{"nonempty null", ExpectNonEmpty, "result", nil, null, false},
		// Nonempty: a number holds its value.
		{"nonempty number", ExpectNonEmpty, "result.size", nil, block, true},
		// Nonempty: a non-empty string.
		{"nonempty string", ExpectNonEmpty, "result.hash", nil, block, true},
		// Equals: the same string.
		{"equals string", ExpectEquals, "result.number", "0x1b4", block, true},
		// Equals: another string.
		{"equals other string", ExpectEquals, "result.number", "0x1b5", block, false},
		// Equals: a number written in TOML as an integer.
		{"equals int", ExpectEquals, "result.size", int64(1200), block, true},
		// Equals: a float equal to the JSON number.
		{"equals float", ExpectEquals, "result.size", 1200.0, block, true},
		// Equals: a number against a JSON string of its digits is not equal.
		{"equals number vs string", ExpectEquals, "result.number", int64(436), block, false},
		// Equals: true.
		{"equals true", ExpectEquals, "result.final", true, block, true},
		// Equals: false against true.
		{"equals false", ExpectEquals, "result.final", false, block, false},
		// Equals: a missing value is never equal.
		{"equals missing", ExpectEquals, "result.nope", "x", block, false},
		// Matches: a string by its text.
		{"matches", ExpectMatches, "result.hash", "^0x[0-9a-f]+$", block, true},
		// Matches: a string that does not match.
		{"matches not", ExpectMatches, "result.hash", "^0x[0-9]+$", block, false},
		// Matches: a number by its JSON text.
		{"matches number", ExpectMatches, "result.size", "^[0-9]{4}$", block, true},
		// Matches: null never matches, even a pattern that matches anything.
		{"matches null", ExpectMatches, "result", ".*", null, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := NewExpectRule(tt.kind, tt.path, tt.want)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := r.Check(answerObject(t, tt.answer), nil)
			if got != tt.pass {
				t.Errorf("%s on %s: pass %v, want %v", r.Label, tt.answer, got, tt.pass)
			}
		})
	}
}

// TestExpectRuleLabel: a rule is named by its path and what it asks, as reports count it.
func TestExpectRuleLabel(t *testing.T) {
	tests := []struct {
		kind  ExpectKind
		path  string
		want  any
		label string
	}{
		// expect = "result".
		{ExpectPresent, "result", nil, "result present"},
		// expect = "nonempty".
		{ExpectNonEmpty, "result", nil, "result nonempty"},
		// Bracket indexes are written as keys.
		{ExpectAbsent, "result.a[0]", nil, "result.a.0 absent"},
		// A string is quoted as JSON would.
		{ExpectEquals, "result.status", "0x1", `result.status equals "0x1"`},
		// A whole number has no decimals.
		{ExpectEquals, "result.n", int64(7), "result.n equals 7"},
		// A boolean.
		{ExpectEquals, "result.ok", true, "result.ok equals true"},
		// A pattern is quoted.
		{ExpectMatches, "result.hash", "^0x", `result.hash matches "^0x"`},
	}
	for _, tt := range tests {
		r, err := NewExpectRule(tt.kind, tt.path, tt.want)
		if err != nil {
			t.Fatal(err)
		}
		if r.Label != tt.label {
			t.Errorf("label %q, want %q", r.Label, tt.label)
		}
	}
}

// TestParseExpectPath: paths read into keys, and each mistake says how to write it.
func TestParseExpectPath(t *testing.T) {
	tests := []struct {
		path string
		keys []string
		err  string // a part of the error; "" for none
	}{
		// The result itself.
		{"result", []string{"result"}, ""},
		// Keys and indexes.
		{"result.transactions.0.hash", []string{"result", "transactions", "0", "hash"}, ""},
		// Brackets, also two in a row.
		{"result.m[1][2].x", []string{"result", "m", "1", "2", "x"}, ""},
		// Spaces around are trimmed.
		{"  result.a ", []string{"result", "a"}, ""},
		// Empty.
		{"", nil, "is empty"},
		// Another member of the answer.
		{"error.code", nil, "does not start at result"},
		// A path without result is shown with it.
		{"transactions", nil, `"result.transactions"`},
		// Two dots.
		{"result..a", nil, "empty key"},
		// A leading index.
		{"[0]", nil, "empty key"},
		// An index that is no number.
		{"result.a[x]", nil, "not an array index"},
		// An unclosed bracket.
		{"result.a[0", nil, "not an array index"},
		// A bracket with nothing after it.
		{"result.a[", nil, "not an array index"},
		// Empty brackets.
		{"result.a[]", nil, "not an array index"},
		// Something after an index but before a dot.
		{"result.a[0]b", nil, "follows an index"},
	}
	for _, tt := range tests {
		keys, err := ParseExpectPath(tt.path)
		switch m := errtest.Mismatch(err, tt.err); {
		case m != "":
			t.Errorf("%q: %s", tt.path, m)
		case tt.err == "" && !slices.Equal(keys, tt.keys):
			t.Errorf("%q: keys %q, want %q", tt.path, keys, tt.keys)
		}
	}
}

// TestNewExpectRuleErrors: values a rule cannot compare or match are refused with a fix.
func TestNewExpectRuleErrors(t *testing.T) {
	tests := []struct {
		kind ExpectKind
		want any
		err  string
	}{
		// equals takes one scalar, not a list.
		{ExpectEquals, []any{"a"}, "compares one value"},
		// A table neither.
		{ExpectEquals, map[string]any{}, "compares one value"},
		// Not a finite number.
		{ExpectEquals, math.Inf(1), "no JSON number"},
		// matches takes a string.
		{ExpectMatches, int64(1), "regular expression in quotes"},
		// A pattern that does not compile.
		{ExpectMatches, "(", "is not a regular expression"},
	}
	for _, tt := range tests {
		_, err := NewExpectRule(tt.kind, "result", tt.want)
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%v %v: error %v, want one with %q", tt.kind, tt.want, err, tt.err)
		}
	}
}

// TestExpectCheckZeroAlloc: checking a result allocates nothing once the worker's scratch has
// grown, for every kind of rule (it runs on the send path).
func TestExpectCheckZeroAlloc(t *testing.T) {
	o := answerObject(t, `{"jsonrpc":"2.0","id":1,"result":{"number":"0x1b4","n":12345,"txs":[1,2]}}`)
	var rules []*ExpectRule
	for _, r := range []struct {
		kind ExpectKind
		path string
		want any
	}{
		{ExpectPresent, "result.number", nil},
		{ExpectNonEmpty, "result.txs", nil},
		{ExpectEquals, "result.number", "0x1b4"},
		{ExpectMatches, "result.number", "^0x[0-9a-f]+$"},
		{ExpectMatches, "result.n", "^[0-9]+$"},
	} {
		rule, err := NewExpectRule(r.kind, r.path, r.want)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, rule)
	}
	e := &Expect{Rules: rules}
	var scratch []byte
	e.broken(o, &scratch) // warm: the scratch grows once
	allocs := testing.AllocsPerRun(200, func() {
		if r := e.broken(o, &scratch); r != nil {
			t.Fatalf("broke %s", r.Label)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per check, want 0", allocs)
	}
}

// FuzzExpectPath: any path is read or refused with a reason, never a panic; a path read
// starts at result, has no empty key, and reads back the same written with dots.
func FuzzExpectPath(f *testing.F) {
	for _, p := range []string{"result", "result.transactions[0].hash", "result.a.0.b", "result..a", "[0]", "result.a[0]b", "result[1][2]", "error.code", "result.a["} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, path string) {
		keys, err := ParseExpectPath(path)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		if len(keys) == 0 || keys[0] != "result" {
			t.Fatalf("%q read as %q: must start at result", path, keys)
		}
		for _, k := range keys {
			if k == "" {
				t.Fatalf("%q read with an empty key: %q", path, keys)
			}
		}
		if again, err := ParseExpectPath(strings.Join(keys, ".")); err != nil || !slices.Equal(again, keys) {
			t.Fatalf("%q read as %q, which reads back as %q (%v)", path, keys, again, err)
		}
	})
}
