package harvest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/rpcstress/rpcstress/examples/mocknode"
)

// TestHarvestMockNodeEVM: harvest against the mock node's EVM chain, pruned: the window search
// meets geth's missing trie node errors and finds where the state starts (the head minus the
// retention), and the files hold exactly the blocks, transactions, addresses, token contracts
// and holders the chain has in the range read, as the node answers them to plain calls.
func TestHarvestMockNodeEVM(t *testing.T) {
	const retain, blocks = 50, 80 // more blocks asked than the node keeps: the window cuts them
	node, url := startMockNode(t, mocknode.Config{Retain: retain})
	dir := t.TempDir()
	var m *Manifest
	// A block comes every 12 s; a run that saw two heads is repeated, so that the window and
	// the range are measured against one head.
	for attempt := 0; ; attempt++ {
		var before, after string
		ask(t, url, "eth_blockNumber", &before)
		var err error
		m, err = Run(context.Background(), Options{URL: url, Chain: EVM, Blocks: blocks, OutDir: dir, Rate: 10_000})
		if err != nil {
			t.Fatal(err)
		}
		ask(t, url, "eth_blockNumber", &after)
		if before == after && hexNum(m.Head) == after || attempt == 2 {
			break
		}
	}
	t.Logf("%s; %d blocks read with %d requests", m.WindowNote, m.Read, m.Requests)
	// The window's first block is served but not read: tracing it would need its parent's state.
	if m.WindowStart != m.Head-retain || m.From != m.WindowStart+1 || m.To != m.Head || m.Read != retain || !m.Complete || m.ChainID != "0x539" {
		t.Fatalf("manifest: window %d, blocks %d…%d, %d read, complete %v, chain %s; want the window at head %d − %d, every block of it but the first",
			m.WindowStart, m.From, m.To, m.Read, m.Complete, m.ChainID, m.Head, retain)
	}
	if st := node.Stats(); st.RPCErrors["-32000"] == 0 {
		t.Errorf("the window search met no pruned state: stats %+v", st)
	}
	want := evmRange(t, url, m.From, m.To)
	for file, values := range want {
		sameSet(t, dir, file, values)
	}
}

// evmRange asks the node for blocks from…to with their transactions, and for their logs, and
// returns what each harvest file should hold.
func evmRange(t *testing.T, url string, from, to int64) map[string]map[string]bool {
	want := map[string]map[string]bool{}
	for _, f := range []string{"blocks.txt", "block_hashes.txt", "tx_hashes.txt", "addresses.txt", "contracts.txt", "erc20_tokens.txt", "erc20_calls.txt", "log_ranges.txt"} {
		want[f] = map[string]bool{}
	}
	for b := from; b <= to; b++ {
		var blk evmBlock
		ask(t, url, "eth_getBlockByNumber", &blk, hexNum(b), true)
		want["blocks.txt"][hexNum(b)] = true
		want["block_hashes.txt"][blk.Hash] = true
		for _, tx := range blk.Transactions {
			want["tx_hashes.txt"][tx.Hash] = true
			want["addresses.txt"][tx.From] = true
			want["addresses.txt"][tx.To] = true
		}
	}
	var logs []evmLog
	ask(t, url, "eth_getLogs", &logs, map[string]string{"fromBlock": hexNum(from), "toBlock": hexNum(to)})
	for _, l := range logs {
		want["contracts.txt"][l.Address] = true
		want["erc20_tokens.txt"][l.Address] = true
		bn, _ := parseHex(l.BlockNumber)
		lo := bn - bn%logSpan // the span of the log's block, cut to the blocks read
		want["log_ranges.txt"][fmt.Sprintf(`{"fromBlock":"%s","toBlock":"%s"}`, hexNum(max(lo, from)), hexNum(min(lo+logSpan-1, to)))] = true
		for _, topic := range l.Topics[1:] { // the sender and the recipient, as 32-byte words
			want["erc20_calls.txt"][fmt.Sprintf(`{"to":"%s","data":"%s%s"}`, l.Address, balanceOfSelector, strings.TrimPrefix(topic, "0x"))] = true
		}
	}
	return want
}
