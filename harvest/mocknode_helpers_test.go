package harvest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// Helpers of the tests that harvest the mock node's fake chains: the node, and a plain
// JSON-RPC client that asks it what the chain holds, independently of harvest's own client.

// startMockNode serves a mock node on a free loopback port for the test.
func startMockNode(t *testing.T, cfg mocknode.Config) (*mocknode.Node, string) {
	t.Helper()
	n, addr, err := mocknode.Start(context.Background(), "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := n.Close(); err != nil {
			t.Error(err)
		}
	})
	return n, "http://" + addr
}

// ask makes one JSON-RPC call and decodes its result into out; an error answer fails the test.
func ask(t *testing.T, url, method string, out any, params ...any) {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	var a struct {
		Result json.RawMessage
		Error  *RPCError
	}
	if err := json.NewDecoder(resp.Body).Decode(&a); err != nil || a.Error != nil {
		t.Fatalf("%s %v: %v %v", method, params, err, a.Error)
	}
	if err := json.Unmarshal(a.Result, out); err != nil {
		t.Fatalf("%s %v: result %s: %v", method, params, a.Result, err)
	}
}

// sameSet fails the test unless file holds exactly the values of want (in any order, once
// each).
func sameSet(t *testing.T, dir, file string, want map[string]bool) {
	t.Helper()
	got := lines(t, dir, file)
	seen := map[string]bool{}
	for _, v := range got {
		if !want[v] || seen[v] {
			t.Errorf("%s: %q is not in the chain's range, or twice", file, v)
		}
		seen[v] = true
	}
	if len(seen) != len(want) {
		missing := []string{}
		for v := range want {
			if !seen[v] {
				missing = append(missing, v)
			}
		}
		slices.Sort(missing)
		t.Errorf("%s: %d values, the chain's range has %d; missing %q…", file, len(seen), len(want), missing[:min(len(missing), 5)])
	}
	if len(want) == 0 {
		t.Errorf("%s: the range holds none: the test proves nothing", file)
	}
}
