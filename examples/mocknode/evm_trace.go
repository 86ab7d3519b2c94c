package mocknode

import (
	"strconv"

	"github.com/valyala/fastjson"
)

// A block's receipts and the debug namespace's traces. A trace re-executes transactions,
// which costs a node far more than reading them: each traced transaction counts as
// traceItems items for the latency model, so with PerItem set the traces are the slow calls
// of a mix, as on a real node.

const (
	traceItems = 10

	msgEthBlockOrHash   = "Invalid params: params[0] must be a block number (0x…), a tag (latest, earliest, pending, safe, finalized) or a block hash"
	msgTraceConfig      = `Invalid params: the trace config must be an object {\"tracer\": \"callTracer\", \"tracerConfig\": …}; the mock node traces with callTracer only`
	msgTraceTxParams    = "Invalid params: expected [transaction hash (0x followed by 64 hex digits), config]"
	msgTraceBlockParams = "Invalid params: expected [block number (0x…) or tag, config]"
	msgTxNotFound       = "transaction not found" // geth's answer for a hash of no transaction
	msgGenesisTrace     = "genesis is not traceable"
	msgStateGone        = "required historical state unavailable (reexec=128)" // geth, past its retention
	msgBlockNumPrefix   = "block #"                                            // geth: "block #N not found"
	notFoundTail        = " not found"
	// transferOK is an ERC-20 transfer's return value: true as a 32-byte word.
	transferOK = `"0x0000000000000000000000000000000000000000000000000000000000000001"`
)

// ethGetBlockReceipts: params [block number, tag or hash]; every receipt of the block, null
// for a block beyond the head or a hash of no block. Each receipt is one item.
func (n *Node) ethGetBlockReceipts(dst []byte, r *req) ([]byte, int, errCode, string) {
	b := stringParam(param(r.params, 0))
	if paramCount(r.params) != 1 || b == nil {
		return dst, 1, errInvalidParams, msgEthBlockOrHash
	}
	head := n.ethBlock(r.now)
	num, known := uint64(0), false
	if isHexHash(b) {
		num, known = parseHash32(b, dEthBlock)
	} else if num, known = blockParam(b, head); !known {
		return dst, 1, errInvalidParams, msgEthBlockOrHash
	}
	if !known || num > head {
		return append(dst, "null"...), 1, errNone, ""
	}
	count := ethTxCount(num)
	dst = append(dst, '[')
	for i := range count {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendEthReceipt(dst, ethTxAt(num, i))
	}
	return append(dst, ']'), max(int(count), 1), errNone, ""
}

// traceConfig checks a trace config asks for the call tracer: the one the bundled mixes and
// most explorers use, and the one the mock node writes.
func traceConfig(v *fastjson.Value) bool {
	if v == nil || v.Type() != fastjson.TypeObject {
		return false
	}
	return string(stringParam(v.Get("tracer"))) == "callTracer"
}

// traceable says why block num's transactions cannot be traced: the genesis block has none
// to re-execute, and they start from the parent block's state, which is gone once the parent
// is past the retention window (so the window's first block is not traceable, as in geth).
func (n *Node) traceable(num, head uint64) (errCode, string) {
	switch {
	case num == 0:
		return errServer, msgGenesisTrace
	case n.cfg.Retain > 0 && num-1+uint64(n.cfg.Retain) < head:
		return errServer, msgStateGone
	}
	return errNone, ""
}

// debugTraceTransaction: params [hash, config]; the transaction's call frame.
func (n *Node) debugTraceTransaction(dst []byte, r *req) ([]byte, int, errCode, string) {
	h := stringParam(param(r.params, 0))
	if paramCount(r.params) != 2 || !isHexHash(h) {
		return dst, 1, errInvalidParams, msgTraceTxParams
	}
	if !traceConfig(param(r.params, 1)) {
		return dst, 1, errInvalidParams, msgTraceConfig
	}
	head := n.ethBlock(r.now)
	key, ok := parseHash32(h, dEthTx)
	block, index := key>>8, key&0xff
	if !ok || block > head || index >= ethTxCount(block) {
		return dst, 1, errServer, msgTxNotFound
	}
	if code, msg := n.traceable(block, head); code != errNone {
		return dst, 1, code, msg
	}
	return appendCallFrame(dst, ethTxAt(block, index)), traceItems, errNone, ""
}

// debugTraceBlockByNumber: params [number or tag, config]; every transaction's call frame
// with its hash.
func (n *Node) debugTraceBlockByNumber(dst []byte, r *req) ([]byte, int, errCode, string) {
	head := n.ethBlock(r.now)
	num, ok := blockParam(stringParam(param(r.params, 0)), head)
	if paramCount(r.params) != 2 || !ok {
		return dst, 1, errInvalidParams, msgTraceBlockParams
	}
	if !traceConfig(param(r.params, 1)) {
		return dst, 1, errInvalidParams, msgTraceConfig
	}
	if num > head {
		r.detail = strconv.AppendUint(r.detail, num, 10)
		r.detail = append(r.detail, notFoundTail...)
		return dst, 1, errServer, msgBlockNumPrefix
	}
	if code, msg := n.traceable(num, head); code != errNone {
		return dst, 1, code, msg
	}
	count := ethTxCount(num)
	dst = append(dst, '[')
	for i := range count {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"txHash":`...)
		dst = appendHash32(dst, dEthTx, num<<8|i)
		dst = append(dst, `,"result":`...)
		dst = appendCallFrame(dst, ethTxAt(num, i))
		dst = append(dst, '}')
	}
	return append(dst, ']'), traceItems * max(int(count), 1), errNone, ""
}

// appendCallFrame writes tx's call as geth's callTracer does, in its field order: a plain
// CALL of a wallet or a token contract, which returns true.
func appendCallFrame(dst []byte, tx ethTx) []byte {
	dst = append(dst, '{')
	dst = appendFromGas(dst, tx)
	dst = append(dst, `,"gasUsed":`...)
	dst = appendHexQuantity(dst, tx.gasUsed())
	dst = append(dst, `,"to":`...)
	dst = appendTxTo(dst, tx)
	dst = append(dst, `,"input":`...)
	dst = appendTxInput(dst, tx)
	if tx.token >= 0 {
		dst = append(dst, `,"output":`+transferOK+`,"value":"0x0"`...)
	} else {
		dst = append(dst, `,"value":`...)
		dst = appendHexQuantity(dst, tx.amount)
	}
	return append(dst, `,"type":"CALL"}`...)
}
