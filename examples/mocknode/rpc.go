package mocknode

import (
	"encoding/json"
	"time"

	"github.com/valyala/fastjson"
)

// method is a JSON-RPC method the node knows; the index of its counter.
type method int

const (
	mGetBalance method = iota
	mGetSlot
	mGetBlocks
	mGetGenesisHash
	mGetFirstAvailableBlock
	mGetBlock
	mGetTransaction
	mGetSignaturesForAddress
	mGetAccountInfo
	mGetLatestBlockhash
	mGetProgramAccounts
	mGetSignatureStatuses
	mGetBlockHeight
	mGetBlockTime
	mGetEpochInfo
	mGetBlocksWithLimit
	mGetMultipleAccounts
	mGetTokenAccountsByOwner
	mEthChainID
	mEthBlockNumber
	mEthGetBalance
	mEthGetBlockByNumber
	mEthGetBlockByHash
	mEthGetTransactionByHash
	mEthGetTransactionReceipt
	mEthGetLogs
	mEthCall
	mEthGetCode
	mEthGetTransactionCount
	mEthGasPrice
	mEthFeeHistory
	mEthGetBlockReceipts
	mDebugTraceTransaction
	mDebugTraceBlockByNumber
	mDebugStorageRangeAt
	mOther // any method the node does not know: one bucket, so hostile names cannot grow memory
	// The subscription methods, served over WebSocket only (ws_subscribe.go): after mOther, so
	// that over HTTP they are unknown, as on a node that serves notifications only there.
	mEthSubscribe
	mEthUnsubscribe
	mSlotSubscribe
	mSlotUnsubscribe
	numMethods
)

// methodName is the name of m, as requests call it and /stats reports it. It is the one list
// of names: the node's lookup table is built from it.
func methodName(m method) string {
	// Keyed by method: mOther has no entry, so it (and anything past the table) reads "other".
	names := [numMethods]string{
		mGetBalance:               "getBalance",
		mGetSlot:                  "getSlot",
		mGetBlocks:                "getBlocks",
		mGetGenesisHash:           "getGenesisHash",
		mGetFirstAvailableBlock:   "getFirstAvailableBlock",
		mGetBlock:                 "getBlock",
		mGetTransaction:           "getTransaction",
		mGetSignaturesForAddress:  "getSignaturesForAddress",
		mGetAccountInfo:           "getAccountInfo",
		mGetLatestBlockhash:       "getLatestBlockhash",
		mGetProgramAccounts:       "getProgramAccounts",
		mGetSignatureStatuses:     "getSignatureStatuses",
		mGetBlockHeight:           "getBlockHeight",
		mGetBlockTime:             "getBlockTime",
		mGetEpochInfo:             "getEpochInfo",
		mGetBlocksWithLimit:       "getBlocksWithLimit",
		mGetMultipleAccounts:      "getMultipleAccounts",
		mGetTokenAccountsByOwner:  "getTokenAccountsByOwner",
		mEthChainID:               "eth_chainId",
		mEthBlockNumber:           "eth_blockNumber",
		mEthGetBalance:            "eth_getBalance",
		mEthGetBlockByNumber:      "eth_getBlockByNumber",
		mEthGetBlockByHash:        "eth_getBlockByHash",
		mEthGetTransactionByHash:  "eth_getTransactionByHash",
		mEthGetTransactionReceipt: "eth_getTransactionReceipt",
		mEthGetLogs:               "eth_getLogs",
		mEthCall:                  "eth_call",
		mEthGetCode:               "eth_getCode",
		mEthGetTransactionCount:   "eth_getTransactionCount",
		mEthGasPrice:              "eth_gasPrice",
		mEthFeeHistory:            "eth_feeHistory",
		mEthGetBlockReceipts:      "eth_getBlockReceipts",
		mDebugTraceTransaction:    "debug_traceTransaction",
		mDebugTraceBlockByNumber:  "debug_traceBlockByNumber",
		mDebugStorageRangeAt:      "debug_storageRangeAt",
		mEthSubscribe:             "eth_subscribe",
		mEthUnsubscribe:           "eth_unsubscribe",
		mSlotSubscribe:            "slotSubscribe",
		mSlotUnsubscribe:          "slotUnsubscribe",
	}
	if m < numMethods && names[m] != "" {
		return names[m]
	}
	return "other"
}

