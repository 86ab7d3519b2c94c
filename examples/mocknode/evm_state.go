package mocknode

import (
	"strconv"

	"github.com/valyala/fastjson"
)

// State queries: balances, nonces, code and calls at a block. A pruned node (Config.Retain)
// keeps state for the last Retain blocks only and answers older ones as geth does, fast and
// with an error, which a load test must not mistake for a quick answer.

const (
	msgHeaderMissing = "header not found"   // geth's answer for state beyond the head
	msgMissingTrie   = "missing trie node " // geth's answer for pruned state; the root and path follow
	trieNodeTail     = " (path ) <nil>"     // the rest of geth's MissingNodeError text
	// ethTokenCode is the token contracts' code: a solc preamble, enough to tell a contract
	// from a wallet (whose code is "0x").
	ethTokenCode = `"0x6080604052348015600f57600080fd5b506004361060465760003560e01c806370a0823114604b578063a9059cbb14606f575b600080fd5b"`
	maxFeeBlocks = 1024 // geth's cap on eth_feeHistory's blockCount
	maxFeeRanks  = 100  // reward percentiles per call
)

// stateBlock reads the block a state query asks about (params[i]; absent is latest) and
// checks the node still has its state: beyond the head is geth's "header not found", older
// than the retention window its "missing trie node" with the block's state root.
func (n *Node) stateBlock(r *req, i int) (uint64, errCode, string) {
	head := n.ethBlock(r.now)
	num := head
	if p := param(r.params, i); p != nil {
		var ok bool
		if num, ok = blockParam(stringParam(p), head); !ok {
			return 0, errInvalidParams, msgEthStateBlock
		}
	}
	switch {
	case num > head:
		return 0, errServer, msgHeaderMissing
	case n.cfg.Retain > 0 && num+uint64(n.cfg.Retain) < head:
		r.detail = appendHashHex(r.detail, dEthRoot, num)
		r.detail = append(r.detail, trieNodeTail...)
		return 0, errServer, msgMissingTrie
	}
	return num, errNone, ""
}

// ethAccountState answers eth_getBalance, eth_getTransactionCount and eth_getCode: params
// [address, block?]. Balances and nonces are a function of the address (in any case), the
// same at every block; the token contracts have code, every other address none.
func (n *Node) ethAccountState(dst []byte, m method, r *req) ([]byte, int, errCode, string) {
	addr := stringParam(param(r.params, 0))
	if c := paramCount(r.params); c < 1 || c > 2 || !isEthAddress(addr) {
		return dst, 1, errInvalidParams, msgEthAddress
	}
	if _, code, msg := n.stateBlock(r, 1); code != errNone {
		return dst, 1, code, msg
	}
	switch m {
	case mEthGetBalance:
		return appendHexQuantity(dst, ethAddrHash(addr)%maxWei), 1, errNone, ""
	case mEthGetTransactionCount:
		return appendHexQuantity(dst, splitmix(ethAddrHash(addr))%100_000), 1, errNone, ""
	}
	if d, i, ok := parseEthAddress(addr); ok && d == dEthToken && i < ethTokens {
		return append(dst, ethTokenCode...), 1, errNone, ""
	}
	return append(dst, `"0x"`...), 1, errNone, ""
}

// ethCall: params [{to, data or input}, block?]. The token contracts answer balanceOf(holder)
// (a stable balance for the chain's wallets, 0 for other addresses), decimals() and
// totalSupply(); every other call answers "0x", as a call to an address without code does.
func (n *Node) ethCall(dst []byte, r *req) ([]byte, int, errCode, string) {
	obj := param(r.params, 0)
	if c := paramCount(r.params); c < 1 || c > 2 || obj == nil || obj.Type() != fastjson.TypeObject {
		return dst, 1, errInvalidParams, msgEthCallObject
	}
	to := obj.Get("to")
	data := obj.Get("input") // geth prefers input when both are given
	if data == nil {
		data = obj.Get("data")
	}
	toAddr, input := stringParam(to), stringParam(data)
	if (to != nil && to.Type() != fastjson.TypeNull && !isEthAddress(toAddr)) ||
		(data != nil && (len(input) < 2 || input[0] != '0' || input[1] != 'x')) {
		return dst, 1, errInvalidParams, msgEthCallObject
	}
	if _, code, msg := n.stateBlock(r, 1); code != errNone {
		return dst, 1, code, msg
	}
	d, token, ok := parseEthAddress(toAddr)
	if !ok || d != dEthToken || token >= ethTokens || len(input) < 10 {
		return append(dst, `"0x"`...), 1, errNone, ""
	}
	var word uint64
	switch sel, args := input[2:10], input[10:]; {
	case equalHexFold(sel, selBalanceOf) && len(args) == 64:
		if hd, holder, ok := parseEthAddressHex(args[24:]); ok && hd == dEthWallet && string(args[:24]) == zeroHex64[:24] {
			word = tokenBalance(token, holder)
		}
	case equalHexFold(sel, selDecimals):
		word = 18
	case equalHexFold(sel, selTotalSupply):
		word = 1 << 63 // more than any balance: the node does not add them up
	default:
		return append(dst, `"0x"`...), 1, errNone, ""
	}
	dst = append(dst, `"0x`...)
	return append(appendHex64(dst, word), '"'), 1, errNone, ""
}

