package mocknode

import (
	"strconv"
	"time"

	"github.com/valyala/fastjson"
)

// The chains the node pretends to follow. Heights grow with the node's clock at their real
// block times, from plausible mainnet heights, so clients see numbers of the right size.
const (
	solanaFirstSlot  = 300_000_000
	solanaSlotTime   = 400 * time.Millisecond
	ethFirstBlock    = 20_000_000
	ethBlockTime     = 12 * time.Second
	ethGenesisTime   = 1_438_269_973 // seconds; timestamps are genesis + 12 s per block
	maxBlocksPerCall = 500_000       // Solana's getBlocks range limit; longer ranges are capped
	maxLamports      = 1_000_000_000_000
	maxWei           = 10_000_000_000_000_000_000
)

const (
	msgBalanceParams = "Invalid params: params[0] must be a base58 account address of 32 to 44 characters"
	msgBlocksParams  = "Invalid params: expected [start_slot] or [start_slot, end_slot] as non-negative integers"
	msgEthAddress    = "Invalid params: params[0] must be an address: 0x followed by 40 hex digits"
	msgEthBlockParam = "Invalid params: params[0] must be a block number (0x…) or a tag (latest, earliest, pending, safe, finalized)"
	msgEthFullTx     = "Invalid params: params[1] must be a boolean"
)

// result appends the result of method m (known to the node) to dst, or reports an error, in
// which case whatever was appended is discarded by the caller. items is the per-item cost of
// the call for the latency model.
func (n *Node) result(dst []byte, m method, params *fastjson.Value, now time.Time) (_ []byte, items int, code errCode, msg string) {
	switch m {
	case mGetBalance:
		return n.getBalance(dst, params, now)
	case mGetSlot:
		return strconv.AppendUint(dst, n.slot(now), 10), 1, errNone, ""
	case mGetBlocks:
		return n.getBlocks(dst, params, now)
	case mEthBlockNumber:
		return appendHexQuantity(dst, n.ethBlock(now)), 1, errNone, ""
	case mEthGetBalance:
		return ethGetBalance(dst, params)
	case mEthGetBlockByNumber:
		return n.ethGetBlockByNumber(dst, params, now)
	}
	return dst, 1, errMethodNotFound, msgMethodNotFound
}

// slot is the Solana slot at now.
func (n *Node) slot(now time.Time) uint64 {
	return solanaFirstSlot + uint64(max(now.Sub(n.epoch), 0)/solanaSlotTime)
}