// methodTable maps every known method's name to its index.
func methodTable() map[string]method {
	t := make(map[string]method, numMethods)
	for m := range mOther {
		t[methodName(m)] = m
	}
	return t
}

// lookupMethod maps a method name to its index; indexing a map with string(name) does not
// allocate.
func (n *Node) lookupMethod(name []byte) method {
	if m, ok := n.methods[string(name)]; ok {
		return m
	}
	return mOther
}

// errCode is a JSON-RPC error the node answers; the index of its counter.
type errCode int

const (
	errNone errCode = -1
)

const (
	errParse errCode = iota
	errInvalidRequest
	errMethodNotFound
	errInvalidParams
	errInternal
	errServer            // -32000: geth's code for a request it cannot serve (missing state, unknown block)
	errLimitExceeded     // -32005: a result over the node's limit (eth_getLogs)
	errBlockCleanedUp    // -32001: Solana: a slot older than the ledger the node keeps
	errBlockNotAvailable // -32004: Solana: a slot beyond the head
	errSlotSkipped       // -32007: Solana: a slot without a block
	numCodes
)

// codeText is the code of e as written in an answer, ready to append; the one list of codes.
func codeText(e errCode) string {
	switch e {
	case errParse:
		return "-32700"
	case errInvalidRequest:
		return "-32600"
	case errMethodNotFound:
		return "-32601"
	case errInvalidParams:
		return "-32602"
	case errServer:
		return "-32000"
	case errLimitExceeded:
		return "-32005"
	case errBlockCleanedUp:
		return "-32001"
	case errBlockNotAvailable:
		return "-32004"
	case errSlotSkipped:
		return "-32007"
	}
	return "-32603" // errInternal
}

// Messages are constants, so error answers cost no allocation either.
const (
	msgParse           = "Parse error"
	msgMethodNotFound  = "Method not found"
	msgEmptyBatch      = "Invalid request: empty batch"
	msgNotObject       = "Invalid request: a call must be a JSON object"
	msgNoMethod        = "Invalid request: method must be a string"
	msgBadID           = "Invalid request: id must be a number, a string or null"
	msgTooLarge        = "Internal error: answer too large; split the batch"
	resultHead         = `{"jsonrpc":"2.0","result":`
	errorHead          = `{"jsonrpc":"2.0","error":{"code":`
	errorMessageHead   = `,"message":"`
	idHead             = `,"id":`
	idHeadAfterMessage = `"},"id":`
)

// scratch is one request's working memory, pooled so the common path allocates nothing.
type scratch struct {
	parser fastjson.Parser
	out    []byte // the answer body
	id     []byte // the current call's id, as written in the request
	req    req    // the current call as its method sees it
	tally  tally
}

// req is one call as a method sees it: its params, the time it reached the node, and room
// for what the method needs besides the answer.
type req struct {
	params *fastjson.Value
	now    time.Time
	// detail is the variable part of an error message (a slot, a hash), written after the
	// method's constant message, so errors cost no allocation either.
	detail []byte
	logs   logFilter // eth_getLogs's filter, kept to reuse its lists
}

// maxAnswerBytes bounds one HTTP answer: a batch of large getBlocks ranges could otherwise ask
// for gigabytes. Calls after the answer has grown past it get a -32603 error each, as geth
// does with its batch response limit.
const maxAnswerBytes = 64 << 20

// maxPooledBuffer keeps a pooled scratch from pinning the memory of one huge answer (a
// 500,000-slot getBlocks is about 5 MB).
const maxPooledBuffer = 1 << 20

