package mocknode

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"
)

type testSigEntry struct {
	Signature          string
	Slot, BlockTime    uint64
	ConfirmationStatus string
	Memo               *string
}

// ledgerSigs reads the blocks of from…to and lists, newest first, the signatures of the
// transactions whose keys hold addr: the answer getSignaturesForAddress owes, found the slow
// way.
func ledgerSigs(t *testing.T, n *Node, now time.Time, from, to uint64, addrs ...string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for s := to; s >= from; s-- {
		a := rpcAt(t, n, now, "getBlock", "["+strconv.FormatUint(s, 10)+","+fullCfg+"]")
		if a.Error != nil {
			continue // skipped
		}
		var b testSolBlock
		_ = json.Unmarshal(a.Result, &b)
		for i := len(b.Transactions) - 1; i >= 0; i-- {
			var tx testSolTx
			_ = json.Unmarshal(b.Transactions[i], &tx)
			for _, addr := range addrs {
				if slices.Contains(tx.Transaction.Message.AccountKeys, addr) {
					out[addr] = append(out[addr], tx.Transaction.Signatures[0])
				}
			}
		}
	}
	return out
}

// sigsOf answers getSignaturesForAddress and returns the signatures and entries.
func sigsOf(t *testing.T, n *Node, now time.Time, addr, cfg string) ([]string, []testSigEntry) {
	t.Helper()
	var es []testSigEntry
	rpcResult(t, n, now, "getSignaturesForAddress", `["`+addr+`",`+cfg+`]`, &es)
	sigs := make([]string, len(es))
	for i, e := range es {
		sigs[i] = e.Signature
	}
	return sigs, es
}

// TestSignaturesForAddress: for a wallet, a token account and a program, the node lists
// exactly the transactions whose keys hold the address, newest first, as a slow scan of the
// blocks finds them; pages with before and until join up.
func TestSignaturesForAddress(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.slot(now)
	const span = 2500 // slots scanned the slow way: a wallet has a dozen transactions in it
	wallet := string(appendBase58ID(nil, dSolWallet.key(7), keyDigits))
	tokenAcct := string(appendBase58ID(nil, dSolTokenAcct.key(7), keyDigits))
	memo := solProgramID(progMemo)
	want := ledgerSigs(t, n, now, head-span+1, head, wallet, tokenAcct, memo)
	tests := []struct {
		name, addr string
		limit      int
	}{
		// A wallet pays and is paid.
		{"wallet", wallet, maxSigLimit},
		// Its token account is in its token transfers only.
		{"token account", tokenAcct, maxSigLimit},
		// A third of the transactions carry a memo: the first hundred.
		{"program", memo, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, es := sigsOf(t, n, now, tt.addr, `{"limit":`+strconv.Itoa(tt.limit)+`}`)
			w := want[tt.addr]
			if len(w) < 5 {
				t.Fatalf("%d transactions in %d slots: too few to test", len(w), span)
			}
			var recent []string // the answer's part inside the scanned slots
			for _, e := range es {
				if e.Slot > head-span && e.ConfirmationStatus == "finalized" && e.BlockTime == solBlockTime(e.Slot) {
					recent = append(recent, e.Signature)
				}
			}
			if len(w) > tt.limit {
				w = w[:tt.limit]
			}
			if !slices.Equal(recent, w) || len(got) > tt.limit {
				t.Fatalf("%d signatures (%d in the last %d slots), want %d:\n got %v\nwant %v", len(got), len(recent), span, len(w), recent, w)
			}
			page1, _ := sigsOf(t, n, now, tt.addr, `{"limit":3}`)
			page2, _ := sigsOf(t, n, now, tt.addr, `{"limit":3,"before":"`+page1[2]+`"}`)
			until, _ := sigsOf(t, n, now, tt.addr, `{"until":"`+w[4]+`"}`)
			if !slices.Equal(append(page1, page2...), w[:6]) || !slices.Equal(until, w[:4]) {
				t.Fatalf("pages %v + %v, until the 5th %v; want %v", page1, page2, until, w[:6])
			}
		})
	}
	if got, _ := sigsOf(t, n, now, solAddr, `{}`); len(got) != 0 {
		t.Errorf("an address the ledger never used has %d signatures", len(got))
	}
}

// TestSignaturesPruned: a pruned node lists nothing older than its first available block.
func TestSignaturesPruned(t *testing.T) {
	n := mustNode(t, Config{Retain: 3000})
	now := n.epoch
	var first uint64
	rpcResult(t, n, now, "getFirstAvailableBlock", "[]", &first)
	_, es := sigsOf(t, n, now, string(appendBase58ID(nil, dSolWallet.key(3), keyDigits)), `{}`)
	if len(es) == 0 || es[len(es)-1].Slot < first {
		t.Fatalf("%d entries, the oldest at slot %d; want some, none before %d", len(es), es[len(es)-1].Slot, first)
	}
	checkErrors(t, n, now, []errorCase{
		// Over Solana's limit.
		{"limit", "getSignaturesForAddress", `["` + solAddr + `",{"limit":1001}]`, -32602, "limit"},
		// before must be a signature of the ledger.
		{"before", "getSignaturesForAddress", `["` + solAddr + `",{"before":"xyz"}]`, -32602, msgSigsBefore},
		// Not an address.
		{"address", "getSignaturesForAddress", `["0x12"]`, -32602, msgBalanceParams},
	})
}

// TestSignatureStatuses: a status per signature, in order, null for signatures of nothing the
// node keeps.
func TestSignatureStatuses(t *testing.T) {
	n := mustNode(t, Config{Retain: 100})
	now := n.epoch
	head := n.slot(now)
	kept := blockAtOrBefore(head)
	sig := func(slot, i uint64) string {
		return `"` + string(appendBase58ID(nil, dSolSig.key(slot<<8|i), sigDigits)) + `"`
	}
	var st struct {
		Value []*struct {
			Slot               uint64
			ConfirmationStatus string
			Err                any
		}
	}
	rpcResult(t, n, now, "getSignatureStatuses", "[["+sig(kept, 0)+","+sig(head-200, 0)+","+sig(head+1, 0)+`],{"searchTransactionHistory":true}]`, &st)
	if len(st.Value) != 3 || st.Value[0] == nil || st.Value[0].Slot != kept || st.Value[0].ConfirmationStatus != "finalized" || st.Value[1] != nil || st.Value[2] != nil {
		t.Fatalf("statuses %+v: want slot %d's, then null for a pruned and a future one", st.Value, kept)
	}
	checkErrors(t, n, now, []errorCase{
		// An empty list.
		{"empty", "getSignatureStatuses", `[[]]`, -32602, msgSigStatuses},
		// Not a signature.
		{"not a signature", "getSignatureStatuses", `[["abc"]]`, -32602, msgSigStatuses},
	})
}
