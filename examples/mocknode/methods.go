package mocknode

import (
	"strconv"
	"time"

	"github.com/valyala/fastjson"
)

// The chains the node pretends to follow. Heights grow with the node's clock at their real
// block times, from plausible mainnet heights, so clients see numbers of the right size.
const (
	solanaFirstSlot = 300_000_000
	solanaSlotTime  = 400 * time.Millisecond
	ethFirstBlock   = 20_000_000
	ethBlockTime    = 12 * time.Second
	ethGenesisTime  = 1_438_269_973 // seconds; timestamps are genesis + 12 s per block
	maxLamports     = 1_000_000_000_000
	maxWei          = 10_000_000_000_000_000_000
)

// result appends the result of method m (known to the node) to dst, or reports an error, in
// which case whatever was appended is discarded by the caller and the message is msg followed
// by r.detail. items is the per-item cost of the call for the latency model.
func (n *Node) result(dst []byte, m method, r *req) (_ []byte, items int, code errCode, msg string) {
	if m < 0 || m >= numMethods || n.answers[m] == nil {
		return dst, 1, errMethodNotFound, msgMethodNotFound // the subscriptions': WebSocket only
	}
	return n.answers[m](n, dst, r)
}

// answer appends a method's result to dst, or reports an error (see result).
type answer func(n *Node, dst []byte, r *req) (_ []byte, items int, code errCode, msg string)

// answerTable maps each method the node answers over request/response to its answer, keyed by
// method as methodName's names are; the subscriptions' methods are answered on their
// WebSocket (ws_subscribe.go) and have none.
func answerTable() [numMethods]answer {
	return [numMethods]answer{
		mGetBalance:              (*Node).getBalance,
		mGetSlot:                 (*Node).getSlot,
		mGetBlocks:               (*Node).getBlocks,
		mGetGenesisHash:          (*Node).getGenesisHash,
		mGetFirstAvailableBlock:  (*Node).getFirstAvailableBlock,
		mGetBlock:                (*Node).getBlock,
		mGetTransaction:          (*Node).getTransaction,
		mGetSignaturesForAddress: (*Node).getSignaturesForAddress,
		mGetAccountInfo:          (*Node).getAccountInfo,
		mGetLatestBlockhash:      (*Node).getLatestBlockhash,
		mGetProgramAccounts:      (*Node).getProgramAccounts,
		mGetSignatureStatuses:    (*Node).getSignatureStatuses,
		mGetBlockHeight:          (*Node).getBlockHeight,
		mGetBlockTime:            (*Node).getBlockTime,
		mGetEpochInfo:            (*Node).getEpochInfo,
		mGetBlocksWithLimit:      (*Node).getBlocksWithLimit,
		mGetMultipleAccounts:     (*Node).getMultipleAccounts,
		mGetTokenAccountsByOwner: (*Node).getTokenAccountsByOwner,

		mEthChainID:               (*Node).ethChainIDResult,
		mEthBlockNumber:           (*Node).ethBlockNumberResult,
		mEthGetBalance:            accountState(mEthGetBalance),
		mEthGetBlockByNumber:      (*Node).ethGetBlockByNumber,
		mEthGetBlockByHash:        (*Node).ethGetBlockByHash,
		mEthGetTransactionByHash:  transaction(false),
		mEthGetTransactionReceipt: transaction(true),
		mEthGetLogs:               (*Node).ethGetLogs,
		mEthCall:                  (*Node).ethCall,
		mEthGetCode:               accountState(mEthGetCode),
		mEthGetTransactionCount:   accountState(mEthGetTransactionCount),
		mEthGasPrice:              (*Node).ethGasPriceResult,
		mEthFeeHistory:            (*Node).ethFeeHistory,
		mEthGetBlockReceipts:      (*Node).ethGetBlockReceipts,
		mDebugTraceTransaction:    (*Node).debugTraceTransaction,
		mDebugTraceBlockByNumber:  (*Node).debugTraceBlockByNumber,
		mDebugStorageRangeAt:      (*Node).debugStorageRangeAt,
	}
}

// accountState answers m, one of the three methods of an account's state (ethAccountState).
func accountState(m method) answer {
	return func(n *Node, dst []byte, r *req) ([]byte, int, errCode, string) { return n.ethAccountState(dst, m, r) }
}

