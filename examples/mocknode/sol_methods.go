package mocknode

import (
	"strconv"

	"github.com/valyala/fastjson"
)

const (
	// maxBlocksPerCall is Solana's getBlocks range limit; longer ranges are cut to it.
	maxBlocksPerCall = 500_000
)

const (
	msgBalanceParams = "Invalid params: params[0] must be a base58 account address of 32 to 44 characters"
	msgBlocksParams  = "Invalid params: expected [start_slot] or [start_slot, end_slot] as non-negative integers"
	msgSlotParam     = "Invalid params: params[0] must be a slot: a non-negative integer"
	msgSigParam      = "Invalid params: params[0] must be a base58 transaction signature of 64 bytes (64 to 88 characters)"
	msgTxConfig      = `Invalid params: the config must be an object {\"encoding\": \"json\", \"transactionDetails\": \"full\", \"signatures\" or \"none\", \"rewards\": true or false, \"maxSupportedTransactionVersion\": 0, \"commitment\": …}; the mock node writes encoding json only`
	// Solana's messages for slots without a block; the slot numbers follow in the detail.
	msgSlotSkipped     = "Slot "
	slotSkippedTail    = " was skipped, or missing due to ledger jump to recent snapshot"
	msgBlockNotAvail   = "Block not available for slot "
	msgBlockCleanedUp  = "Block "
	blockCleanedUpTail = " cleaned up, does not exist on node. First available block: "
)

// getSlot: the slot now.
func (n *Node) getSlot(dst []byte, r *req) ([]byte, int, errCode, string) {
	return strconv.AppendUint(dst, n.slot(r.now), 10), 1, errNone, ""
}

// getGenesisHash: the ledger's genesis hash, the same on every node.
func (n *Node) getGenesisHash(dst []byte, _ *req) ([]byte, int, errCode, string) {
	dst = append(dst, '"')
	return append(appendBase58ID(dst, dSolBlockhash.key(genesisPayload), keyDigits), '"'), 1, errNone, ""
}

// getFirstAvailableBlock: the oldest slot with a block the node keeps (firstSlot).
func (n *Node) getFirstAvailableBlock(dst []byte, r *req) ([]byte, int, errCode, string) {
	return strconv.AppendUint(dst, n.firstSlot(n.slot(r.now)), 10), 1, errNone, ""
}

// firstSlot is the oldest slot with a block the node keeps: the ledger's first, or with
// Config.Retain the first Retain slots behind the head.
func (n *Node) firstSlot(head uint64) uint64 {
	if n.cfg.Retain <= 0 || uint64(n.cfg.Retain) >= head {
		return blockAtOrAfter(0)
	}
	return blockAtOrAfter(head - uint64(n.cfg.Retain))
}

// getBalance: params [address, config?]; the balance is a pure function of the address, so
// repeated runs see the same numbers.
func (n *Node) getBalance(dst []byte, r *req) ([]byte, int, errCode, string) {
	addr := stringParam(param(r.params, 0))
	if !isBase58Address(addr) {
		return dst, 1, errInvalidParams, msgBalanceParams
	}
	dst = appendContext(dst, n.slot(r.now))
	dst = strconv.AppendUint(dst, lamports(addr), 10)
	return append(dst, '}'), 1, errNone, ""
}

// lamports is an account's balance: a function of its address, the same in every answer.
func lamports(addr []byte) uint64 { return fnv1a(addr) % maxLamports }

// appendContext opens an answer with a context: {"context":{"slot":S},"value": — the caller
// writes the value and the closing brace.
func appendContext(dst []byte, slot uint64) []byte {
	dst = append(dst, `{"context":{"slot":`...)
	dst = strconv.AppendUint(dst, slot, 10)
	return append(dst, `},"value":`...)
}

