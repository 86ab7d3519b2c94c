package mocknode

import (
	"strconv"

	"github.com/valyala/fastjson"
)

// eth_getLogs over the fake chain: the Transfer logs of the token calls in a block range (or
// one block by hash), filtered by address and topics with geth's rules, up to a result cap
// answered as providers answer it.

const (
	// maxLogResults is the result cap; past it the answer is Infura's and Erigon's -32005
	// "query returned more than 10000 results", which clients split their range on.
	maxLogResults = 10_000
	// maxLogRange is the widest block range, answered like geth's --rpc.rangelimit: it keeps
	// one call's scan (every transaction of every block) bounded.
	maxLogRange = 100_000
	// maxTopicPositions and maxTopicValues are geth's limits on a filter's topics.
	maxTopicPositions = 4
	maxTopicValues    = 1000
	// transferTopicWords is how many topics a Transfer log of ERC-20 has.
	transferTopicWords = 3
)

const (
	msgLogFilter    = `Invalid params: params[0] must be a filter {\"fromBlock\", \"toBlock\", \"address\", \"topics\"} or {\"blockHash\", \"address\", \"topics\"}`
	msgLogBoth      = "cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other" // geth's words
	msgLogAddress   = "Invalid params: address must be an address or a list of them: 0x followed by 40 hex digits"
	msgLogTopics    = "Invalid params: topics must be a list of up to 4 positions, each null, a 32-byte hash or a list of them"
	msgLogTooMany   = "exceed max topics" // geth's words
	msgLogRange     = "invalid block range params"
	msgLogMaxRange  = "exceed maximum block range 100000" // geth's words, with maxLogRange
	msgLogResults   = "query returned more than "         // the cap and " results" follow
	msgUnknownBlock = "unknown block"
)

// logFilter is an eth_getLogs filter as the fake chain can match it: which token contracts
// the addresses name, and per topic position which values that can occur.
type logFilter struct {
	from, to  uint64
	anyToken  bool
	tokens    [ethTokens]bool
	positions int // how many topic positions the filter has
	topics    [maxTopicPositions]topicSet
}

// topicSet is the values a topic position accepts.
type topicSet struct {
	any      bool     // null or an empty list: every value
	transfer bool     // the Transfer event's topic is in the set
	wallets  []uint64 // the chain's wallets whose address word is in the set; kept between calls
}

// ethGetLogs: params [filter].
func (n *Node) ethGetLogs(dst []byte, r *req) ([]byte, int, errCode, string) {
	f := &r.logs
	if code, msg := n.readLogFilter(f, r); code != errNone {
		return dst, 1, code, msg
	}
	dst = append(dst, '[')
	found := 0
	for b := f.from; b <= f.to; b++ {
		logIndex := uint64(0)
		for i := range ethTxCount(b) {
			tx := ethTxAt(b, i)
			if tx.token < 0 {
				continue
			}
			if f.matches(tx) {
				if found == n.maxLogs {
					r.detail = strconv.AppendInt(r.detail, int64(n.maxLogs), 10)
					r.detail = append(r.detail, " results"...)
					return dst, 1, errLimitExceeded, msgLogResults
				}
				if found > 0 {
					dst = append(dst, ',')
				}
				dst = appendEthLog(dst, tx, logIndex)
				found++
			}
			logIndex++
		}
	}
	return append(dst, ']'), max(found, 1), errNone, ""
}

// matches reports whether tx's Transfer log passes the filter.
func (f *logFilter) matches(tx ethTx) bool {
	if !f.anyToken && !f.tokens[tx.token] {
		return false
	}
	if f.positions > transferTopicWords { // geth: a filter longer than a log's topics never matches
		return false
	}
	for p := range f.positions {
		t := &f.topics[p]
		switch {
		case t.any:
		case p == 0:
			if !t.transfer {
				return false
			}
		case p == 1 && !hasWallet(t.wallets, tx.from), p == 2 && !hasWallet(t.wallets, tx.to):
			return false
		}
	}
	return true
}

func hasWallet(ws []uint64, w uint64) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// readLogFilter reads params[0] into f, resolving the block range against the head.
func (n *Node) readLogFilter(f *logFilter, r *req) (errCode, string) {
	obj := param(r.params, 0)
	if paramCount(r.params) != 1 || obj == nil || obj.Type() != fastjson.TypeObject {
		return errInvalidParams, msgLogFilter
	}
	if code, msg := n.readLogRange(f, obj, n.ethBlock(r.now)); code != errNone {
		return code, msg
	}
	if !f.readAddresses(obj.Get("address")) {
		return errInvalidParams, msgLogAddress
	}
	return f.readTopics(obj.Get("topics"))
}

