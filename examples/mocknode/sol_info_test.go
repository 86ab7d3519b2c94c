package mocknode

import (
	"strconv"
	"testing"
	"time"

	"github.com/valyala/fastjson"
)

// itemsAt is the latency model's item count for method(params) at now.
func itemsAt(t *testing.T, n *Node, now time.Time, method, params string) int {
	t.Helper()
	v, err := fastjson.Parse(params)
	if err != nil {
		t.Fatal(err)
	}
	r := req{params: v, now: now}
	_, items, _, _ := n.result(nil, n.lookupMethod([]byte(method)), &r)
	return items
}

// TestSolanaClock: block height, block times, epochs and getBlocksWithLimit follow the slot
// number, agree with each other and with getLatestBlockhash, and answer the same twice.
func TestSolanaClock(t *testing.T) {
	n := mustNode(t, Config{})
	now := n.epoch.Add(time.Hour)
	head := n.slot(now)
	var height uint64
	rpcResult(t, n, now, "getBlockHeight", `[]`, &height)
	var latest struct {
		Value struct{ LastValidBlockHeight uint64 }
	}
	rpcResult(t, n, now, "getLatestBlockhash", `[]`, &latest)
	if height != latest.Value.LastValidBlockHeight-solValidBlocks || height >= head {
		t.Fatalf("block height %d; getLatestBlockhash's last valid height %d; head slot %d", height, latest.Value.LastValidBlockHeight, head)
	}
	var epoch struct {
		AbsoluteSlot, BlockHeight, Epoch, SlotIndex, SlotsInEpoch, TransactionCount uint64
	}
	rpcResult(t, n, now, "getEpochInfo", `[{"commitment":"finalized"}]`, &epoch)
	if epoch.AbsoluteSlot != head || epoch.BlockHeight != height || epoch.SlotsInEpoch == 0 ||
		epoch.Epoch*epoch.SlotsInEpoch+epoch.SlotIndex != head || epoch.TransactionCount < height {
		t.Fatalf("epoch info %+v at head %d, height %d", epoch, head, height)
	}

	// getBlocksWithLimit lists the slots with a block, as getBlocks does over the same span.
	start := head - 100
	var withLimit, blocks []uint64
	rpcResult(t, n, now, "getBlocksWithLimit", "["+strconv.FormatUint(start, 10)+",20]", &withLimit)
	if len(withLimit) != 20 {
		t.Fatalf("getBlocksWithLimit: %d slots, want 20", len(withLimit))
	}
	last := withLimit[len(withLimit)-1]
	rpcResult(t, n, now, "getBlocks", "["+strconv.FormatUint(start, 10)+","+strconv.FormatUint(last, 10)+"]", &blocks)
	if len(blocks) != len(withLimit) || blocks[0] != withLimit[0] {
		t.Fatalf("getBlocksWithLimit %v, getBlocks over the same span %v", withLimit, blocks)
	}
	if got := itemsAt(t, n, now, "getBlocksWithLimit", "["+strconv.FormatUint(start, 10)+",20]"); got != 20 {
		t.Fatalf("getBlocksWithLimit of 20 costs %d items, want 20", got)
	}
	// Near the head the list stops at it.
	var tail []uint64
	rpcResult(t, n, now, "getBlocksWithLimit", "["+strconv.FormatUint(head-2, 10)+",20]", &tail)
	if len(tail) == 0 || len(tail) > 3 || tail[len(tail)-1] > head {
		t.Fatalf("from 2 slots before the head %d: %v", head, tail)
	}

	// A block's time is its slot's, and every ask of the same slot answers the same.
	slot := blockAtOrBefore(head - 10)
	a := rpcAt(t, n, now, "getBlockTime", "["+strconv.FormatUint(slot, 10)+"]")
	b := rpcAt(t, n, now.Add(time.Minute), "getBlockTime", "["+strconv.FormatUint(slot, 10)+"]")
	if string(a.Result) != strconv.FormatUint(solBlockTime(slot), 10) || a.raw != b.raw {
		t.Fatalf("getBlockTime(%d): %s then %s, want %d", slot, a.raw, b.raw, solBlockTime(slot))
	}

	skip := head - 1
	for !skipped(skip) {
		skip--
	}
	retained := mustNode(t, Config{Retain: 10})
	checkErrors(t, n, now, []errorCase{
		// A slot beyond the head has no block yet.
		{"time beyond head", "getBlockTime", "[" + strconv.FormatUint(head+5, 10) + "]", -32004, msgBlockNotAvail},
		// A skipped slot has none ever.
		{"time skipped", "getBlockTime", "[" + strconv.FormatUint(skip, 10) + "]", -32007, "was skipped"},
		// The slot is a number, not a string.
		{"time string", "getBlockTime", `["5"]`, -32602, msgBlockTimeParams},
		// getBlockHeight takes only a config.
		{"height args", "getBlockHeight", `[5]`, -32602, "expected no params or [config]"},
		// getEpochInfo likewise.
		{"epoch args", "getEpochInfo", `["x"]`, -32602, "expected no params or [config]"},
		// The limit is required.
		{"limit missing", "getBlocksWithLimit", `[5]`, -32602, msgBlocksLimitParam},
		// Solana caps the limit at 500,000.
		{"limit too large", "getBlocksWithLimit", `[5,500001]`, -32602, msgBlocksLimitParam},
		// The third parameter is a config object.
		{"limit config", "getBlocksWithLimit", `[5,1,2]`, -32602, msgBlocksLimitParam},
	})
	checkErrors(t, retained, now, []errorCase{
		// Past the ledger the node keeps, the block is cleaned up.
		{"time cleaned up", "getBlockTime", "[" + strconv.FormatUint(head-1000, 10) + "]", -32001, "cleaned up"},
	})
}
