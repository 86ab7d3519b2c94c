package engine

import (
	"context"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/nodetest"
)

// TestSendExpect: through a real send to the mock node, a block beyond the head (which the
// node answers with a null result, as geth does) breaks "result present" and is invalid, not
// ok; the head's block passes; in a batch only the null call is invalid; and the cost of the
// calls answered ok is accepted.
func TestSendExpect(t *testing.T) {
	const (
		head   = `{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}`
		beyond = `{"jsonrpc":"2.0","id":2,"method":"eth_getBlockByNumber","params":["0xffffffffff",false]}`
	)
	present := mustRule(t, ExpectPresent, "result", nil)
	number := mustRule(t, ExpectMatches, "result.number", "^0x[0-9a-f]+$")
	noUncles := mustRule(t, ExpectNonEmpty, "result.uncles", nil)
	spec := func(cost uint32, rules ...*ExpectRule) CallSpec {
		return CallSpec{Expect: &Expect{Rules: rules}, Cost: cost}
	}
	tests := []struct {
		name     string
		body     string
		template bool // sent through a Template, its calls read per send
		specs    []CallSpec
		outcome  Outcome
		ok       uint16
		invalid  uint16
		rule     *ExpectRule // the rule broken, if any
		costOK   uint32
	}{
		// The head's block is there and numbered in hex.
		{"head", head, false, []CallSpec{spec(16, present, number)}, OutcomeOK, 1, 0, nil, 16},
		// A block beyond the head: null, fast, and invalid.
		{"beyond head", beyond, false, []CallSpec{spec(16, present)}, OutcomeFailed, 0, 1, present, 0},
		// The same through a template: the rules go with the calls read from each rendering.
		{"beyond head templated", beyond, true, []CallSpec{spec(16, present)}, OutcomeFailed, 0, 1, present, 0},
		// The mock node's blocks have no uncles (none has since the merge): nonempty catches [].
		{"empty uncles", head, false, []CallSpec{spec(16, present, noUncles)}, OutcomeFailed, 0, 1, noUncles, 0},
		// A batch of both, each call its own rules and cost: one ok, one invalid.
		{"batch", "[" + head + "," + beyond + "]", false, []CallSpec{spec(16, present), spec(20, present)}, OutcomeFailed, 1, 1, present, 16},
	}
	_, url := nodetest.Start(t, mocknode.Config{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := ParseRPCCalls([]byte(tt.body))
			if err := calls.SetSpecs(tt.specs); err != nil {
				t.Fatal(err)
			}
			req := Request{Name: "r", Body: []byte(tt.body), RPC: calls, Weight: 1, Items: calls.Calls()}
			if tt.template {
				req.Template, calls.PerSend = fixedTemplate(tt.body), true
			}
			cfg := clientConfig(url)
			cfg.Requests = []Request{req}
			smp, b := sendOne(context.Background(), dialClient(t, cfg, NewCounters(1), nil).NewSender(), 0)
			if smp.Err != ErrNone || smp.Status != 200 {
				t.Fatalf("err %v status %d: want a 200", smp.Err, smp.Status)
			}
			if smp.Outcome != tt.outcome || smp.CallsOK != tt.ok || smp.CallsInvalid != tt.invalid || smp.CostOK != tt.costOK {
				t.Errorf("outcome %v ok %d invalid %d cost ok %d; want %v %d %d %d", smp.Outcome, smp.CallsOK, smp.CallsInvalid, smp.CostOK, tt.outcome, tt.ok, tt.invalid, tt.costOK)
			}
			switch {
			case tt.rule == nil && len(b.Invalid) > 0:
				t.Errorf("invalid records %+v, want none", b.Invalid)
			case tt.rule != nil && (len(b.Invalid) != 1 || b.Invalid[0].Rule != tt.rule || b.Invalid[0].N != uint32(tt.invalid)):
				t.Errorf("invalid records %+v, want %d under %s", b.Invalid, tt.invalid, tt.rule.Label)
			}
		})
	}
}