// getBlocks: params [start, end?, config?]; answers the slots with a block in start…end (end
// defaults to the head, and a range beyond the head or before the first available block is
// cut to them), scanning at most maxBlocksPerCall slots. Each slot answered is one item.
func (n *Node) getBlocks(dst []byte, r *req) ([]byte, int, errCode, string) {
	count := paramCount(r.params)
	if count < 1 || count > 3 {
		return dst, 1, errInvalidParams, msgBlocksParams
	}
	start, ok := uintParam(param(r.params, 0))
	if !ok {
		return dst, 1, errInvalidParams, msgBlocksParams
	}
	head := n.slot(r.now)
	end := head
	if p := param(r.params, 1); p != nil && p.Type() != fastjson.TypeObject { // [start, config] is allowed
		if end, ok = uintParam(p); !ok {
			return dst, 1, errInvalidParams, msgBlocksParams
		}
	}
	start, end = max(start, n.firstSlot(head)), min(end, head)
	dst = append(dst, '[')
	if end < start {
		return append(dst, ']'), 1, errNone, ""
	}
	length := uint64(maxBlocksPerCall)
	if span := end - start; span < maxBlocksPerCall-1 { // written so that end−start+1 cannot overflow
		length = span + 1
	}
	found := 0
	for i := range length {
		if skipped(start + i) {
			continue
		}
		if found > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendUint(dst, start+i, 10)
		found++
	}
	return append(dst, ']'), max(found, 1), errNone, ""
}

// getLatestBlockhash: params [config?]; the newest block's hash and the block height until
// which it is valid.
func (n *Node) getLatestBlockhash(dst []byte, r *req) ([]byte, int, errCode, string) {
	head := n.slot(r.now)
	last := blockAtOrBefore(head)
	dst = appendContext(dst, head)
	dst = append(dst, `{"blockhash":"`...)
	dst = appendBase58ID(dst, dSolBlockhash.key(last), keyDigits)
	dst = append(dst, `","lastValidBlockHeight":`...)
	dst = strconv.AppendUint(dst, blockHeight(last)+solValidBlocks, 10)
	return append(dst, `}}`...), 1, errNone, ""
}

// slotProblem says why slot has no block to answer, as Solana says it: beyond the head
// (-32004), cleaned up (-32001) or skipped (-32007); errNone when it has one.
func (n *Node) slotProblem(r *req, slot uint64) (errCode, string) {
	head := n.slot(r.now)
	switch first := n.firstSlot(head); {
	case slot > head:
		r.detail = strconv.AppendUint(r.detail, slot, 10)
		return errBlockNotAvailable, msgBlockNotAvail
	case slot < first:
		r.detail = strconv.AppendUint(r.detail, slot, 10)
		r.detail = append(r.detail, blockCleanedUpTail...)
		r.detail = strconv.AppendUint(r.detail, first, 10)
		return errBlockCleanedUp, msgBlockCleanedUp
	case skipped(slot):
		r.detail = strconv.AppendUint(r.detail, slot, 10)
		r.detail = append(r.detail, slotSkippedTail...)
		return errSlotSkipped, msgSlotSkipped
	}
	return errNone, ""
}

// Transaction details getBlock writes.
const (
	detailsFull = iota
	detailsSignatures
	detailsNone
)

// txConfig is what getBlock and getTransaction were asked to write.
type txConfig struct {
	details int
	rewards bool // getBlock's rewards (default true)
	version bool // maxSupportedTransactionVersion was given: write each transaction's version
}

// readTxConfig reads the config of getBlock and getTransaction: absent, the encoding as a
// string (Solana's older form), or an object.
func readTxConfig(v *fastjson.Value) (txConfig, bool) {
	c := txConfig{rewards: true}
	if v == nil {
		return c, true
	}
	if v.Type() == fastjson.TypeString {
		return c, string(stringParam(v)) == "json"
	}
	if v.Type() != fastjson.TypeObject {
		return c, false
	}
	if e := v.Get("encoding"); e != nil && string(stringParam(e)) != "json" {
		return c, false
	}
	if d := v.Get("transactionDetails"); d != nil {
		switch string(stringParam(d)) {
		case "full":
		case "signatures":
			c.details = detailsSignatures
		case "none":
			c.details = detailsNone
		default:
			return c, false
		}
	}
	if rv := v.Get("rewards"); rv != nil {
		var ok bool
		if c.rewards, ok = boolParam(rv); !ok {
			return c, false
		}
	}
	if mv := v.Get("maxSupportedTransactionVersion"); mv != nil {
		if u, ok := uintParam(mv); !ok || u != 0 {
			return c, false
		}
		c.version = true
	}
	return c, true
}
