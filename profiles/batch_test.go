package profiles

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBatch: batch = N repeats the call with ids 1..N; a batch list sends its calls; Items is
// the number of calls; the name says the methods and the size.
func TestBatch(t *testing.T) {
	p := mustLoad(t, `url = "http://h"
[[request]]
method = "getSlot"
batch = 2
[[request]]
batch = [{method = "getSlot"}, {method = "getBalance", params = ["x"]}, {method = "getSlot"}]
[[request]]
method = "getBalance"
params = ["{{lineSeq \"accounts.txt\"}}", {n = "{{seq}}"}]
batch = 3
[[stage]]
rate = 1
`)
	reqs := p.Config.Requests
	want := []struct {
		name, body string
		items      int
	}{
		{"getSlot x2", `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getSlot"}]`, 2},
		{"getSlot+getBalance x3", `[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"method":"getBalance","params":["x"]},{"jsonrpc":"2.0","id":3,"method":"getSlot"}]`, 3},
		{"getBalance x3", "", 3},
	}
	for i, w := range want {
		r := reqs[i]
		if r.Name != w.name || r.Items != w.items || w.body != "" && (string(r.Body) != w.body || r.Template != nil) || p.info[i].RPCMethod != "batch" {
			t.Errorf("request %d: %q items %d body %s template %v info %+v", i+1, r.Name, r.Items, r.Body, r.Template, p.info[i])
		}
	}
	// Each call of a templated batch is rendered on its own: the sequences advance from one
	// call to the next, and on into the next batch.
	tmpl := reqs[2].Template
	rng := rand.New(rand.NewPCG(1, 1))
	accounts := []string{"4EVAJ81v9fLjz2wp44SZmxgTbvYB8dBRZ6s1SAqP99eZ", "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", "Sysvar1111111111111111111111111111111111111"}
	n := 0
	for range 2 {
		var calls []struct {
			ID     int    `json:"id"`
			Method string `json:"method"`
			Params []any  `json:"params"`
		}
		out := tmpl.Append(nil, rng)
		if err := json.Unmarshal(out, &calls); err != nil || len(calls) != 3 {
			t.Fatalf("%s: %v", out, err)
		}
		for k, c := range calls {
			if c.ID != k+1 || c.Method != "getBalance" || c.Params[0] != accounts[n%3] || c.Params[1].(map[string]any)["n"] != float64(n+1) {
				t.Errorf("call %d of %s", k+1, out)
			}
			n++
		}
	}
}

// TestBatchErrors: every wrong batch says what to write instead.
func TestBatchErrors(t *testing.T) {
	tests := []struct {
		name, req, want string
	}{
		{"zero", "method = \"m\"\nbatch = 0", "t.toml:4: request[1].batch: 0 is out of range: use a value from 1 to 10000"},
		{"too many", "method = \"m\"\nbatch = 10001", "request[1].batch: 10001 is out of range"},
		{"wrong type", "method = \"m\"\nbatch = \"3\"", "request[1].batch: must be a number of calls or a list of calls"},
		{"empty list", "batch = []", "request[1].batch: is empty: list at least one call"},
		{"list and method", "method = \"m\"\nbatch = [{method = \"a\"}]", "request[1].batch: lists the calls of a batch, and method is set too"},
		{"N with body", "body = '{}'\nbatch = 2", "request[1].batch: batch = 2 repeats a JSON-RPC method call"},
		{"no method", "batch = [{params = [1]}]", "request[1].batch[1]: has no method"},
		{"empty method", "batch = [{method = \" \"}]", "request[1].batch[1].method: is empty"},
		{"unknown key", "batch = [{method = \"a\", parms = [1]}]", `request[1].batch[1].parms: unknown key: did you mean "params"?`},
		{"params beside list", "batch = [{method = \"a\"}]\nparams = [1]", "request[1].params: params go into each call of the batch list"},
		{"bad template", "batch = [{method = \"a\", params = [\"{{seq x}}\"]}]", `request[1].batch[1].params[1]: "{{seq x}}"`},
		{"too large", "method = \"m\"\nparams = [\"{{payload 10000}}\"]\nbatch = 10000", "request[1].method: the body would be about 95 MiB, over the maximum of 64 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := loadErr(t, "url = \"http://h\"\n[[request]]\n"+tt.req+"\n[[stage]]\nrate = 1\n", nil)
			if !strings.Contains(e.Error(), tt.want) {
				t.Errorf("got:\n%v\nwant a problem containing:\n%s", e, tt.want)
			}
		})
	}
}
