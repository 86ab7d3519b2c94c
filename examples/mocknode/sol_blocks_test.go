package mocknode

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

type testSolTx struct {
	Meta struct {
		Fee          uint64
		PreBalances  []uint64
		PostBalances []uint64
	}
	Transaction struct {
		Signatures []string
		Message    struct {
			AccountKeys  []string
			Header       struct{ NumReadonlyUnsignedAccounts int }
			Instructions []struct {
				ProgramIDIndex int `json:"programIdIndex"`
				Accounts       []int
			}
			RecentBlockhash string
		}
	}
	Version string
	Slot    uint64
}

type testSolBlock struct {
	BlockHeight       uint64
	Blockhash         string
	ParentSlot        uint64
	PreviousBlockhash string
	Transactions      []json.RawMessage
	Signatures        []string
	Rewards           *[]any
}

const fullCfg = `{"encoding":"json","maxSupportedTransactionVersion":0,"transactionDetails":"full","rewards":false}`

// TestSolanaBlocks: blocks chain to their parents over skipped slots, their transactions are
// what getTransaction answers, their keys are real 32-byte keys and their instructions name
// programs; the same block is the same bytes every time.
func TestSolanaBlocks(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.slot(now)
	var prev *testSolBlock
	var prevSlot uint64
	var withBlocks []uint64
	for s := head - 40; s <= head; s++ {
		params := "[" + strconv.FormatUint(s, 10) + "," + fullCfg + "]"
		a := rpcAt(t, n, now, "getBlock", params)
		if a.Error != nil {
			want := "Slot " + strconv.FormatUint(s, 10) + slotSkippedTail
			if a.Error.Code != -32007 || a.Error.Message != want {
				t.Fatalf("slot %d: %s, want -32007 %s", s, a.raw, want)
			}
			continue
		}
		if again := rpcAt(t, n, now.Add(time.Hour), "getBlock", params); again.raw != a.raw {
			t.Fatalf("slot %d differs an hour later", s)
		}
		withBlocks = append(withBlocks, s)
		var b testSolBlock
		_ = json.Unmarshal(a.Result, &b)
		if len(decodeBase58(t, b.Blockhash)) != 32 || b.Rewards != nil || len(b.Transactions) == 0 {
			t.Fatalf("slot %d: %s", s, a.Result)
		}
		if prev != nil && (b.ParentSlot != prevSlot || b.PreviousBlockhash != prev.Blockhash || b.BlockHeight != prev.BlockHeight+1) {
			t.Fatalf("slot %d: parent %d %s height %d, want %d %s %d", s, b.ParentSlot, b.PreviousBlockhash, b.BlockHeight, prevSlot, prev.Blockhash, prev.BlockHeight+1)
		}
		for _, raw := range b.Transactions {
			checkSolTx(t, n, now, s, b.PreviousBlockhash, raw)
		}
		checkDetails(t, n, now, s, b)
		prev, prevSlot = &b, s
	}
	if len(withBlocks) == 41 || len(withBlocks) < 35 {
		t.Fatalf("%d of 41 slots have a block: want about 1 in %d skipped", len(withBlocks), solSkipWindow)
	}
	var got []uint64
	rpcResult(t, n, now, "getBlocks", "["+strconv.FormatUint(head-40, 10)+"]", &got)
	if len(got) != len(withBlocks) || got[0] != withBlocks[0] || got[len(got)-1] != head {
		t.Fatalf("getBlocks %v, want the slots with a block %v", got, withBlocks)
	}
}

// checkSolTx checks one transaction of slot's block against getTransaction and itself.
func checkSolTx(t *testing.T, n *Node, now time.Time, slot uint64, recent string, raw json.RawMessage) {
	t.Helper()
	var tx testSolTx
	_ = json.Unmarshal(raw, &tx)
	msg := tx.Transaction.Message
	if len(tx.Transaction.Signatures) != 1 || len(decodeBase58(t, tx.Transaction.Signatures[0])) != 64 ||
		tx.Version != "legacy" || msg.RecentBlockhash != recent {
		t.Fatalf("slot %d: %s", slot, raw)
	}
	programs := 0
	for _, k := range msg.AccountKeys {
		if solProgramIndex([]byte(k)) >= 0 {
			programs++
		} else if len(decodeBase58(t, k)) != 32 {
			t.Fatalf("key %s is not 32 bytes", k)
		}
	}
	if programs == 0 || programs != msg.Header.NumReadonlyUnsignedAccounts || len(tx.Meta.PreBalances) != len(msg.AccountKeys) ||
		tx.Meta.PreBalances[0]-tx.Meta.PostBalances[0] < tx.Meta.Fee {
		t.Fatalf("slot %d: %d programs, header %d, keys %d, balances %v → %v", slot, programs, msg.Header.NumReadonlyUnsignedAccounts, len(msg.AccountKeys), tx.Meta.PreBalances, tx.Meta.PostBalances)
	}
	for _, in := range msg.Instructions {
		if in.ProgramIDIndex >= len(msg.AccountKeys) || solProgramIndex([]byte(msg.AccountKeys[in.ProgramIDIndex])) < 0 {
			t.Fatalf("slot %d: instruction calls key %d of %v, not a program", slot, in.ProgramIDIndex, msg.AccountKeys)
		}
	}
	var byID testSolTx
	got := rpcResult(t, n, now, "getTransaction", `["`+tx.Transaction.Signatures[0]+`",{"maxSupportedTransactionVersion":0}]`, &byID)
	var a, b map[string]json.RawMessage
	_ = json.Unmarshal(raw, &a)
	_ = json.Unmarshal(got, &b)
	if byID.Slot != slot || string(a["transaction"]) != string(b["transaction"]) || string(a["meta"]) != string(b["meta"]) {
		t.Fatalf("slot %d: getTransaction answered\n%s\nthe block has\n%s", slot, got, raw)
	}
}

