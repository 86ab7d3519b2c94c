package mocknode

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Helpers for the fake chains' tests: one call answered at a given time, decoded.

// rpcAnswer is one decoded answer.
type rpcAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw string
}

// rpcAt answers method(params) at now and decodes it; params is the JSON text of the list.
func rpcAt(t testing.TB, n *Node, now time.Time, method, params string) rpcAnswer {
	t.Helper()
	s := new(scratch)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, params)
	n.answer(s, []byte(body), now)
	var a rpcAnswer
	if err := json.Unmarshal(s.out, &a); err != nil {
		t.Fatalf("%s %s: the answer is not JSON: %v\n%s", method, params, err, s.out)
	}
	a.raw = string(s.out)
	return a
}

// rpcResult is rpcAt's result, failing the test on an error answer.
func rpcResult(t testing.TB, n *Node, now time.Time, method, params string, out any) json.RawMessage {
	t.Helper()
	a := rpcAt(t, n, now, method, params)
	if a.Error != nil {
		t.Fatalf("%s %s: error %d %s", method, params, a.Error.Code, a.Error.Message)
	}
	if out != nil {
		if err := json.Unmarshal(a.Result, out); err != nil {
			t.Fatalf("%s %s: result %s: %v", method, params, a.Result, err)
		}
	}
	return a.Result
}

// errorCase is a call answered with an error: its code and a part of its message.
type errorCase struct {
	name, method, params string
	code                 int
	msg                  string
}

// checkErrors runs error cases against n at now.
func checkErrors(t *testing.T, n *Node, now time.Time, tests []errorCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := rpcAt(t, n, now, tt.method, tt.params)
			if a.Error == nil || a.Error.Code != tt.code || !strings.Contains(a.Error.Message, tt.msg) {
				t.Fatalf("got %s, want error %d with %q", a.raw, tt.code, tt.msg)
			}
		})
	}
}

// nullCase is a call answered with null: a lookup of what does not exist (yet).
func checkNulls(t *testing.T, n *Node, now time.Time, tests []errorCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if a := rpcAt(t, n, now, tt.method, tt.params); a.Error != nil || string(a.Result) != "null" {
				t.Fatalf("got %s, want result null", a.raw)
			}
		})
	}
}

// q quotes s for a params list.
func q(s string) string { return `"` + s + `"` }

func hexq(u uint64) string { return fmt.Sprintf(`"0x%x"`, u) }
