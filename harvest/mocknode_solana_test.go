package harvest

import (
	"context"
	"strconv"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// The programs the mock node's ledger calls, by the ids Solana gives them.
var mockPrograms = map[string]bool{
	"11111111111111111111111111111111":            true,
	"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA": true,
	"MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr": true,
	"ComputeBudget111111111111111111111111111111": true,
}

// TestHarvestMockNodeSolana: harvest against the mock node's Solana ledger, archive and
// pruned: the slots with a block, the signatures, the account keys and the programs of the
// range read are exactly those the node answers to plain calls, skipped slots are not asked
// for, and a pruned node's window is its first available block.
func TestHarvestMockNodeSolana(t *testing.T) {
	tests := []struct {
		name   string
		retain int
		blocks int
	}{
		// An archive node: the ledger from slot 0.
		{"archive", 0, 60},
		// A pruned node keeping 100 slots, asked for 60: the window does not cut them.
		{"pruned", 100, 60},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node, url := startMockNode(t, mocknode.Config{Retain: tt.retain})
			dir := t.TempDir()
			m, err := Run(context.Background(), Options{URL: url, Chain: Solana, Blocks: tt.blocks, OutDir: dir, Rate: 10_000})
			if err != nil {
				t.Fatal(err)
			}
			st := node.Stats() // what harvest asked, before the test asks anything
			var first int64
			ask(t, url, "getFirstAvailableBlock", &first)
			// The ledger's start moves with the head (a slot every 400 ms): the manifest's is
			// the one seen during the run, between the head's minus the retention and now's.
			if tt.retain == 0 && m.WindowStart != first || tt.retain > 0 && (m.WindowStart < m.Head-int64(tt.retain) || m.WindowStart > first) {
				t.Errorf("window %d with the head at %d; the node's first available block is now %d", m.WindowStart, m.Head, first)
			}
			if m.From != m.Head-int64(tt.blocks)+1 || !m.Complete || len(m.Skipped) != 0 {
				t.Fatalf("manifest: slots %d…%d (head %d), complete %v, skipped %v", m.From, m.To, m.Head, m.Complete, m.Skipped)
			}
			slots := solanaRange(t, url, m.From, m.To, dir)
			if st.Methods["getBlock"] != int64(slots) || st.Methods["getBlocks"] != 1 || m.Read != slots || slots == tt.blocks {
				t.Errorf("%d slots with a block of %d, %d read; the node answered getBlock %d times: want each slot with a block asked once, skipped slots never",
					slots, tt.blocks, m.Read, st.Methods["getBlock"])
			}
		})
	}
}

// solanaRange checks the files against the blocks of from…to, asked of the node, and returns
// how many slots had one.
func solanaRange(t *testing.T, url string, from, to int64, dir string) int {
	t.Helper()
	var slots []int64
	ask(t, url, "getBlocks", &slots, from, to)
	want := map[string]map[string]bool{"slots.txt": {}, "signatures.txt": {}, "accounts.txt": {}, "programs.txt": {}}
	for _, s := range slots {
		var b solBlock
		ask(t, url, "getBlock", &b, s, map[string]any{"maxSupportedTransactionVersion": 0})
		want["slots.txt"][strconv.FormatInt(s, 10)] = true
		for _, tx := range b.Transactions {
			want["signatures.txt"][tx.Transaction.Signatures[0]] = true
			for _, k := range tx.Transaction.Message.AccountKeys {
				if mockPrograms[k] {
					want["programs.txt"][k] = true
				} else {
					want["accounts.txt"][k] = true
				}
			}
		}
	}
	for file, values := range want {
		sameSet(t, dir, file, values)
	}
	return len(slots)
}
