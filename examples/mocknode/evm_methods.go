package mocknode

import "github.com/valyala/fastjson"

const (
	msgEthAddress    = "Invalid params: params[0] must be an address: 0x followed by 40 hex digits"
	msgEthBlockParam = "Invalid params: params[0] must be a block number (0x…) or a tag (latest, earliest, pending, safe, finalized)"
	msgEthStateBlock = "Invalid params: params[1] must be a block number (0x…) or a tag (latest, earliest, pending, safe, finalized)"
	msgEthFullTx     = "Invalid params: params[1] must be a boolean"
	msgEthHash       = "Invalid params: params[0] must be a hash: 0x followed by 64 hex digits"
	msgEthCallObject = `Invalid params: params[0] must be a call object {\"to\": address, \"data\": 0x…}`
	msgEthFeeHistory = "Invalid params: expected [blockCount (1 to 1024), newestBlock, rewardPercentiles? (ascending, 0 to 100)]"
	msgBeyondHead    = "request beyond head block"
)

// evmResult answers the EVM methods (see result).
func (n *Node) evmResult(dst []byte, m method, r *req) ([]byte, int, errCode, string) {
	switch m {
	case mEthChainID:
		return appendHexQuantity(dst, ethChainID), 1, errNone, ""
	case mEthBlockNumber:
		return appendHexQuantity(dst, n.ethBlock(r.now)), 1, errNone, ""
	case mEthGetBlockByNumber:
		return n.ethGetBlockByNumber(dst, r)
	case mEthGetBlockByHash:
		return n.ethGetBlockByHash(dst, r)
	case mEthGetTransactionByHash, mEthGetTransactionReceipt:
		return n.ethGetTransaction(dst, r, m == mEthGetTransactionReceipt)
	case mEthGetLogs:
		return n.ethGetLogs(dst, r)
	case mEthGetBalance, mEthGetTransactionCount, mEthGetCode:
		return n.ethAccountState(dst, m, r)
	case mEthCall:
		return n.ethCall(dst, r)
	case mEthGasPrice:
		head := n.ethBlock(r.now)
		return appendHexQuantity(dst, ethBaseFee(head)+gwei), 1, errNone, ""
	case mEthFeeHistory:
		return n.ethFeeHistory(dst, r)
	case mEthGetBlockReceipts:
		return n.ethGetBlockReceipts(dst, r)
	case mDebugTraceTransaction:
		return n.debugTraceTransaction(dst, r)
	case mDebugTraceBlockByNumber:
		return n.debugTraceBlockByNumber(dst, r)
	case mDebugStorageRangeAt:
		return n.debugStorageRangeAt(dst, r)
	}
	return dst, 1, errMethodNotFound, msgMethodNotFound
}

// ethGetBlockByNumber: params [number or tag, fullTransactions?]; null beyond the head, as
// geth answers.
func (n *Node) ethGetBlockByNumber(dst []byte, r *req) ([]byte, int, errCode, string) {
	if c := paramCount(r.params); c < 1 || c > 2 {
		return dst, 1, errInvalidParams, msgEthBlockParam
	}
	head := n.ethBlock(r.now)
	num, ok := blockParam(stringParam(param(r.params, 0)), head)
	if !ok {
		return dst, 1, errInvalidParams, msgEthBlockParam
	}
	full, ok := boolParam(param(r.params, 1))
	if !ok {
		return dst, 1, errInvalidParams, msgEthFullTx
	}
	if num > head {
		return append(dst, "null"...), 1, errNone, ""
	}
	return n.appendEthBlock(dst, num, full), 1, errNone, ""
}

// ethGetBlockByHash: params [hash, fullTransactions?]; null for a hash of no block (yet).
func (n *Node) ethGetBlockByHash(dst []byte, r *req) ([]byte, int, errCode, string) {
	if c := paramCount(r.params); c < 1 || c > 2 {
		return dst, 1, errInvalidParams, msgEthHash
	}
	h := stringParam(param(r.params, 0))
	if !isHexHash(h) {
		return dst, 1, errInvalidParams, msgEthHash
	}
	full, ok := boolParam(param(r.params, 1))
	if !ok {
		return dst, 1, errInvalidParams, msgEthFullTx
	}
	num, ok := parseHash32(h, dEthBlock)
	if !ok || num > n.ethBlock(r.now) {
		return append(dst, "null"...), 1, errNone, ""
	}
	return n.appendEthBlock(dst, num, full), 1, errNone, ""
}

// ethGetTransaction answers eth_getTransactionByHash, or with receipt its receipt: params
// [hash]; null for a hash of no transaction (yet).
func (n *Node) ethGetTransaction(dst []byte, r *req, receipt bool) ([]byte, int, errCode, string) {
	h := stringParam(param(r.params, 0))
	if paramCount(r.params) != 1 || !isHexHash(h) {
		return dst, 1, errInvalidParams, msgEthHash
	}
	key, ok := parseHash32(h, dEthTx)
	block, index := key>>8, key&0xff
	if !ok || block > n.ethBlock(r.now) || index >= ethTxCount(block) {
		return append(dst, "null"...), 1, errNone, ""
	}
	if receipt {
		return appendEthReceipt(dst, ethTxAt(block, index)), 1, errNone, ""
	}
	return appendEthTx(dst, ethTxAt(block, index)), 1, errNone, ""
}

// boolParam reads an optional boolean: absent is false.
func boolParam(v *fastjson.Value) (bool, bool) {
	if v == nil {
		return false, true
	}
	switch v.Type() {
	case fastjson.TypeTrue:
		return true, true
	case fastjson.TypeFalse:
		return false, true
	}
	return false, false
}
