package mocknode

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

type testStorageRange struct {
	Storage map[string]struct {
		Key   *string
		Value string
	}
	NextKey *string
}

// storageRange asks debug_storageRangeAt of contract at block from start for up to limit slots.
func storageRange(t *testing.T, n *Node, now time.Time, block uint64, contract, start string, limit int) testStorageRange {
	t.Helper()
	var got testStorageRange
	rpcResult(t, n, now, "debug_storageRangeAt", "["+string(appendHash32(nil, dEthBlock, block))+",0,"+q(contract)+","+q(start)+","+strconv.Itoa(limit)+"]", &got)
	return got
}

// TestEVMStorageRange: a token's storage is its balances, listed in key order; paging with
// nextKey walks every slot once and ends with null; a wallet has none.
func TestEVMStorageRange(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch
	head := n.ethBlock(now)
	token := string(appendEthAddress(nil, dEthToken, 2))
	token = strings.Trim(token, `"`)
	first := storageRange(t, n, now, head, token, "0x"+zeroHex64, 5)
	if again := storageRange(t, n, now.Add(time.Hour), head, token, "0x"+zeroHex64, 5); len(again.Storage) != 5 || *again.NextKey != *first.NextKey {
		t.Fatalf("the same range an hour later differs: %+v then %+v", first, again)
	}
	// Page through all of it, 1,024 slots at a time, as seed 000 did.
	start, pages, slots := "0x"+zeroHex64, 0, map[string]bool{}
	for {
		page := storageRange(t, n, now, head, token, start, 1024)
		keys := make([]string, 0, len(page.Storage))
		for k, v := range page.Storage {
			if slots[k] || v.Key != nil || len(v.Value) != 66 || k < start {
				t.Fatalf("page %d: slot %s %+v (seen %v), start %s", pages, k, v, slots[k], start)
			}
			slots[k] = true
			keys = append(keys, k)
		}
		sort.Strings(keys)
		pages++
		if page.NextKey == nil {
			break
		}
		if len(keys) != 1024 || *page.NextKey <= keys[len(keys)-1] {
			t.Fatalf("page %d: %d slots, next key %s after %s", pages, len(keys), *page.NextKey, keys[len(keys)-1])
		}
		start = *page.NextKey
	}
	if len(slots) != ethWallets || pages != (ethWallets+1023)/1024 {
		t.Fatalf("%d slots in %d pages, want one per wallet: %d", len(slots), pages, ethWallets)
	}
	// A slot's value is the holder's balance, which eth_call balanceOf answers.
	if v := first.Storage[strings.Trim(string(appendStorageKey(nil, 2, 0)), `"`)].Value; v != "0x"+string(appendHex64(nil, tokenBalance(2, 0))) {
		t.Fatalf("wallet 0's slot %s, want its balance %d", v, tokenBalance(2, 0))
	}
	if items := itemsAt(t, n, now, "debug_storageRangeAt", "["+string(appendHash32(nil, dEthBlock, head))+",0,"+q(token)+",\"0x"+zeroHex64+"\",7]"); items != 7 {
		t.Fatalf("7 slots cost %d items", items)
	}
	// A start key between two slots' keys starts at the later one.
	past := strings.Trim(string(appendStorageKey(nil, 2, 3)), `"`)
	past = past[:18] + strings.Repeat("f", 48)
	if r := storageRange(t, n, now, head, token, past, 1); len(r.Storage) != 1 || *r.NextKey != strings.Trim(string(appendStorageKey(nil, 2, 5)), `"`) {
		t.Fatalf("from just past wallet 3's key: %+v, want wallet 4's slot", r)
	}
	// So does one just past its first 64 bits.
	between := fmt.Sprintf("0x%016x", 3*storageStep+1) + zeroHex64[16:]
	if r := storageRange(t, n, now, head, token, between, 1); len(r.Storage) != 1 || *r.NextKey != strings.Trim(string(appendStorageKey(nil, 2, 5)), `"`) {
		t.Fatalf("from %s: %+v, want wallet 4's slot", between, r)
	}
	// A wallet has no storage.
	if w := storageRange(t, n, now, head, ethAddr, "0x"+zeroHex64, 10); len(w.Storage) != 0 || w.NextKey != nil {
		t.Fatalf("a wallet's storage: %+v", w)
	}
	// Past the last key, nothing.
	if end := storageRange(t, n, now, head, token, "0x"+fullHex64, 10); len(end.Storage) != 0 || end.NextKey != nil {
		t.Fatalf("past the last key: %+v", end)
	}

	full := head
	for ethTxCount(full) == 0 {
		full--
	}
	hash := string(appendHash32(nil, dEthBlock, full))
	retained := mustNode(t, Config{Retain: 10})
	checkErrors(t, n, now, []errorCase{
		// A hash of no block, as geth words it.
		{"no block", "debug_storageRangeAt", `["0x` + zeroHex64 + `",0,"` + ethAddr + `","0x` + zeroHex64 + `",1]`, -32000, "block 0x" + zeroHex64 + " not found"},
		// A transaction index past the block's transactions.
		{"index", "debug_storageRangeAt", "[" + hash + "," + strconv.FormatUint(ethTxCount(full), 10) + `,"` + ethAddr + `","0x` + zeroHex64 + `",1]`, -32000, "out of range for block"},
		// Five parameters, the start key a hash.
		{"short key", "debug_storageRangeAt", "[" + hash + `,0,"` + ethAddr + `","0x00",1]`, -32602, msgStorageParams},
		// The limit is a number.
		{"limit", "debug_storageRangeAt", "[" + hash + `,0,"` + ethAddr + `","0x` + zeroHex64 + `","1"]`, -32602, msgStorageParams},
	})
	checkErrors(t, retained, now, []errorCase{
		// Past the retention window the state is gone.
		{"state gone", "debug_storageRangeAt", "[" + string(appendHash32(nil, dEthBlock, head-100)) + `,0,"` + ethAddr + `","0x` + zeroHex64 + `",1]`, -32000, msgStateGone},
	})
}