// readLogRange reads blockHash, or fromBlock and toBlock (latest when absent); a range past
// the head ends at it, as the blocks beyond have no logs yet.
func (n *Node) readLogRange(f *logFilter, obj *fastjson.Value, head uint64) (errCode, string) {
	from, to, hash := obj.Get("fromBlock"), obj.Get("toBlock"), obj.Get("blockHash")
	if hash != nil {
		if from != nil || to != nil {
			return errInvalidParams, msgLogBoth
		}
		h := stringParam(hash)
		if !isHexHash(h) {
			return errInvalidParams, msgLogFilter
		}
		num, ok := parseHash32(h, dEthBlock)
		if !ok || num > head {
			return errServer, msgUnknownBlock
		}
		f.from, f.to = num, num
		return errNone, ""
	}
	f.from, f.to = head, head
	var ok bool
	if from != nil {
		if f.from, ok = blockParam(stringParam(from), head); !ok {
			return errInvalidParams, msgLogFilter
		}
	}
	if to != nil {
		if f.to, ok = blockParam(stringParam(to), head); !ok {
			return errInvalidParams, msgLogFilter
		}
	}
	switch {
	case f.from > f.to:
		return errInvalidParams, msgLogRange
	case f.to-f.from > maxLogRange: // geth compares end − begin, so a range may hold one block more
		return errInvalidParams, msgLogMaxRange
	}
	f.to = min(f.to, head) // from > head leaves an empty range
	return errNone, ""
}

// readAddresses reads the address filter: absent or null is every address; an address or a
// list of them keeps the token contracts among them (others emit nothing here).
func (f *logFilter) readAddresses(v *fastjson.Value) bool {
	f.tokens = [ethTokens]bool{}
	f.anyToken = v == nil || v.Type() == fastjson.TypeNull
	if f.anyToken {
		return true
	}
	if v.Type() == fastjson.TypeString {
		return f.addAddress(v)
	}
	if v.Type() != fastjson.TypeArray {
		return false
	}
	for _, a := range v.GetArray() {
		if !f.addAddress(a) {
			return false
		}
	}
	return true
}

func (f *logFilter) addAddress(v *fastjson.Value) bool {
	a := stringParam(v)
	if !isEthAddress(a) {
		return false
	}
	if d, i, ok := parseEthAddress(a); ok && d == dEthToken && i < ethTokens {
		f.tokens[i] = true
	}
	return true
}

// readTopics reads the topics filter: per position null, a hash, or a list of hashes.
func (f *logFilter) readTopics(v *fastjson.Value) (errCode, string) {
	f.positions = 0
	if v == nil || v.Type() == fastjson.TypeNull {
		return errNone, ""
	}
	if v.Type() != fastjson.TypeArray {
		return errInvalidParams, msgLogTopics
	}
	positions := v.GetArray()
	if len(positions) > maxTopicPositions {
		return errInvalidParams, msgLogTooMany
	}
	f.positions = len(positions)
	for p, pv := range positions {
		t := &f.topics[p]
		t.any, t.transfer, t.wallets = false, false, t.wallets[:0]
		switch pv.Type() {
		case fastjson.TypeNull:
			t.any = true
		case fastjson.TypeString:
			if !t.add(p, pv) {
				return errInvalidParams, msgLogTopics
			}
		case fastjson.TypeArray:
			values := pv.GetArray()
			if len(values) > maxTopicValues {
				return errInvalidParams, msgLogTooMany
			}
			t.any = len(values) == 0 // geth: an empty list at a position is a wildcard
			for _, tv := range values {
				if !t.add(p, tv) {
					return errInvalidParams, msgLogTopics
				}
			}
		default:
			return errInvalidParams, msgLogTopics
		}
	}
	return errNone, ""
}

// add puts one topic value of position p in the set; values that occur in no log of the
// chain are valid but match nothing.
func (t *topicSet) add(p int, v *fastjson.Value) bool {
	h := stringParam(v)
	if !isHexHash(h) {
		return false
	}
	if p == 0 {
		t.transfer = t.transfer || equalHexFold(h, transferTopic)
		return true
	}
	if string(h[2:26]) != zeroHex64[:24] {
		return true
	}
	if d, w, ok := parseEthAddressHex(h[26:]); ok && d == dEthWallet && w < ethWallets {
		t.wallets = append(t.wallets, w)
	}
	return true
}

// equalHexFold compares hex text in any case to s, written in lower case; strings.EqualFold
// would need the bytes as a string, an allocation per topic.
func equalHexFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i, c := range b {
		if c >= 'A' && c <= 'F' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}
