package engine

import (
	"testing"
)

// Requests the answers of TestClassifyCalls reply to.
const (
	callOne   = `{"jsonrpc":"2.0","id":1,"method":"m"}`
	callStr   = `{"jsonrpc":"2.0","id":"a-7","method":"m"}`
	callThree = `[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m"},{"jsonrpc":"2.0","id":3,"method":"m"}]`
	callNote  = `{"jsonrpc":"2.0","method":"note"}`
	callMixed = `[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","method":"note"}]`
)

// faultCounts is a sample's faults by kind, from its batch's records.
func faultCounts(b *Batch) map[Fault]uint32 {
	m := map[Fault]uint32{}
	for _, f := range b.Faults {
		m[f.Fault] += f.N
	}
	return m
}

// TestClassifyCalls: a 2xx answer to JSON-RPC calls is matched to them by id; each call is
// ok, limited or failed on its own, and every way of breaking JSON-RPC is a fault of its kind.
func TestClassifyCalls(t *testing.T) {
	type faults = map[Fault]uint32
	tests := []struct {
		name             string
		req              string
		status           int
		answer           string
		outcome          Outcome
		callsOK, limited int
		faults           faults
		codes            int // JSON-RPC error records
	}{
		// The plain success: the call's id and a result.
		{"ok", callOne, 200, `{"jsonrpc":"2.0","id":1,"result":{"value":42}}`, OutcomeOK, 1, 0, nil, 0},
		// A null result is a result (eth_getTransactionReceipt of an unknown hash).
		{"null result", callOne, 200, `{"jsonrpc":"2.0","id":1,"result":null}`, OutcomeOK, 1, 0, nil, 0},
		// An id written 1.0 is the number 1.
		{"id 1.0", callOne, 200, `{"jsonrpc":"2.0","id":1.0,"result":1}`, OutcomeOK, 1, 0, nil, 0},
		// A string id matches its string, escapes read.
		{"string id", callStr, 200, `{"jsonrpc":"2.0","id":"a\u002d7","result":1}`, OutcomeOK, 1, 0, nil, 0},
		// An error fails the call, counted under its code.
		{"rpc error", callOne, 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`, OutcomeFailed, 0, 0, nil, 1},
		// A rate-limit code makes the call and the request limited.
		{"rpc limited", callOne, 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"slow"}}`, OutcomeLimited, 0, 1, nil, 1},
		// An error with a null id still answers the call: the server could not read its id.
		{"error null id", callOne, 200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}`, OutcomeFailed, 0, 0, nil, 1},
		// Another request's id: foreign id.
		{"foreign id", callOne, 200, `{"jsonrpc":"2.0","id":424242,"result":1}`, OutcomeFailed, 0, 0, faults{FaultForeignID: 1}, 0},
		// The string "1" is not the number 1.
		{"string for number", callOne, 200, `{"jsonrpc":"2.0","id":"1","result":1}`, OutcomeFailed, 0, 0, faults{FaultForeignID: 1}, 0},
		// A result without an id says nothing about which call it answers.
		{"no id", callOne, 200, `{"jsonrpc":"2.0","result":1}`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 1}, 0},
		// Valid JSON that is not JSON-RPC.
		{"foo", callOne, 200, `{"foo":1}`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 1}, 0},
		// No "jsonrpc" member (a JSON-RPC 1.0 answer to a 2.0 call).
		{"no jsonrpc", callOne, 200, `{"id":1,"result":1}`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 1}, 0},
		// Neither result nor error.
		{"neither", callOne, 200, `{"jsonrpc":"2.0","id":1}`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 1}, 0},
		// An error without a numeric code.
		{"error string", callOne, 200, `{"jsonrpc":"2.0","id":1,"error":"boom"}`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 1}, 0},
		// Not JSON at all.
		{"not json", callOne, 200, `<html>ok</html>`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 1}, 0},
		// JSON cut short.
		{"truncated", callOne, 200, `{"jsonrpc":"2.0","id":1,"res`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 1}, 0},
		// An empty 200: the call got no answer.
		{"empty", callOne, 200, ` `, OutcomeFailed, 0, 0, faults{FaultMissing: 1}, 0},
		// A single call answered with an array.
		{"array for single", callOne, 200, `[{"jsonrpc":"2.0","id":1,"result":1}]`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 1}, 0},
		// A batch answered in another order is fine.
		{"batch ok", callThree, 200, `[{"jsonrpc":"2.0","id":3,"result":1},{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":1}]`, OutcomeOK, 3, 0, nil, 0},
		// One item dropped: that call is missing; the other two are ok.
		{"batch drop", callThree, 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":1}]`, OutcomeFailed, 2, 0, faults{FaultMissing: 1}, 0},
		// An item without its id matches no call, which is then missing.
		{"batch no id", callThree, 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":1},{"jsonrpc":"2.0","result":1}]`, OutcomeFailed, 2, 0, faults{FaultUnknownID: 1, FaultMissing: 1}, 0},
		// An extra item with an id no call has.
		{"batch unknown", callThree, 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":1},{"jsonrpc":"2.0","id":3,"result":1},{"jsonrpc":"2.0","id":999999,"result":1}]`, OutcomeFailed, 3, 0, faults{FaultUnknownID: 1}, 0},
		// A call answered twice.
		{"batch extra", callThree, 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":1},{"jsonrpc":"2.0","id":3,"result":1},{"jsonrpc":"2.0","id":3,"result":1}]`, OutcomeFailed, 3, 0, faults{FaultExtra: 1}, 0},
		// Every id shifted: nothing matches.
		{"batch wrong ids", callThree, 200, `[{"jsonrpc":"2.0","id":1001,"result":1},{"jsonrpc":"2.0","id":1002,"result":1},{"jsonrpc":"2.0","id":1003,"result":1}]`, OutcomeFailed, 0, 0, faults{FaultUnknownID: 3, FaultMissing: 3}, 0},
		// One good, one failing, one good: the request fails, two calls are ok, one failed by code.
		{"batch mixed", callThree, 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"x"}},{"jsonrpc":"2.0","id":3,"result":1}]`, OutcomeFailed, 2, 0, nil, 1},
		// A rate-limited item: limited wins for the request; the call is limited.
		{"batch limited item", callThree, 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"error":{"code":-32005}},{"jsonrpc":"2.0","id":3,"result":1}]`, OutcomeLimited, 2, 1, nil, 1},
		// One error object for the whole batch (rate-limited): every call is limited.
		{"batch limited whole", callThree, 200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32005,"message":"slow"}}`, OutcomeLimited, 0, 3, nil, 1},
		// One error object for the whole batch (too large): every call failed, one code.
		{"batch error whole", callThree, 200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}`, OutcomeFailed, 0, 0, nil, 1},
		// An object with a result is no answer to a batch.
		{"batch object result", callThree, 200, `{"jsonrpc":"2.0","id":1,"result":1}`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 3}, 0},
		// An item that is not an object is no answer; its call is missing.
		{"batch scalar item", callThree, 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":1},7]`, OutcomeFailed, 2, 0, faults{FaultNotJSONRPC: 1, FaultMissing: 1}, 0},
		// An empty array answers nothing.
		{"batch empty", callThree, 200, `[]`, OutcomeFailed, 0, 0, faults{FaultMissing: 3}, 0},
		// A matched item that is not JSON-RPC fails its call.
		{"batch bad item", callThree, 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2},{"jsonrpc":"2.0","id":3,"result":1}]`, OutcomeFailed, 2, 0, faults{FaultNotJSONRPC: 1}, 0},
		// Valid JSON that is not JSON-RPC answers no call of a batch.
		{"batch foo", callThree, 200, `{"foo":1}`, OutcomeFailed, 0, 0, faults{FaultNotJSONRPC: 3}, 0},
		// A notification expects no answer: an empty 204 is ok.
		{"notification", callNote, 204, ``, OutcomeOK, 1, 0, nil, 0},
		// A batch with a notification: one answer is all it needs.
		{"batch with notification", callMixed, 200, `[{"jsonrpc":"2.0","id":1,"result":1}]`, OutcomeOK, 2, 0, nil, 0},
		// A non-2xx status fails every call, without faults: the status says why.
		{"500", callThree, 500, `oops`, OutcomeFailed, 0, 0, nil, 0},
		// A 429 limits every call; the body is not read.
		{"429", callThree, 429, `{"foo":1}`, OutcomeLimited, 0, 3, nil, 0},
		// A 503 carrying a rate-limit code limits every call.
		{"503 limit code", callOne, 503, `{"jsonrpc":"2.0","id":1,"error":{"code":-32005}}`, OutcomeLimited, 0, 1, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := ParseRPCCalls([]byte(tt.req))
			if calls == nil {
				t.Fatalf("request %s is not JSON-RPC", tt.req)
			}
			c := NewClassifier(DefaultLimits())
			s := Sample{Calls: 99, CallsOK: 99, CallsLimited: 99}
			b := &Batch{}
			c.Classify(&s, tt.status, []byte(tt.answer), calls, 4, b)
			if s.Outcome != tt.outcome {
				t.Errorf("outcome %v, want %v", s.Outcome, tt.outcome)
			}
			if int(s.Calls) != calls.Calls() || int(s.CallsOK) != tt.callsOK || int(s.CallsLimited) != tt.limited {
				t.Errorf("calls %d ok %d limited %d, want %d ok %d limited %d", s.Calls, s.CallsOK, s.CallsLimited, calls.Calls(), tt.callsOK, tt.limited)
			}
			if got := faultCounts(b); !sameFaults(got, tt.faults) {
				t.Errorf("faults %v, want %v", got, tt.faults)
			}
			for _, f := range b.Faults {
				if f.Sample != 4 || f.N == 0 {
					t.Errorf("fault record %+v: want sample 4 and a count", f)
				}
			}
			if len(b.RPCErrors) != tt.codes || int(s.RPCErrN) != tt.codes {
				t.Errorf("%d error records (RPCErrN %d), want %d", len(b.RPCErrors), s.RPCErrN, tt.codes)
			}
		})
	}
}

func sameFaults(got, want map[Fault]uint32) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// TestParseRPCCalls: which bodies are JSON-RPC calls, how many, and which expect an answer.
func TestParseRPCCalls(t *testing.T) {
	// found is what a body holds: its calls, those that expect an answer, a batch or not.
	type found struct {
		calls, answers int
		batch          bool
	}
	tests := []struct {
		name string
		body string
		want *found // nil: not JSON-RPC
	}{
		// One call.
		{"call", callOne, &found{1, 1, false}},
		// A notification: a call without an id.
		{"notification", callNote, &found{1, 0, false}},
		// A batch of three.
		{"batch", callThree, &found{3, 3, true}},
		// A batch with a notification.
		{"mixed", callMixed, &found{2, 1, true}},
		// A body without "jsonrpc" is a raw API's.
		{"no jsonrpc", `{"id":1,"method":"m"}`, nil},
		// A method must be a string.
		{"method number", `{"jsonrpc":"2.0","id":1,"method":7}`, nil},
		// A batch with one element that is no call is not JSON-RPC as a whole.
		{"batch with junk", `[` + callOne + `,{"a":1}]`, nil},
		// An empty array.
		{"empty batch", `[]`, nil},
		// Not JSON.
		{"text", `hello`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ParseRPCCalls([]byte(tt.body))
			switch {
			case (c != nil) != (tt.want != nil):
				t.Fatalf("JSON-RPC %v, want %v", c != nil, tt.want != nil)
			case c == nil && c.Calls() != 0:
				t.Errorf("%d calls in what is not JSON-RPC", c.Calls())
			case c != nil:
				if got := (found{c.Calls(), c.answers(), c.Batch}); got != *tt.want {
					t.Errorf("got %+v, want %+v", got, *tt.want)
				}
			}
		})
	}
}
