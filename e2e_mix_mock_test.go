package main

import (
	"path/filepath"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestMixMockNode: the mock node's fake chains, harvested, then each bundled mix run against
// them in process: every request of every mix comes back at least 99 % ok and valid. The
// node serves every method the mixes send, so no method is exempt: one it did not serve
// would answer -32601 and fail here. (The rarest, weight 2 in 1,888, may go unsent in 3 s:
// the package's own tests answer each method.)
func TestMixMockNode(t *testing.T) {
	t.Parallel()
	_, url := startNode(t, mocknode.Config{})
	tests := []struct {
		chain, profile string
	}{
		{"evm", "profiles/evm-mix.toml"},         // wallet traffic
		{"evm", "profiles/evm-heavy.toml"},       // logs, receipts of blocks, debug traces, storage
		{"solana", "profiles/solana-mix.toml"},   // wallet and explorer traffic
		{"solana", "profiles/solana-heavy.toml"}, // program scans, full blocks, long histories
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
			if len(r.snap.Totals.ByRequest) == 0 {
				t.Fatal("no request counts in the snapshot")
			}
			for name, s := range r.snap.Totals.ByRequest {
				if float64(s.OK) < 0.99*float64(s.Completed) {
					t.Errorf("%s: %d ok of %d (rpc errors %v, invalid %+v)", name, s.OK, s.Completed, s.RPCErrors, s.Expect)
				}
			}
		})
	}
}
