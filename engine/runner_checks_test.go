package engine_test

import (
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// checkedConfig is a run against the mock node of a block at the head (ok, 16 units) and one
// beyond it (a null result: invalid, 20 units), both expected to have a result.
func checkedConfig(t *testing.T, url string, stages ...engine.Stage) *engine.Config {
	rule, err := engine.NewExpectRule(engine.ExpectPresent, "result", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := balanceConfig(url, stages...)
	cfg.Requests = nil
	for _, r := range []struct {
		name, block string
		cost        uint32
	}{{"head", "latest", 16}, {"beyond", "0xffffffffff", 20}} {
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["` + r.block + `",false]}`)
		calls := engine.ParseRPCCalls(body)
		if err := calls.SetSpecs([]engine.CallSpec{{Expect: &engine.Expect{Rules: []*engine.ExpectRule{rule}}, Cost: r.cost}}); err != nil {
			t.Fatal(err)
		}
		cfg.Requests = append(cfg.Requests, engine.Request{Name: r.name, Body: body, RPC: calls, Weight: 1, Items: 1, Cost: r.cost})
	}
	return cfg
}

// TestRunnerChecks: a whole run against the mock node counts every answer to a block beyond
// the head invalid, by rule and by request, the books balance, the cost offered is every
// send's and the cost accepted the head's answers'; the snapshot holds to the schema (run).
// Two shards merged count the same as their sum.
func TestRunnerChecks(t *testing.T) {
	_, url := startNode(t, mocknode.Config{})
	stages := []engine.Stage{{Rate: 200, Duration: 500 * time.Millisecond}}
	var shards []*engine.Snapshot
	for i := range 2 {
		cfg := checkedConfig(t, url, stages...)
		cfg.Shard, cfg.ShardCount = i+1, 2
		shards = append(shards, run(t, cfg))
	}
	for i, s := range append(shards, nil) {
		if s == nil {
			m, err := engine.Merge(shards, []string{"a.json", "b.json"}, false)
			if err != nil {
				t.Fatal(err)
			}
			s, i = m, -1
			checkSchema(t, s)
		}
		tot := s.Totals
		if err := tot.CheckInvariant(); err != nil {
			t.Errorf("run %d: %v", i, err)
		}
		head, beyond := tot.ByRequest["head"], tot.ByRequest["beyond"]
		if head.Completed == 0 || beyond.Completed == 0 || head.Completed+beyond.Completed != tot.Completed {
			t.Fatalf("run %d: head %d beyond %d of %d", i, head.Completed, beyond.Completed, tot.Completed)
		}
		if tot.Expect == nil || tot.Expect.Invalid != beyond.Completed || tot.Expect.Calls != beyond.Completed ||
			tot.Expect.ByRule["result present"] != beyond.Completed || tot.Failed != beyond.Completed || tot.OK != head.Completed {
			t.Errorf("run %d: expect %+v, ok %d failed %d; want every one of the %d beyond the head invalid", i, tot.Expect, tot.OK, tot.Failed, beyond.Completed)
		}
		if beyond.Expect == nil || beyond.Expect.Invalid != beyond.Completed || head.Expect == nil || head.Expect.Invalid != 0 {
			t.Errorf("run %d: per request: head %+v, beyond %+v", i, head.Expect, beyond.Expect)
		}
		if want := (engine.CostStats{Offered: 16*head.Sent + 20*beyond.Sent, Accepted: 16 * head.Completed}); tot.Cost == nil ||
			tot.Cost.Offered != want.Offered || tot.Cost.Accepted != want.Accepted {
			t.Errorf("run %d: cost %+v, want %+v", i, tot.Cost, want)
		}
		var invalid int64
		for _, r := range s.Timeline {
			invalid += r.Invalid
		}
		if invalid != tot.Expect.Invalid {
			t.Errorf("run %d: the rows hold %d invalid, the totals %d", i, invalid, tot.Expect.Invalid)
		}
	}
	m, _ := engine.Merge(shards, nil, false)
	if got, want := m.Totals.Expect.Invalid, shards[0].Totals.Expect.Invalid+shards[1].Totals.Expect.Invalid; got != want {
		t.Errorf("merged invalid %d, the shards' sum %d", got, want)
	}
	if got, want := m.Totals.Cost.Accepted, shards[0].Totals.Cost.Accepted+shards[1].Totals.Cost.Accepted; got != want {
		t.Errorf("merged accepted cost %d, the shards' sum %d", got, want)
	}
}
