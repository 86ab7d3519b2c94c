package engine_test

import (
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/engine"
	"github.com/rpcstress/rpcstress/engine/answers"
	"github.com/rpcstress/rpcstress/examples/mocknode"
	"github.com/rpcstress/rpcstress/internal/hostile"
)

// TestTargetsAnswersCompared: the answers of a mock node and a second target are compared
// request by request, each request once, as the second target's nature says they must.
func TestTargetsAnswersCompared(t *testing.T) {
	const (
		latest = `{"jsonrpc":"2.0","id":7,"method":"eth_getBalance","params":["0x00000000000000000000000000000000000000aa","latest"]}`
		block1 = `{"jsonrpc":"2.0","id":7,"method":"eth_getBalance","params":["0x00000000000000000000000000000000000000aa","0x1"]}`
		chain  = `{"jsonrpc":"2.0","id":7,"method":"eth_chainId","params":[]}`
	)
	mock := func(cfg mocknode.Config) func(*testing.T) string {
		return func(t *testing.T) string { _, url := startNode(t, cfg); return url }
	}
	tests := []struct {
		name string
		b    func(*testing.T) string // the second target
		body string
		kind answers.Kind // how every request compares
	}{
		// Two identical mock nodes answer the same.
		{"identical", mock(mocknode.Config{}), latest, answers.Match},
		// b keeps the state of its last 5 blocks only: block 1's balance is geth's "missing trie
		// node" error on b and a balance on a.
		{"pruned", mock(mocknode.Config{Retain: 5}), block1, answers.ErrorVsResult},
		// b is not that chain: it answers "0x1" to everything, a its chain id 0x539.
		{"other chain", func(t *testing.T) string { return hostile.Start(t, hostile.Config{Mode: hostile.Echo}).URL }, chain, answers.Mismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, urlA := startNode(t, mocknode.Config{})
			urlB := tt.b(t)
			cfg := sideBySide(balanceConfig(urlA, engine.Stage{Rate: 100, Duration: time.Second}), urlA, urlB)
			cfg.Requests = []engine.Request{{Name: "q", Weight: 1, Items: 1, Body: []byte(tt.body), RPC: engine.ParseRPCCalls([]byte(tt.body))}}
			cfg.CompareAnswers = true
			snap, r := runWith(t, cfg)
			res := snap.Answers
			if res == nil {
				t.Fatal("no answers section")
			}
			got := map[answers.Kind]int64{answers.Match: res.Totals.Match, answers.Mismatch: res.Totals.Mismatch,
				answers.ErrorVsResult: res.Totals.ErrorVsResult, answers.HeadSkew: res.Totals.HeadSkew, answers.Incomplete: res.Totals.Incomplete}
			if res.Totals.Compared != 100 || got[tt.kind] != 100 {
				t.Errorf("compared %d, %s %d, want all 100: %+v", res.Totals.Compared, tt.kind, got[tt.kind], res.Totals)
			}
			if c := res.ByRequest["q"]; c != res.Totals {
				t.Errorf("by request %+v, want the totals %+v", c, res.Totals)
			}
			if tt.kind != answers.Match && (len(res.Examples) == 0 || res.Examples[0].Kind != tt.kind || res.Examples[0].Sent == "") {
				t.Errorf("examples %+v, want some of %s with the request sent", res.Examples, tt.kind)
			}
			if live := r.Stats().Answers; live == nil || live.Totals != res.Totals {
				t.Errorf("the final view's answers %+v, want the snapshot's %+v", live, res.Totals)
			}
		})
	}
}
