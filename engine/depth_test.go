package engine

import (
	"strings"
	"testing"
)

// Nothing in the engine walks a JSON value by recursion of its own: answers are parsed by
// fastjson, which stops at its MaxDepth, and snapshots by encoding/json, which stops at 10,000
// levels. These tests keep it so: a hostile answer or file nested a million levels deep is an
// outcome or an error, never a stack overflow.

// deepJSON is a million nested arrays holding inner.
func deepJSON(inner string) []byte {
	const million = 1_000_000
	return []byte(strings.Repeat("[", million) + inner + strings.Repeat("]", million))
}

func TestClassifyDeepAnswer(t *testing.T) {
	body := deepJSON(`{"error":{"code":-32000}}`) // "error" in it sends it to the parser
	for _, calls := range []*RPCCalls{
		nil, // a raw HTTP request
		ParseRPCCalls([]byte(`{"jsonrpc":"2.0","id":1,"method":"getSlot"}`)), // a JSON-RPC call
	} {
		// Whatever the outcome, it must return.
		NewClassifier(DefaultLimits()).Classify(&Sample{}, 200, body, calls, 0, &Batch{})
	}
}

func TestDecodeSnapshotDeep(t *testing.T) {
	tests := []struct {
		name string
		data []byte
	}{
		// A deep value where the schema is looked for.
		{"top", deepJSON("")},
		// A valid head and a deep field.
		{"field", append(append([]byte(`{"schema":"`+SnapshotSchema+`","totals":`), deepJSON("")...), '}')},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeSnapshot(tc.data)
			if err == nil || !strings.Contains(err.Error(), "not a snapshot") {
				t.Errorf("got %v, want: not a snapshot", err)
			}
		})
	}
}