// ethBlock is the Ethereum block number at now.
func (n *Node) ethBlock(now time.Time) uint64 {
	return ethFirstBlock + uint64(max(now.Sub(n.epoch), 0)/ethBlockTime)
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

// getBalance: params [address, config?]; the balance is a pure function of the address, so
// repeated runs see the same numbers.
func (n *Node) getBalance(dst []byte, params *fastjson.Value, now time.Time) ([]byte, int, errCode, string) {
	addr := stringParam(param(params, 0))
	if !isBase58Address(addr) {
		return dst, 1, errInvalidParams, msgBalanceParams
	}
	dst = append(dst, `{"context":{"slot":`...)
	dst = strconv.AppendUint(dst, n.slot(now), 10)
	dst = append(dst, `},"value":`...)
	dst = strconv.AppendUint(dst, fnv1a(addr)%maxLamports, 10)
	return append(dst, '}'), 1, errNone, ""
}

// getBlocks: params [start, end?, config?]; answers the slots start…end (end defaults to the
// current slot), at most maxBlocksPerCall of them. Each slot is one item of latency.
func (n *Node) getBlocks(dst []byte, params *fastjson.Value, now time.Time) ([]byte, int, errCode, string) {
	count := paramCount(params)
	if count < 1 || count > 3 {
		return dst, 1, errInvalidParams, msgBlocksParams
	}
	start, ok := uintParam(param(params, 0))
	if !ok {
		return dst, 1, errInvalidParams, msgBlocksParams
	}
	end := n.slot(now)
	if p := param(params, 1); p != nil && p.Type() != fastjson.TypeObject { // [start, config] is allowed
		if end, ok = uintParam(p); !ok {
			return dst, 1, errInvalidParams, msgBlocksParams
		}
	}
	dst = append(dst, '[')
	if end < start {
		return append(dst, ']'), 1, errNone, ""
	}
	length := uint64(maxBlocksPerCall)
	if span := end - start; span < maxBlocksPerCall-1 { // written so that end−start+1 cannot overflow
		length = span + 1
	}
	for i := range length {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendUint(dst, start+i, 10)
	}
	return append(dst, ']'), int(length), errNone, ""
}

// ethGetBalance: params [address, block?]; the balance in wei is a pure function of the
// address (lower-cased, so checksummed and plain spellings agree).
func ethGetBalance(dst []byte, params *fastjson.Value) ([]byte, int, errCode, string) {
	addr := stringParam(param(params, 0))
	if !isEthAddress(addr) {
		return dst, 1, errInvalidParams, msgEthAddress
	}
	h := uint64(14695981039346656037)
	for _, c := range addr {
		if c >= 'A' && c <= 'F' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return appendHexQuantity(dst, h%maxWei), 1, errNone, ""
}

// ethGetBlockByNumber: params [number or tag, fullTransactions?]; answers a small block with
// no transactions, or null beyond the head, as geth does.
func (n *Node) ethGetBlockByNumber(dst []byte, params *fastjson.Value, now time.Time) ([]byte, int, errCode, string) {
	if c := paramCount(params); c < 1 || c > 2 {
		return dst, 1, errInvalidParams, msgEthBlockParam
	}
	head := n.ethBlock(now)
	num, ok := blockParam(stringParam(param(params, 0)), head)
	if !ok {
		return dst, 1, errInvalidParams, msgEthBlockParam
	}
	if p := param(params, 1); p != nil && p.Type() != fastjson.TypeTrue && p.Type() != fastjson.TypeFalse {
		return dst, 1, errInvalidParams, msgEthFullTx
	}
	if num > head {
		return append(dst, "null"...), 1, errNone, ""
	}
	dst = append(dst, `{"number":`...)
	dst = appendHexQuantity(dst, num)
	dst = append(dst, `,"hash":`...)
	dst = appendHash(dst, num)
	dst = append(dst, `,"parentHash":`...)
	dst = appendHash(dst, num-1) // block 0's parent hash is as made up as the rest
	dst = append(dst, `,"timestamp":`...)
	dst = appendHexQuantity(dst, ethGenesisTime+num*uint64(ethBlockTime/time.Second))
	dst = append(dst, `,"miner":"0x0000000000000000000000000000000000000000","gasLimit":"0x1c9c380","gasUsed":"0x0","baseFeePerGas":"0x3b9aca00","transactions":[],"uncles":[]}`...)
	return dst, 1, errNone, ""
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

// appendHash writes a made-up but stable 32-byte hash of block num.
func appendHash(dst []byte, num uint64) []byte {
	dst = append(dst, `"0x`...)
	x := num
	for range 4 {
		x = splitmix(x)
		for shift := 60; shift >= 0; shift -= 4 {
			dst = append(dst, "0123456789abcdef"[(x>>uint(shift))&0xf])
		}
	}
	return append(dst, '"')
}

// splitmix is one step of SplitMix64: a cheap, well-mixed hash of a counter.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
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
	if len(b) < 32 || len(b) > 44 {
		return false
	}
	for _, c := range b {
		switch {
		case c >= '1' && c <= '9':
		case c >= 'A' && c <= 'Z' && c != 'I' && c != 'O':
		case c >= 'a' && c <= 'z' && c != 'l':
		default:
			return false
		}
	}
	return true
}

// isEthAddress reports whether b is 0x followed by 40 hex digits (any case; the EIP-55
// checksum is not checked, as most nodes don't).
func isEthAddress(b []byte) bool {
	if len(b) != 42 || b[0] != '0' || (b[1] != 'x' && b[1] != 'X') {
		return false
	}
	for _, c := range b[2:] {
		if _, ok := hexDigit(c); !ok {
			return false
		}
	}
	return true
}
