package answers

import (
	"bytes"
	"testing"
)

// keyOf writes body's key as the Comparer would for a request with these ignore paths; ok is
// false when body is not JSON.
func keyOf(t testing.TB, numbers bool, ignore []string, body string) (key []byte, errs int32, ok bool) {
	t.Helper()
	sets, err := compileIgnore(map[string][]string{"r": ignore})
	if err != nil {
		t.Fatalf("ignore %q: %v", ignore, err)
	}
	c := &canon{numbers: numbers}
	v, err := c.p.Parse(body)
	if err != nil {
		return nil, 0, false
	}
	errs = c.top(v, sets["r"])
	return bytes.Clone(c.buf), errs, true
}

// TestSameAnswer: which pairs of answers the comparison takes for the same, rule by rule.
func TestSameAnswer(t *testing.T) {
	tests := []struct {
		a, b    string
		numbers bool     // Options.NumbersByValue
		ignore  []string // the request's ignore paths
		same    bool
	}{
		// Key order is no difference.
		{`{"jsonrpc":"2.0","id":1,"result":{"a":1,"b":2}}`, `{"result":{"b":2,"a":1},"id":1,"jsonrpc":"2.0"}`, false, nil, true},
		// Nor is white space.
		{`{"jsonrpc":"2.0","id":1,"result":[1,2]}`, "{ \"jsonrpc\" : \"2.0\",\n\t\"id\":1, \"result\": [ 1 , 2 ] }", false, nil, true},
		// The JSON-RPC id is left out.
		{`{"jsonrpc":"2.0","id":1,"result":"0x1"}`, `{"jsonrpc":"2.0","id":"x-7","result":"0x1"}`, false, nil, true},
		// …also when the members come sorted (id < jsonrpc < result).
		{`{"id":1,"jsonrpc":"2.0","result":"0x1"}`, `{"id":2,"jsonrpc":"2.0","result":"0x1"}`, false, nil, true},
		// A JSON-RPC 1.0 answer (no "jsonrpc") is one too: its id is left out.
		{`{"id":1,"result":5,"error":null}`, `{"id":2,"result":5,"error":null}`, false, nil, true},
		// An id below the top is data.
		{`{"jsonrpc":"2.0","id":1,"result":{"id":1}}`, `{"jsonrpc":"2.0","id":1,"result":{"id":2}}`, false, nil, false},
		// A plain JSON API's "id" is data too.
		{`{"id":1,"name":"a"}`, `{"id":2,"name":"a"}`, false, nil, false},
		// The result differs.
		{`{"jsonrpc":"2.0","id":1,"result":"0x1"}`, `{"jsonrpc":"2.0","id":1,"result":"0x2"}`, false, nil, false},
		// A batch's items' ids are left out.
		{`[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":2}]`, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":2}]`, false, nil, true},
		// A batch answered in another order is the same batch (JSON-RPC allows any order).
		{`[{"jsonrpc":"2.0","id":1,"result":"a"},{"jsonrpc":"2.0","id":2,"result":"b"}]`, `[{"jsonrpc":"2.0","id":2,"result":"b"},{"jsonrpc":"2.0","id":1,"result":"a"}]`, false, nil, true},
		// …but the answers stay with their ids: swapped results differ.
		{`[{"jsonrpc":"2.0","id":1,"result":"a"},{"jsonrpc":"2.0","id":2,"result":"b"}]`, `[{"jsonrpc":"2.0","id":1,"result":"b"},{"jsonrpc":"2.0","id":2,"result":"a"}]`, false, nil, false},
		// A batch with an answer missing differs.
		{`[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":2}]`, `[{"jsonrpc":"2.0","id":1,"result":1}]`, false, nil, false},
		// A plain array keeps its order.
		{`[1,2]`, `[2,1]`, false, nil, false},
		// An ignored path is left out…
		{`{"jsonrpc":"2.0","id":1,"result":{"timestamp":"0x1","n":1}}`, `{"jsonrpc":"2.0","id":1,"result":{"timestamp":"0x2","n":1}}`, false, []string{"result.timestamp"}, true},
		// …also when one side lacks it.
		{`{"jsonrpc":"2.0","id":1,"result":{"timestamp":"0x1","n":1}}`, `{"jsonrpc":"2.0","id":1,"result":{"n":1}}`, false, []string{"result.timestamp"}, true},
		// …and only it: a sibling still counts.
		{`{"jsonrpc":"2.0","id":1,"result":{"timestamp":"0x1","n":1}}`, `{"jsonrpc":"2.0","id":1,"result":{"timestamp":"0x1","n":2}}`, false, []string{"result.timestamp"}, false},
		// A path names keys from the top: a member of that name deeper down still counts.
		{`{"result":{"a":{"timestamp":1}}}`, `{"result":{"a":{"timestamp":2}}}`, false, []string{"result.timestamp"}, false},
		// "*" takes every item of an array.
		{`{"result":{"txs":[{"hash":"0x1","v":1},{"hash":"0x2","v":2}]}}`, `{"result":{"txs":[{"hash":"0x9","v":1},{"hash":"0x8","v":2}]}}`, false, []string{"result.txs.*.hash"}, true},
		// "*" takes every key of an object too.
		{`{"result":{"a":{"t":1},"b":{"t":2}}}`, `{"result":{"a":{"t":3},"b":{"t":4}}}`, false, []string{"result.*.t"}, true},
		// An index takes one item only.
		{`{"result":[{"h":1},{"h":2}]}`, `{"result":[{"h":9},{"h":2}]}`, false, []string{"result.0.h"}, true},
		// …and not the others.
		{`{"result":[{"h":1},{"h":2}]}`, `{"result":[{"h":1},{"h":9}]}`, false, []string{"result.0.h"}, false},
		// An ignored item still counts for the array's length.
		{`{"result":[1,2]}`, `{"result":[9]}`, false, []string{"result.*"}, false},
		// In a batch, paths start at each item.
		{`[{"jsonrpc":"2.0","id":1,"result":{"t":1}},{"jsonrpc":"2.0","id":2,"result":{"t":2}}]`, `[{"jsonrpc":"2.0","id":1,"result":{"t":8}},{"jsonrpc":"2.0","id":2,"result":{"t":9}}]`, false, []string{"result.t"}, true},
		// Numbers by value: 1.0 is 1.
		{`{"result":1.0}`, `{"result":1}`, false, nil, true},
		// 1e2 is 100, and so is 1000e-1.
		{`{"result":[1e2,1000e-1]}`, `{"result":[100,100]}`, false, nil, true},
		// -0 is 0.
		{`{"result":-0.0}`, `{"result":0}`, false, nil, true},
		// 0.1 is 1e-1, and not 1.
		{`{"result":[0.1,1]}`, `{"result":[1e-1,1.0]}`, false, nil, true},
		// Integers past 2^64 compare exactly: 2^64+1 is not 2^64.
		{`{"result":18446744073709551617}`, `{"result":18446744073709551616}`, false, nil, false},
		// …and equal when equal.
		{`{"result":18446744073709551617}`, `{"result":1.8446744073709551617e19}`, false, nil, true},
		// Numbers near the limit of exactness: 2^256 and beyond, written two ways.
		{`{"result":115792089237316195423570985008687907853269984665640564039457584007913129639936}`, `{"result":1.15792089237316195423570985008687907853269984665640564039457584007913129639936e77}`, false, nil, true},
		// A huge exponent costs nothing and compares exactly.
		{`{"result":1e999999999}`, `{"result":10e999999998}`, false, nil, true},
		// Without NumbersByValue a hex string is a string.
		{`{"result":"0x1b4"}`, `{"result":436}`, false, nil, false},
		// With it, "0x1b4" is 436.
		{`{"result":"0x1b4"}`, `{"result":436}`, true, nil, true},
		// …on both sides: "0x01b4" is "0x1b4".
		{`{"result":"0x01b4"}`, `{"result":"0x1B4"}`, true, nil, true},
		// …without it, they differ.
		{`{"result":"0x01b4"}`, `{"result":"0x1b4"}`, false, nil, false},
		// "0x0" is 0, and so is "0x00".
		{`{"result":["0x0","0x00"]}`, `{"result":[0,0.0]}`, true, nil, true},
		// "0x" alone is no number.
		{`{"result":"0x"}`, `{"result":0}`, true, nil, false},
		// Hex with a non-hex digit is a string.
		{`{"result":"0x1g"}`, `{"result":"0x1G"}`, true, nil, false},
		// A 256-bit hex value is a number: leading zeros do not count.
		{`{"result":"0x00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}`, `{"result":"0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}`, true, nil, true},
		// A longer hex string (call data) is a string: written another way, it differs.
		{`{"result":"0x1ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}`, `{"result":"0x01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}`, true, nil, false},
		// Text fastjson takes for a number but JSON does not equals only itself: NaN is no 0.
		{`{"result":[NaN,+1]}`, `{"result":[NaN,+1]}`, false, nil, true},
		// …and "+1" is not 1.
		{`{"result":+1}`, `{"result":1}`, false, nil, false},
		// A string's escapes are no difference.
		{`{"result":"A\u00e9\n"}`, `{"result":"Aé\u000a"}`, false, nil, true},
		// null is not absent.
		{`{"result":{"a":null}}`, `{"result":{}}`, false, nil, false},
		// A string is not a number.
		{`{"result":"1"}`, `{"result":1}`, true, nil, false},
		// true is not false.
		{`{"result":true}`, `{"result":false}`, false, nil, false},
		// An empty object is not an empty array.
		{`{"result":{}}`, `{"result":[]}`, false, nil, false},
		// Keys and values cannot run into each other: {"ab":"c"} is not {"a":"bc"}.
		{`{"ab":"c"}`, `{"a":"bc"}`, false, nil, false},
	}
	for _, tt := range tests {
		ka, _, okA := keyOf(t, tt.numbers, tt.ignore, tt.a)
		kb, _, okB := keyOf(t, tt.numbers, tt.ignore, tt.b)
		if !okA || !okB {
			t.Errorf("%s vs %s: not parsed", tt.a, tt.b)
			continue
		}
		if same := bytes.Equal(ka, kb); same != tt.same {
			t.Errorf("%s vs %s (numbers %v, ignore %q): same %v, want %v", tt.a, tt.b, tt.numbers, tt.ignore, same, tt.same)
		}
	}
}

// TestErrorCount: an answer's JSON-RPC errors are counted, one per item of a batch, so that
// an error against a result is told from a mismatch.
func TestErrorCount(t *testing.T) {
	tests := []struct {
		body string
		errs int32
	}{
		// A result.
		{`{"jsonrpc":"2.0","id":1,"result":"0x1"}`, 0},
		// An error.
		{`{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"invalid params"}}`, 1},
		// "error": null is none (JSON-RPC 1.0 writes it beside a result).
		{`{"id":1,"result":1,"error":null}`, 0},
		// A batch with one error of two.
		{`[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"error":{"code":-32000}}]`, 1},
		// A plain JSON API's "error" member is data.
		{`{"error":"none","status":"ok"}`, 0},
	}
	for _, tt := range tests {
		if _, errs, _ := keyOf(t, false, nil, tt.body); errs != tt.errs {
			t.Errorf("%s: %d errors, want %d", tt.body, errs, tt.errs)
		}
	}
}