// answer parses body and writes the JSON-RPC answer to s.out, tallying the calls.
func (n *Node) answer(s *scratch, body []byte, now time.Time) {
	s.out = s.out[:0]
	s.req.detail = s.req.detail[:0]
	v, err := s.parser.ParseBytes(body)
	if err != nil {
		s.out = s.errorAnswer(s.out, nil, errParse, msgParse)
		return
	}
	switch v.Type() {
	case fastjson.TypeObject:
		s.out = n.call(s, s.out, v, now)
	case fastjson.TypeArray:
		calls := v.GetArray()
		if len(calls) == 0 {
			s.out = s.errorAnswer(s.out, nil, errInvalidRequest, msgEmptyBatch)
			return
		}
		s.out = append(s.out, '[')
		for i, c := range calls {
			if i > 0 {
				s.out = append(s.out, ',')
			}
			s.out = n.call(s, s.out, c, now)
		}
		s.out = append(s.out, ']')
	default:
		s.out = s.errorAnswer(s.out, nil, errInvalidRequest, msgNotObject)
	}
}

// call answers one JSON-RPC call v, appending to dst.
//
// Calls without an id (notifications) are answered too, with id null: a load tester counts
// answers, and a silent node would look like a lost request.
func (n *Node) call(s *scratch, dst []byte, v *fastjson.Value, now time.Time) []byte {
	if v.Type() != fastjson.TypeObject {
		return s.errorAnswer(dst, nil, errInvalidRequest, msgNotObject)
	}
	id, ok := s.readID(v.Get("id"))
	if !ok {
		return s.errorAnswer(dst, nil, errInvalidRequest, msgBadID)
	}
	mv := v.Get("method")
	if mv == nil || mv.Type() != fastjson.TypeString {
		return s.errorAnswer(dst, id, errInvalidRequest, msgNoMethod)
	}
	name, _ := mv.StringBytes() // cannot fail: the type is string
	m := n.lookupMethod(name)
	s.tally.methods[m]++
	if m == mOther {
		return s.errorAnswer(dst, id, errMethodNotFound, msgMethodNotFound)
	}

	if len(dst) > n.maxAnswer {
		return s.errorAnswer(dst, id, errInternal, msgTooLarge)
	}
	mark := len(dst)
	dst = append(dst, resultHead...)
	s.req.params, s.req.now, s.req.detail = v.Get("params"), now, s.req.detail[:0]
	dst, items, code, msg := n.result(dst, m, &s.req)
	if code != errNone {
		return s.errorAnswer(dst[:mark], id, code, msg)
	}
	s.tally.calls++
	s.tally.items += max(items, 1)
	dst = append(dst, idHead...)
	dst = append(dst, id...)
	return append(dst, '}')
}

// errorAnswer appends a JSON-RPC error answer with the given id (nil writes null) and tallies
// it as one call.
func (s *scratch) errorAnswer(dst, id []byte, code errCode, msg string) []byte {
	s.tally.calls++
	s.tally.items++
	s.tally.errors[code]++
	dst = append(dst, errorHead...)
	dst = append(dst, codeText(code)...)
	dst = append(dst, errorMessageHead...)
	dst = append(dst, msg...)
	dst = append(dst, s.req.detail...)
	s.req.detail = s.req.detail[:0] // a later error of the batch has its own
	dst = append(dst, idHeadAfterMessage...)
	if id == nil {
		return append(dst, "null}"...)
	}
	dst = append(dst, id...)
	return append(dst, '}')
}

// readID returns the call's id exactly as the request wrote it (null when absent), or false
// when it is not a number, a string or null. The raw text is echoed rather than re-encoded so
// that "id":"a\u00e9" comes back byte for byte; numbers are checked against JSON's grammar
// (encoding/json's, which allocates only to report an invalid one) because fastjson also
// accepts NaN, inf and 1.2.3, which must not be echoed into an answer.
func (s *scratch) readID(v *fastjson.Value) ([]byte, bool) {
	s.id = s.id[:0]
	if v == nil {
		s.id = append(s.id, "null"...)
		return s.id, true
	}
	s.id = v.MarshalTo(s.id) // a raw string is written as given, quotes included
	switch c := s.id[0]; {
	case c == '"', c == 'n' && string(s.id) == "null":
		return s.id, true
	case c == '-' || (c >= '0' && c <= '9'):
		return s.id, json.Valid(s.id) // starting with - or a digit, a valid value is a number
	}
	return nil, false
}