// checkDetails: transactionDetails signatures lists the full transactions' signatures, none
// lists nothing.
func checkDetails(t *testing.T, n *Node, now time.Time, slot uint64, full testSolBlock) {
	t.Helper()
	var sigs, none testSolBlock
	rpcResult(t, n, now, "getBlock", "["+strconv.FormatUint(slot, 10)+`,{"transactionDetails":"signatures"}]`, &sigs)
	rpcResult(t, n, now, "getBlock", "["+strconv.FormatUint(slot, 10)+`,{"transactionDetails":"none","encoding":"json"}]`, &none)
	if len(sigs.Signatures) != len(full.Transactions) || sigs.Transactions != nil || sigs.Rewards == nil || none.Signatures != nil || none.Transactions != nil {
		t.Fatalf("slot %d: signatures %v, none %+v", slot, sigs.Signatures, none)
	}
	for i, raw := range full.Transactions {
		var tx testSolTx
		_ = json.Unmarshal(raw, &tx)
		if tx.Transaction.Signatures[0] != sigs.Signatures[i] {
			t.Fatalf("slot %d: signature %d is %s in full, %s in signatures", slot, i, tx.Transaction.Signatures[0], sigs.Signatures[i])
		}
	}
}

// TestSolanaMissingBlocks: slots beyond the head, cleaned up by a pruned node, and
// signatures of nothing, answered as Solana answers them.
func TestSolanaMissingBlocks(t *testing.T) {
	const retain = 100
	n := mustNode(t, Config{Retain: retain})
	now := n.epoch
	head := n.slot(now)
	var first uint64
	rpcResult(t, n, now, "getFirstAvailableBlock", "[]", &first)
	if first != blockAtOrAfter(head-retain) || first > head-retain+2 {
		t.Fatalf("first available block %d with the head at %d, want %d back", first, head, retain)
	}
	old := strconv.FormatUint(first-1, 10)
	checkErrors(t, n, now, []errorCase{
		// The slot after the head.
		{"beyond head", "getBlock", "[" + strconv.FormatUint(head+1, 10) + "]", -32004, "Block not available for slot " + strconv.FormatUint(head+1, 10)},
		// A slot the node no longer keeps.
		{"cleaned up", "getBlock", "[" + old + "]", -32001, "Block " + old + " cleaned up, does not exist on node. First available block: " + strconv.FormatUint(first, 10)},
		// Not a slot.
		{"not a slot", "getBlock", `["12"]`, -32602, msgSlotParam},
		// An encoding the node does not write.
		{"base64", "getBlock", "[" + strconv.FormatUint(head, 10) + `,{"encoding":"base64"}]`, -32602, "encoding json only"},
		// Transactions from a version the node does not know.
		{"version 1", "getBlock", "[" + strconv.FormatUint(head, 10) + `,{"maxSupportedTransactionVersion":1}]`, -32602, "maxSupportedTransactionVersion"},
		// Not a signature.
		{"bad signature", "getTransaction", `["abc"]`, -32602, msgSigParam},
	})
	sig := func(slot, i uint64) string { return q(string(appendBase58ID(nil, dSolSig.key(slot<<8|i), sigDigits))) }
	checkNulls(t, n, now, []errorCase{
		// A signature no transaction has.
		{name: "unknown signature", method: "getTransaction", params: `["5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"]`},
		// One of the next slot's.
		{name: "next slot's signature", method: "getTransaction", params: "[" + sig(head+1, 0) + "]"},
		// One of a slot the node no longer keeps.
		{name: "cleaned-up signature", method: "getTransaction", params: "[" + sig(first-1, 0) + "]"},
		// An index past the block's transactions.
		{name: "index past the block", method: "getTransaction", params: "[" + sig(first, solTxCount(first)) + "]"},
	})
	var slots []uint64
	rpcResult(t, n, now, "getBlocks", "[0,"+strconv.FormatUint(head, 10)+"]", &slots)
	if len(slots) == 0 || slots[0] != first {
		t.Fatalf("getBlocks from 0 starts at %v, want the first available %d", slots[:min(3, len(slots))], first)
	}
}

// TestSolanaLatestBlockhash: the newest block's hash, valid for 150 blocks; the genesis hash.
func TestSolanaLatestBlockhash(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.slot(now)
	var lb struct {
		Context struct{ Slot uint64 }
		Value   struct {
			Blockhash            string
			LastValidBlockHeight uint64
		}
	}
	rpcResult(t, n, now, "getLatestBlockhash", "[]", &lb)
	var b testSolBlock
	last := blockAtOrBefore(head)
	rpcResult(t, n, now, "getBlock", "["+strconv.FormatUint(last, 10)+`,{"transactionDetails":"none"}]`, &b)
	if lb.Context.Slot != head || lb.Value.Blockhash != b.Blockhash || lb.Value.LastValidBlockHeight != b.BlockHeight+solValidBlocks {
		t.Fatalf("latest blockhash %+v, the head block %+v", lb, b)
	}
	var g1, g2 string
	rpcResult(t, n, now, "getGenesisHash", "[]", &g1)
	rpcResult(t, n, now.Add(time.Hour), "getGenesisHash", "[]", &g2)
	if g1 != g2 || len(decodeBase58(t, g1)) != 32 {
		t.Fatalf("genesis hash %s then %s", g1, g2)
	}
}
