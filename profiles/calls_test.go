package profiles

import (
	"testing"
)

// TestRequestCalls: every JSON-RPC request of the mix carries its calls, so answers are matched
// to them by id; requests that are not JSON-RPC carry none; a raw body with templates, or
// target bodies that differ, read their ids per send.
func TestRequestCalls(t *testing.T) {
	p := mustLoad(t, `url = "http://h"
[[request]]
method = "getBalance"
params = ["{{randHex 8}}"]
[[request]]
method = "getSlot"
batch = 3
[[request]]
batch = [{method = "getSlot"}, {method = "getBalance"}]
[[request]]
body = '{"jsonrpc":"2.0","id":{{seq}},"method":"getSlot"}'
[[request]]
body = '[{"jsonrpc":"2.0","id":"a","method":"a"},{"jsonrpc":"2.0","method":"notify"}]'
[[request]]
name = "heavy"
body_file = "heavy.json"
[[request]]
body = '{"query":"{ slot }"}'
[[stage]]
rate = 1
`)
	want := []struct {
		rpc     bool
		calls   int
		batch   bool
		perSend bool
	}{
		{true, 1, false, false},  // method, templated params: the id is literal
		{true, 3, true, false},   // batch = 3: ids 1..3
		{true, 2, true, false},   // a batch list
		{true, 1, false, true},   // a raw body with a templated id: read per send
		{true, 2, true, false},   // a raw batch with a notification, fixed
		{true, 1, false, false},  // a body file holding one call
		{false, 0, false, false}, // GraphQL is not JSON-RPC: judged by status
	}
	reqs := p.Config.Requests
	if len(reqs) != len(want) {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, w := range want {
		c := reqs[i].RPC
		if (c != nil) != w.rpc || c.Calls() != w.calls || (c != nil && (c.Batch != w.batch || c.PerSend != w.perSend)) {
			t.Errorf("request %d (%s): calls %+v, want JSON-RPC %v, %d calls, batch %v, per send %v", i+1, reqs[i].Name, c, w.rpc, w.calls, w.batch, w.perSend)
		}
	}

	p = mustLoad(t, "url = \"http://127.0.0.1:8899/\"\ntargets = \"targets/rpc.jsonl\"\n[[stage]]\nrate = 1\n")
	for _, r := range p.Config.Requests {
		switch r.Name {
		case "getBalance": // two bodies with different params
			if r.RPC == nil || r.RPC.Calls() != 1 || !r.RPC.PerSend {
				t.Errorf("%s: calls %+v, want one per send", r.Name, r.RPC)
			}
		case "getSlot":
			if r.RPC == nil || r.RPC.Calls() != 1 || r.RPC.PerSend {
				t.Errorf("%s: calls %+v, want one fixed", r.Name, r.RPC)
			}
		case "GET /health":
			if r.RPC != nil {
				t.Errorf("%s: a body-less GET has calls %+v", r.Name, r.RPC)
			}
		default:
			t.Errorf("unexpected request %q", r.Name)
		}
	}
}
