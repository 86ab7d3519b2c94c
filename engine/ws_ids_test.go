package engine

import "testing"

// TestAsWritten: a batch answer to calls sent with the connection's ids gets back the ids the
// body wrote, item by item wherever the node put it; anything else is left as it came.
func TestAsWritten(t *testing.T) {
	const batch = `[{"jsonrpc":"2.0","id":2,"method":"a"},{"jsonrpc":"2.0","id":"x","method":"b"},{"jsonrpc":"2.0","method":"note"}]`
	tests := []struct {
		name, body, answer, want string
	}{
		// Items in the calls' order: 7 was id 2, 8 was "x".
		{"in order", batch, `[{"id":7,"result":1},{"id":8,"result":2}]`, `[{"id":2,"result":1},{"id":"x","result":2}]`},
		// Out of order, spaced: each item by its own id.
		{"reordered", batch, `[ {"result":2, "id": 8} , {"id":7,"result":1} ]`, `[ {"result":2, "id": "x"} , {"id":2,"result":1} ]`},
		// An item of no call of ours (a foreign id, a null id) stays as it came.
		{"foreign", batch, `[{"id":70,"result":1},{"id":null,"error":{}},{"id":8,"result":2}]`, `[{"id":70,"result":1},{"id":null,"error":{}},{"id":"x","result":2}]`},
		// A single call's answer: its id is no part of the comparison.
		{"single", `{"jsonrpc":"2.0","id":5,"method":"a"}`, `{"id":7,"result":1}`, `{"id":7,"result":1}`},
		// A batch answered with one error object, or not JSON: as it came.
		{"batch error", batch, `{"id":null,"error":{"code":-32600}}`, `{"id":null,"error":{"code":-32600}}`},
		{"not json", batch, `<html>`, `<html>`},
	}
	for _, tt := range tests {
		var sp idSplice
		if !sp.cut([]byte(tt.body)) {
			t.Fatalf("%s: the body did not cut", tt.name)
		}
		if got := string(sp.asWritten(nil, []byte(tt.answer), 7)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestAsWrittenAllocates: giving a batch answer its ids back allocates nothing once the
// exchange's buffer has grown.
func TestAsWrittenAllocates(t *testing.T) {
	e := wsExchangeFor(t, wsBenchBatch)
	e.load(0, nil)
	answer := []byte(`[{"jsonrpc":"2.0","id":3,"result":1},{"jsonrpc":"2.0","id":1,"result":2},{"jsonrpc":"2.0","id":2,"result":"0x1"}]`)
	e.base = 1
	e.asWritten(answer)
	if n := testing.AllocsPerRun(200, func() { e.asWritten(answer) }); n != 0 {
		t.Errorf("%.1f allocations per answer", n)
	}
}