// ethFeeHistory: params [blockCount, newestBlock, rewardPercentiles?]; base fees of the blocks
// and the one after, how full each was, and a tip per percentile rising with it.
func (n *Node) ethFeeHistory(dst []byte, r *req) ([]byte, int, errCode, string) {
	count, ok := quantityParam(param(r.params, 0))
	head := n.ethBlock(r.now)
	newest, okNewest := blockParam(stringParam(param(r.params, 1)), head)
	ranks := param(r.params, 2)
	if c := paramCount(r.params); c < 2 || c > 3 || !ok || !okNewest || count < 1 || count > maxFeeBlocks || !validRanks(ranks) {
		return dst, 1, errInvalidParams, msgEthFeeHistory
	}
	if newest > head {
		return dst, 1, errServer, msgBeyondHead
	}
	oldest := newest + 1 - min(count, newest+1)
	dst = append(dst, `{"oldestBlock":`...)
	dst = appendHexQuantity(dst, oldest)
	dst = append(dst, `,"baseFeePerGas":[`...)
	for b := oldest; b <= newest+1; b++ {
		if b > oldest {
			dst = append(dst, ',')
		}
		dst = appendHexQuantity(dst, ethBaseFee(b))
	}
	dst = append(dst, `],"gasUsedRatio":[`...)
	for b := oldest; b <= newest; b++ {
		if b > oldest {
			dst = append(dst, ',')
		}
		gas, _ := ethBlockGas(b)
		dst = strconv.AppendFloat(dst, float64(gas)/ethGasLimit, 'g', -1, 64)
	}
	dst = append(dst, ']')
	if ranks != nil && ranks.Type() == fastjson.TypeArray {
		dst = appendRewards(dst, oldest, newest, ranks.GetArray())
	}
	return append(dst, '}'), int(newest - oldest + 1), errNone, ""
}

// appendRewards writes eth_feeHistory's reward: per block, a tip per percentile, rising with it.
func appendRewards(dst []byte, oldest, newest uint64, ranks []*fastjson.Value) []byte {
	dst = append(dst, `,"reward":[`...)
	for b := oldest; b <= newest; b++ {
		if b > oldest {
			dst = append(dst, ',')
		}
		low := splitmix(dEthFee.key(b)^1) % gwei
		dst = append(dst, '[')
		for i, p := range ranks {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendHexQuantity(dst, low+uint64(p.GetFloat64()*gwei/50))
		}
		dst = append(dst, ']')
	}
	return append(dst, ']')
}

// validRanks checks eth_feeHistory's percentiles: absent, or at most maxFeeRanks numbers from
// 0 to 100 in ascending order, as geth requires.
func validRanks(v *fastjson.Value) bool {
	if v == nil || v.Type() == fastjson.TypeNull {
		return true
	}
	if v.Type() != fastjson.TypeArray || len(v.GetArray()) > maxFeeRanks {
		return false
	}
	last := 0.0
	for _, p := range v.GetArray() {
		if p.Type() != fastjson.TypeNumber {
			return false
		}
		f := p.GetFloat64()
		if f < last || f > 100 {
			return false
		}
		last = f
	}
	return true
}

// quantityParam reads a count written as a JSON number or a 0x quantity, as geth takes both.
func quantityParam(v *fastjson.Value) (uint64, bool) {
	if v != nil && v.Type() == fastjson.TypeString {
		return parseHexQuantity(stringParam(v))
	}
	return uintParam(v)
}
