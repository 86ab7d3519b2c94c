package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/internal/gethtest"
)

// TestE2EWebSocketGeth: calls over WebSocket to a real go-ethereum (geth --dev --ws) are all
// answered and matched, single calls and batches, on 4 connections, and geth counted exactly
// the calls rpcstress says it sent (its rpc_requests counter, read before and after); then a
// stepped run with many calls in flight per connection (gethStepped).
func TestE2EWebSocketGeth(t *testing.T) {
	t.Parallel() // its own geth; it counts, it asserts no rate
	node := gethtest.StartWith(t, gethtest.Options{WS: true, Metrics: true})
	before := gethCounter(t, node.MetricsURL, "rpc_requests")
	p := writeFile(t, t.TempDir(), "ws.toml", fmt.Sprintf(`url = %q
name = "geth-ws"
connections = 4
[[stage]]
duration = "2s"
rate = "200/s"
[[request]]
name = "pair"
body = '[{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"net_version"}]'
[[request]]
method = "eth_blockNumber"
`, node.WSURL))
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	tot := r.snap.Totals
	calls := tot.Calls.Sent
	if tot.Completed != 400 || tot.OK != 400 || tot.Calls.OK != calls || len(tot.Errors) != 0 {
		t.Errorf("completed %d ok %d, calls %d of %d ok, errors %v", tot.Completed, tot.OK, tot.Calls.OK, calls, tot.Errors)
	}
	after := gethCounter(t, node.MetricsURL, "rpc_requests")
	t.Logf("%d requests, %d calls over WebSocket; geth counted %d calls", tot.Completed, calls, after-before)
	if after-before != calls {
		t.Errorf("geth counted %d calls, rpcstress sent %d", after-before, calls)
	}
	if tot.Connections.Dialed != 4 || tot.Connections.Redialed != 0 {
		t.Errorf("connections %+v, want 4 dialed once each", tot.Connections)
	}
	gethStepped(t, node)

	// geth's HTTP port does not upgrade (it answers the handshake with 200 and no WebSocket):
	// every call fails as malformed, none passes for an answer, and the run ends as any run
	// with failures does.
	httpPort := "ws" + strings.TrimPrefix(node.URL, "http")
	p = writeFile(t, t.TempDir(), "refused.toml", fmt.Sprintf("name = \"refused\"\nurl = %q\nconnections = 2\n[[request]]\nmethod = \"eth_blockNumber\"\n[[stage]]\nrate = \"50/s\"\nduration = \"1s\"\n", httpPort))
	r = runCLI(t, nil, p)
	tot = r.snap.Totals
	t.Logf("against geth's HTTP port: status %v, errors %v, %d re-dials", tot.Status, tot.Errors, tot.Connections.Redialed)
	if tot.Completed != 50 || tot.Failed != 50 || tot.Errors["malformed"] != 50 || len(tot.Status) != 0 {
		t.Errorf("refused upgrades: completed %d failed %d status %v errors %v", tot.Completed, tot.Failed, tot.Status, tot.Errors)
	}
}

// gethCounter reads one counter (a series without labels) of geth's Prometheus metrics, with
// the tests' one reader of an exposition (scrape).
func gethCounter(t *testing.T, url, name string) int64 {
	t.Helper()
	s, err := scrape(url)
	if err != nil {
		t.Fatalf("geth's metrics: %v", err)
	}
	v, ok := s[name+"{}"]
	if !ok {
		t.Fatalf("geth's metrics have no %s", name)
	}
	return int64(v)
}

// gethStepped: a stepped run over WebSocket to geth, 100/s then 300/s, with 8 calls in flight
// on each of 2 connections: every stage completes its requests, all answered ok, and geth
// counted exactly the calls sent.
func gethStepped(t *testing.T, node *gethtest.Node) {
	t.Helper()
	before := gethCounter(t, node.MetricsURL, "rpc_requests")
	// A call and a batch whose ids are not in the calls' order, as an inline list of requests.
	mix := `request = [{method = "eth_getBalance", params = ["0x0000000000000000000000000000000000000000", "latest"]},
  {name = "pair", body = '[{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"},{"jsonrpc":"2.0","id":1,"method":"net_version"}]'}]
`
	p := writeProfile(t, node.WSURL, 2, "streams = 8\n"+mix+stage("100/s", "1s")+stage("300/s", "1s"))
	r := runCLI(t, nil, p)
	mustRun(t, r, exitOK)
	tot := r.snap.Totals
	after := gethCounter(t, node.MetricsURL, "rpc_requests")
	t.Logf("stepped: %d requests, %d calls, %d connections; geth counted %d calls", tot.Completed, tot.Calls.Sent, tot.Connections.Dialed, after-before)
	for i, want := range []int64{100, 300} {
		if s := r.snap.Stages[i].Summary; s.Completed != want || s.OK != want {
			t.Errorf("stage %d: completed %d ok %d, want %d", i+1, s.Completed, s.OK, want)
		}
	}
	if tot.Calls.OK != tot.Calls.Sent || after-before != tot.Calls.Sent || tot.Connections.Dialed != 2 {
		t.Errorf("calls %+v, geth counted %d, connections %+v", tot.Calls, after-before, tot.Connections)
	}
}
