package harvest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rpcstress/rpcstress/internal/gethtest"
)

// TestHarvestGeth: a real go-ethereum node with transfers and Transfer logs: every block is read,
// every transaction, sender, recipient and holder is in the files.
func TestHarvestGeth(t *testing.T) {
	node := gethtest.Start(t)
	const transfers, logCalls = 12, 8
	head := node.History(t, transfers, logCalls)
	dir := t.TempDir()
	began := time.Now()
	m, err := Run(context.Background(), Options{URL: node.URL, Chain: EVM, OutDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("harvested %d blocks in %s with %d requests; window: %s", m.Read, time.Since(began).Round(time.Millisecond), m.Requests, m.WindowNote)
	if !m.Complete || m.To < head || m.Read != int(m.To-m.From+1) {
		t.Fatalf("manifest %+v, head %d", m, head)
	}
	// The deploy, the transfers and the log calls (geth --dev seals several in a block).
	if n := len(lines(t, dir, "tx_hashes.txt")); n != 1+transfers+logCalls {
		t.Errorf("%d transactions, want %d", n, 1+transfers+logCalls)
	}
	// The developer account, the 12 recipients and the emitter (called 8 times).
	if n := len(lines(t, dir, "addresses.txt")); n != 1+transfers+1 {
		t.Errorf("%d addresses, want %d", n, 2+transfers)
	}
	if got := lines(t, dir, "contracts.txt"); len(got) != 1 || !strings.EqualFold(got[0], node.Emitter) {
		t.Errorf("contracts %q, want the emitter %s", got, node.Emitter)
	}
	// Each log call names two holders: the developer (the caller) and a fresh address.
	if n := len(lines(t, dir, "erc20_calls.txt")); n != 1+logCalls {
		t.Errorf("%d balanceOf calls, want %d", n, 1+logCalls)
	}
}
