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

// ethChainIDResult: the chain's id, whatever the params.
func (n *Node) ethChainIDResult(dst []byte, _ *req) ([]byte, int, errCode, string) {
	return appendHexQuantity(dst, ethChainID), 1, errNone, ""
}

// ethBlockNumberResult: the head's number.
func (n *Node) ethBlockNumberResult(dst []byte, r *req) ([]byte, int, errCode, string) {
	return appendHexQuantity(dst, n.ethBlock(r.now)), 1, errNone, ""
}

// ethGasPriceResult: the head's base fee and a tip of one gwei.
func (n *Node) ethGasPriceResult(dst []byte, r *req) ([]byte, int, errCode, string) {
	return appendHexQuantity(dst, ethBaseFee(n.ethBlock(r.now))+gwei), 1, errNone, ""
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
