package engine

import (
	"testing"
)

// mustRule makes a rule for a test.
func mustRule(t testing.TB, kind ExpectKind, path string, want any) *ExpectRule {
	t.Helper()
	r, err := NewExpectRule(kind, path, want)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestClassifyExpect: a result that breaks its call's rule makes the call invalid, a failed
// call counted under the rule, and the request failed (and invalid) unless limited wins; the
// calls' cost counts as accepted only for those answered ok.
func TestClassifyExpect(t *testing.T) {
	present := mustRule(t, ExpectPresent, "result", nil)
	nonempty := mustRule(t, ExpectNonEmpty, "result", nil)
	hex := mustRule(t, ExpectMatches, "result", "^0x")
	all := func(cost uint32, rules ...*ExpectRule) []CallSpec {
		return []CallSpec{{Expect: &Expect{Rules: rules}, Cost: cost}}
	}
	type rules = map[*ExpectRule]uint32
	tests := []struct {
		name    string
		req     string
		specs   []CallSpec
		status  int
		answer  string
		outcome Outcome
		ok      int // calls ok
		invalid int // calls invalid
		broken  rules
		costOK  uint32
	}{
		// A result passes "present": ok, its cost accepted.
		{"present ok", callOne, all(5, present), 200, `{"jsonrpc":"2.0","id":1,"result":"0x1"}`, OutcomeOK, 1, 0, nil, 5},
		// A null result breaks it: the call is invalid, the request failed, nothing accepted.
		{"null result", callOne, all(5, present), 200, `{"jsonrpc":"2.0","id":1,"result":null}`, OutcomeFailed, 0, 1, rules{present: 1}, 0},
		// [] breaks nonempty.
		{"empty array", callOne, all(5, nonempty), 200, `{"jsonrpc":"2.0","id":1,"result":[]}`, OutcomeFailed, 0, 1, rules{nonempty: 1}, 0},
		// The first rule broken is the one counted.
		{"first broken", callOne, all(1, hex, nonempty), 200, `{"jsonrpc":"2.0","id":1,"result":""}`, OutcomeFailed, 0, 1, rules{hex: 1}, 0},
		// A later rule can break too.
		{"second broken", callOne, all(1, present, hex), 200, `{"jsonrpc":"2.0","id":1,"result":"abc"}`, OutcomeFailed, 0, 1, rules{hex: 1}, 0},
		// An error answer is an RPC error, never invalid: the rule checks results.
		{"error not invalid", callOne, all(5, present), 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"x"}}`, OutcomeFailed, 0, 0, nil, 0},
		// A result with a foreign id is a fault, not checked against the rule.
		{"foreign id not checked", callOne, all(5, present), 200, `{"jsonrpc":"2.0","id":9,"result":null}`, OutcomeFailed, 0, 0, nil, 0},
		// A non-2xx status fails every call, with no rule checked.
		{"500", callOne, all(5, present), 500, `{"jsonrpc":"2.0","id":1,"result":null}`, OutcomeFailed, 0, 0, nil, 0},
		// A batch: one null result among three, one record, two calls' cost accepted.
		{"batch one null", callThree, all(2, present), 200, `[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","id":2,"result":null},{"jsonrpc":"2.0","id":3,"result":1}]`, OutcomeFailed, 2, 1, rules{present: 1}, 4},
		// A batch: all null, one record for three calls.
		{"batch all null", callThree, all(2, present), 200, `[{"jsonrpc":"2.0","id":1,"result":null},{"jsonrpc":"2.0","id":2,"result":null},{"jsonrpc":"2.0","id":3,"result":null}]`, OutcomeFailed, 0, 3, rules{present: 3}, 0},
		// Per-call specs: each call has its own rule and cost, matched by id whatever the order.
		{"batch per call", callThree, []CallSpec{{Cost: 1}, {Expect: &Expect{Rules: []*ExpectRule{nonempty}}, Cost: 10}, {Expect: &Expect{Rules: []*ExpectRule{hex}}, Cost: 100}}, 200,
			`[{"jsonrpc":"2.0","id":3,"result":"0x5"},{"jsonrpc":"2.0","id":2,"result":[]},{"jsonrpc":"2.0","id":1,"result":null}]`, OutcomeFailed, 2, 1, rules{nonempty: 1}, 101},
		// A rate-limited call wins for the request: limited, with an invalid call beside it.
		{"batch limited wins", callThree, all(2, present), 200, `[{"jsonrpc":"2.0","id":1,"result":null},{"jsonrpc":"2.0","id":2,"error":{"code":-32005}},{"jsonrpc":"2.0","id":3,"result":1}]`, OutcomeLimited, 1, 1, rules{present: 1}, 2},
		// Without specs nothing is checked and nothing costs.
		{"no specs", callOne, nil, 200, `{"jsonrpc":"2.0","id":1,"result":null}`, OutcomeOK, 1, 0, nil, 0},
		// A notification's cost is accepted with the 2xx it gets.
		{"notification cost", callMixed, all(3), 200, `[{"jsonrpc":"2.0","id":1,"result":1}]`, OutcomeOK, 2, 0, nil, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := ParseRPCCalls([]byte(tt.req))
			if err := calls.SetSpecs(tt.specs); err != nil {
				t.Fatal(err)
			}
			c := NewClassifier(DefaultLimits())
			s := Sample{CallsInvalid: 99, CostOK: 99}
			b := &Batch{}
			c.Classify(&s, tt.status, []byte(tt.answer), calls, 7, b)
			if s.Outcome != tt.outcome || int(s.CallsOK) != tt.ok || int(s.CallsInvalid) != tt.invalid {
				t.Errorf("outcome %v, calls ok %d invalid %d; want %v, %d, %d", s.Outcome, s.CallsOK, s.CallsInvalid, tt.outcome, tt.ok, tt.invalid)
			}
			if want := tt.invalid > 0 && tt.outcome == OutcomeFailed; s.Invalid() != want {
				t.Errorf("Invalid() %v, want %v", s.Invalid(), want)
			}
			if s.CostOK != tt.costOK {
				t.Errorf("cost ok %d, want %d", s.CostOK, tt.costOK)
			}
			got := rules{}
			for _, r := range b.Invalid {
				if r.Sample != 7 {
					t.Errorf("record of sample %d, want 7", r.Sample)
				}
				got[r.Rule] += r.N
			}
			if len(got) != len(tt.broken) {
				t.Errorf("rules broken %v, want %v", got, tt.broken)
			}
			for r, n := range tt.broken {
				if got[r] != n {
					t.Errorf("rule %s broken %d times, want %d", r.Label, got[r], n)
				}
			}
		})
	}
}

// TestSetSpecs: one spec for every call, or one per call that expects an answer.
func TestSetSpecs(t *testing.T) {
	calls := ParseRPCCalls([]byte(callThree))
	for _, n := range []int{0, 1, 3} {
		if err := calls.SetSpecs(make([]CallSpec, n)); err != nil {
			t.Errorf("%d specs: %v", n, err)
		}
	}
	if err := calls.SetSpecs(make([]CallSpec, 2)); err == nil {
		t.Error("2 specs for 3 calls accepted")
	}
}