// transaction answers a transaction by hash, or its receipt (ethGetTransaction).
func transaction(receipt bool) answer {
	return func(n *Node, dst []byte, r *req) ([]byte, int, errCode, string) {
		return n.ethGetTransaction(dst, r, receipt)
	}
}

// slot is the Solana slot at now.
func (n *Node) slot(now time.Time) uint64 {
	return solanaFirstSlot + uint64(max(now.Sub(n.epoch), 0)/solanaSlotTime)
}

// ethBlock is the Ethereum block number at now.
func (n *Node) ethBlock(now time.Time) uint64 {
	return ethFirstBlock + uint64(max(now.Sub(n.epoch), 0)/n.cfg.BlockTime)
}

// param returns params[i], or nil when params is not an array or too short.
func param(params *fastjson.Value, i int) *fastjson.Value {
	if params == nil || params.Type() != fastjson.TypeArray {
		return nil
	}
	a := params.GetArray()
	if i >= len(a) {
		return nil
	}
	return a[i]
}

// paramCount is len(params), or -1 when params is present but not an array.
func paramCount(params *fastjson.Value) int {
	if params == nil {
		return 0
	}
	if params.Type() != fastjson.TypeArray {
		return -1
	}
	return len(params.GetArray())
}

// stringParam is v's string bytes, or nil when v is not a string.
func stringParam(v *fastjson.Value) []byte {
	if v == nil || v.Type() != fastjson.TypeString {
		return nil
	}
	b, _ := v.StringBytes() // cannot fail: the type is string
	return b
}

// uintParam is v as a non-negative integer. The type is checked first so that the common
// mistakes cost no error allocation.
func uintParam(v *fastjson.Value) (uint64, bool) {
	if v == nil || v.Type() != fastjson.TypeNumber {
		return 0, false
	}
	u, err := v.Uint64()
	return u, err == nil
}

// blockParam reads an Ethereum block parameter: a tag or a 0x quantity.
func blockParam(b []byte, head uint64) (uint64, bool) {
	switch string(b) {
	case "latest", "pending", "safe", "finalized":
		return head, true
	case "earliest":
		return 0, true
	}
	return parseHexQuantity(b)
}

// parseHexQuantity reads 0x followed by 1–16 hex digits.
func parseHexQuantity(b []byte) (uint64, bool) {
	if len(b) < 3 || len(b) > 18 || b[0] != '0' || (b[1] != 'x' && b[1] != 'X') {
		return 0, false
	}
	var u uint64
	for _, c := range b[2:] {
		d, ok := hexDigit(c)
		if !ok {
			return 0, false
		}
		u = u<<4 | uint64(d)
	}
	return u, true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// appendHexQuantity writes u as an Ethereum quantity: "0x" and hex without leading zeros.
func appendHexQuantity(dst []byte, u uint64) []byte {
	dst = append(dst, `"0x`...)
	dst = strconv.AppendUint(dst, u, 16)
	return append(dst, '"')
}

// fnv1a is the 64-bit FNV-1a hash of b.
func fnv1a(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// isBase58Address reports whether b looks like a Solana address: 32–44 characters of the
// base58 alphabet (digits and letters without 0, O, I and l).
func isBase58Address(b []byte) bool {
	return len(b) >= 32 && len(b) <= 44 && isBase58(b)
}

// isBase58Signature reports whether b looks like a transaction signature: 64 bytes are 64 to
// 88 base58 characters.
func isBase58Signature(b []byte) bool {
	return len(b) >= 64 && len(b) <= 88 && isBase58(b)
}

// isBase58 reports whether b is made of the base58 alphabet (digits and letters without 0,
// O, I and l).
func isBase58(b []byte) bool {
	for _, c := range b {
		if base58Value(c) < 0 {
			return false
		}
	}
	return true
}

// isEthAddress reports whether b is 0x followed by 40 hex digits (any case; the EIP-55
// checksum is not checked, as most nodes don't).
func isEthAddress(b []byte) bool { return isHexDigits(b, 40) }

// isHexHash reports b is 0x and 64 hex digits.
func isHexHash(b []byte) bool { return isHexDigits(b, 64) }

// isHexDigits reports whether b is 0x (or 0X) followed by exactly n hex digits of any case.
func isHexDigits(b []byte, n int) bool {
	if len(b) != n+2 || b[0] != '0' || (b[1] != 'x' && b[1] != 'X') {
		return false
	}
	for _, c := range b[2:] {
		if _, ok := hexDigit(c); !ok {
			return false
		}
	}
	return true
}
