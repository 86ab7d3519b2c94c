package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestMixMockNode: the mock node's fake chains, harvested, then each bundled mix of the chain
// run against them in process: every request the node serves comes back at least 99 % ok and
// valid. evm-mix's every method is served; the methods the node does not serve yet (answered
// -32601) are named in the log, so a node that grows them is held to the same bound.
func TestMixMockNode(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	tests := []struct {
		chain, profile string
		allServed      bool // every method of the mix must be served
	}{
		{"evm", "profiles/evm-mix.toml", true},
		{"solana", "profiles/solana-mix.toml", false},
		{"solana", "profiles/solana-heavy.toml", false},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.profile), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "harvest")
			if r := runVerb(t, "harvest", url, "--chain", tt.chain, "--blocks", "200", "--rate", "1000", "--out", dir); r.code != exitOK {
				t.Fatalf("harvest: exit %d\n%s", r.code, r.stderr)
			}
			r := runCLI(t, nil, tt.profile, "--url", url, "--data", dir, "--rate", "200/s", "--duration", "3s")
			mustRun(t, r, exitOK)
			if r.snap.Totals.Expect == nil {
				t.Fatal("no expect counts: the mix's answers were not checked")
			}
			var unserved []string
			for name, s := range r.snap.Totals.ByRequest {
				if s.Completed > 0 && s.RPCErrors["-32601"] == s.Completed {
					unserved = append(unserved, name)
					continue
				}
				if float64(s.OK) < 0.99*float64(s.Completed) {
					t.Errorf("%s: %d ok of %d (rpc errors %v, invalid %+v)", name, s.OK, s.Completed, s.RPCErrors, s.Expect)
				}
			}
			if len(unserved) > 0 {
				if tt.allServed {
					t.Errorf("the mock node does not serve %s", strings.Join(unserved, ", "))
				}
				t.Logf("the mock node does not serve yet: %s", strings.Join(unserved, ", "))
			}
		})
	}
}
