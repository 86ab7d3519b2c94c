package main

import (
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// Expect rules and costs through the real CLI: the mock node answers a block beyond its head
// with a null result, fast, as geth does. With expect = "result" those answers are invalid,
// not ok: counted by rule and by request, failing invalid = "< 0.1%" (exit 1), while the cost
// accepted per second is the head blocks' and block numbers' alone.
func TestExpectAndCostCLI(t *testing.T) {
	node, url := startNode(t, mocknode.Config{})
	p := writeProfile(t, url, 16, `expect = "result"
[[request]]
method = "eth_getBlockByNumber"
params = ["latest", false]
cost = 16
expect = [{path = "result.number", matches = "^0x"}, {path = "result.transactions", nonempty = true}]
[[request]]
name = "future block"
method = "eth_getBlockByNumber"
params = ["0xffffffffff", false]
cost = 16
[[request]]
method = "eth_blockNumber"
cost = 10
`+stage("100/s", "2s")+`
[thresholds]
invalid = "< 0.1%"
cost_rate = "> 1"
`)
	r := runCLI(t, nil, p)
	mustRun(t, r, exitThresholds)
	tot := r.snap.Totals
	future, head, number := tot.ByRequest["future block"], tot.ByRequest["eth_getBlockByNumber"], tot.ByRequest["eth_blockNumber"]
	if future.Completed == 0 || head.Completed == 0 || number.Completed == 0 {
		t.Fatalf("requests: %v", tot.ByRequest)
	}
	if tot.Expect == nil || tot.Expect.Invalid != future.Completed || tot.Expect.ByRule["result present"] != future.Completed ||
		tot.OK != head.Completed+number.Completed || tot.Failed != future.Completed {
		t.Errorf("expect %+v ok %d failed %d: want every one of the %d future blocks invalid, the rest ok", tot.Expect, tot.OK, tot.Failed, future.Completed)
	}
	if want := 16*head.Completed + 10*number.Completed; tot.Cost == nil || tot.Cost.Accepted != want || tot.Cost.Offered != want+16*future.Sent {
		t.Errorf("cost %+v, want %d accepted", tot.Cost, want)
	}
	if st := node.Stats(); st.Requests != tot.Completed || st.Status["200"] != tot.Completed {
		t.Errorf("the node answered %d (200: %d), rpcstress counted %d", st.Requests, st.Status["200"], tot.Completed)
	}
	for _, want := range []string{"invalid      ", "failed by an expect rule", "cost units   offered", "result present",
		"✗ FAIL  invalid", "✓ pass  cost_rate"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the output lacks %q:\n%s", want, r.stdout)
		}
	}
}
