package mocknode

import (
	"strconv"

	"github.com/valyala/fastjson"
)

// The Solana methods that read the ledger's clock: block height, block times, epochs, and
// the blocks after a slot. All are functions of the slot number, like the blocks themselves.

const (
	// solSlotsPerEpoch is mainnet's epoch length.
	solSlotsPerEpoch = 432_000
	// solMeanTxs is the mean transaction count of a block (1 to solMaxTxs, uniform): the
	// ledger's transaction count is estimated from it rather than summed over every block.
	solMeanTxs = (1 + solMaxTxs) / 2

	msgConfigParam      = `Invalid params: expected no params or [config] with config an object {\"commitment\": …}`
	msgBlockTimeParams  = "Invalid params: expected [slot] with slot a non-negative integer"
	msgBlocksLimitParam = "Invalid params: expected [start_slot, limit] as non-negative integers, limit at most 500000, and an optional config object"
)

// configOnly checks params of a method that takes only an optional config object.
func configOnly(params *fastjson.Value) bool {
	switch paramCount(params) {
	case 0:
		return true
	case 1:
		return param(params, 0).Type() == fastjson.TypeObject
	}
	return false
}

// getBlockHeight: params [config?]; the height of the newest block, the one
// getLatestBlockhash names (its lastValidBlockHeight is this plus solValidBlocks).
func (n *Node) getBlockHeight(dst []byte, r *req) ([]byte, int, errCode, string) {
	if !configOnly(r.params) {
		return dst, 1, errInvalidParams, msgConfigParam
	}
	return strconv.AppendUint(dst, blockHeight(blockAtOrBefore(n.slot(r.now))), 10), 1, errNone, ""
}

// getBlockTime: params [slot]; the block's time, or Solana's error for a slot without one.
func (n *Node) getBlockTime(dst []byte, r *req) ([]byte, int, errCode, string) {
	slot, ok := uintParam(param(r.params, 0))
	if !ok || paramCount(r.params) != 1 {
		return dst, 1, errInvalidParams, msgBlockTimeParams
	}
	if code, msg := n.slotProblem(r, slot); code != errNone {
		return dst, 1, code, msg
	}
	return strconv.AppendUint(dst, solBlockTime(slot), 10), 1, errNone, ""
}

// getEpochInfo: params [config?]; the head's place in its epoch.
func (n *Node) getEpochInfo(dst []byte, r *req) ([]byte, int, errCode, string) {
	if !configOnly(r.params) {
		return dst, 1, errInvalidParams, msgConfigParam
	}
	head := n.slot(r.now)
	height := blockHeight(blockAtOrBefore(head))
	dst = append(dst, `{"absoluteSlot":`...)
	dst = strconv.AppendUint(dst, head, 10)
	dst = append(dst, `,"blockHeight":`...)
	dst = strconv.AppendUint(dst, height, 10)
	dst = append(dst, `,"epoch":`...)
	dst = strconv.AppendUint(dst, head/solSlotsPerEpoch, 10)
	dst = append(dst, `,"slotIndex":`...)
	dst = strconv.AppendUint(dst, head%solSlotsPerEpoch, 10)
	dst = append(dst, `,"slotsInEpoch":`...)
	dst = strconv.AppendUint(dst, solSlotsPerEpoch, 10)
	dst = append(dst, `,"transactionCount":`...)
	dst = strconv.AppendUint(dst, height*solMeanTxs, 10)
	return append(dst, '}'), 1, errNone, ""
}

// getBlocksWithLimit: params [start, limit, config?]; the first limit slots with a block
// from start on (start cut to the first available block), none beyond the head. Each slot
// answered is one item.
func (n *Node) getBlocksWithLimit(dst []byte, r *req) ([]byte, int, errCode, string) {
	start, ok1 := uintParam(param(r.params, 0))
	limit, ok2 := uintParam(param(r.params, 1))
	c := paramCount(r.params)
	if !ok1 || !ok2 || limit > maxBlocksPerCall || c < 2 || c > 3 ||
		(c == 3 && param(r.params, 2).Type() != fastjson.TypeObject) {
		return dst, 1, errInvalidParams, msgBlocksLimitParam
	}
	head := n.slot(r.now)
	found := uint64(0)
	dst = append(dst, '[')
	for s := max(start, n.firstSlot(head)); s <= head && found < limit; s++ {
		if skipped(s) {
			continue
		}
		if found > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendUint(dst, s, 10)
		found++
	}
	return append(dst, ']'), max(int(found), 1), errNone, ""
}
