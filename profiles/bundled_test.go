package profiles

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
)

// mixData is a small harvest of both chains for the bundled mixes (see its README).
const mixData = "testdata/harvest"

// TestBundledLoad loads every bundled profile with an empty environment: none may need one.
// The chain mixes read their parameters from a harvest folder: they load with the test one.
func TestBundledLoad(t *testing.T) {
	names := BundledNames()
	want := []string{"demo.toml", "eth.toml", "evm-heavy.toml", "evm-mix.toml", "getBalance.toml", "getBlocks.toml",
		"ratelimit-ramp.toml", "side-by-side.toml", "solana-heavy.toml", "solana-mix.toml"}
	if !slices.Equal(names, want) {
		t.Fatalf("bundled = %v, want %v", names, want)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p, err := LoadBundled(name, nil, DataDir(mixData))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			p.Describe(&b)
			if testing.Verbose() {
				t.Log("\n" + b.String())
			}
			if _, err := json.Marshal(p.Redacted()); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestBundledMixesNeedData: without a harvest the chain mixes do not load, and say what to run
// (here, in the package's folder, there is no harvest/).
func TestBundledMixesNeedData(t *testing.T) {
	for _, name := range BundledNames() {
		if !strings.Contains(name, "-mix") && !strings.Contains(name, "-heavy") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			_, err := LoadBundled(name, nil)
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) != 1 {
				t.Fatalf("err %v, want one problem", err)
			}
			if p := e.Problems[0]; p.Field != "data_dir" || !strings.Contains(p.Msg, `"harvest": no such folder`) ||
				!strings.Contains(p.Msg, "run `rpcstress harvest URL --chain") {
				t.Errorf("problem %v, want data_dir's folder missing and the harvest to run", p)
			}
		})
	}
}

// TestBundledMixWeights: the chain mixes are weighted as the published distributions
// (chainbench's mainnet profiles), and evm-mix carries the ten methods that make up about
// 93 % of Ethereum mainnet's traffic.
func TestBundledMixWeights(t *testing.T) {
	tests := []struct {
		name    string
		weights map[string]int // by method; a method twice adds up
	}{
		// The numbers: others 12 are the three of the ten methods not named.
		{"evm-mix.toml", map[string]int{"eth_call": 100, "eth_getTransactionReceipt": 24, "eth_blockNumber": 19,
			"eth_getBalance": 12, "eth_chainId": 11, "eth_getBlockByNumber": 9, "eth_getTransactionByHash": 8,
			"eth_getLogs": 4, "eth_getTransactionCount": 4, "eth_getCode": 4}},
		// chainbench's Solana profile, getProgramAccounts moved to solana-heavy.
		{"solana-mix.toml", map[string]int{"getAccountInfo": 1000, "getBlock": 175, "getTokenAccountsByOwner": 150,
			"getMultipleAccounts": 150, "getTransaction": 130, "getSignaturesForAddress": 75, "getLatestBlockhash": 75,
			"getBalance": 75, "getSlot": 20, "getBlockHeight": 15, "getBlockTime": 15, "getSignatureStatuses": 4,
			"getBlocksWithLimit": 2, "getEpochInfo": 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := LoadBundled(tt.name, nil, DataDir(mixData))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			for i, r := range p.Config.Requests {
				got[p.info[i].RPCMethod] += r.Weight
			}
			if !maps.Equal(got, tt.weights) {
				t.Errorf("weights by method %v, want %v", got, tt.weights)
			}
		})
	}
}
