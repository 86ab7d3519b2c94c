package mocknode

import "strconv"

// debug_storageRangeAt over the fake chain: a token contract's storage is its balances, one
// slot per wallet; a wallet has none. geth lists slots in the order of their hashed keys, so
// the hashed key of wallet i's slot starts with i×storageStep: ascending in i, and a start
// key maps back to the first wallet at or after it without a table. The preimage ("key") is
// null, as geth writes it without --cache.preimages, its default.

const (
	storageStep = (1<<64 - 1) / ethWallets

	msgStorageParams = "Invalid params: expected [block hash, transaction index, contract address, start key (0x followed by 64 hex digits), max results] with the index and max results non-negative integers"
	msgTxIndexPrefix = "transaction index "
	outOfRangeTail   = " out of range for block 0x"
	msgBlockPrefix   = "block 0x"
)

// storageQuery is a debug_storageRangeAt call's parameters.
type storageQuery struct {
	block, txIndex uint64
	contract       domain // the address's domain: only dEthToken has storage
	token          uint64
	start, limit   uint64 // the first wallet to list, and how many at most
}

// debugStorageRangeAt: params [blockHash, txIndex, address, startKey, maxResult]. Each slot
// listed is one item.
func (n *Node) debugStorageRangeAt(dst []byte, r *req) ([]byte, int, errCode, string) {
	var q storageQuery
	if code, msg := n.readStorageQuery(&q, r); code != errNone {
		return dst, 1, code, msg
	}
	dst = append(dst, `{"storage":{`...)
	end := q.start
	if q.contract == dEthToken && q.start < ethWallets {
		end = q.start + min(q.limit, ethWallets-q.start)
	}
	for i := q.start; i < end; i++ {
		if i > q.start {
			dst = append(dst, ',')
		}
		dst = appendStorageKey(dst, q.token, i)
		dst = append(dst, `:{"key":null,"value":"0x`...)
		dst = appendHex64(dst, tokenBalance(q.token, i))
		dst = append(dst, `"}`...)
	}
	dst = append(dst, `},"nextKey":`...)
	if q.contract == dEthToken && end < ethWallets {
		dst = appendStorageKey(dst, q.token, end)
	} else {
		dst = append(dst, "null"...)
	}
	return append(dst, '}'), max(int(end-q.start), 1), errNone, ""
}

// readStorageQuery reads and checks debug_storageRangeAt's parameters, and whether the node
// has the block and its state.
func (n *Node) readStorageQuery(q *storageQuery, r *req) (errCode, string) {
	h := stringParam(param(r.params, 0))
	addr := stringParam(param(r.params, 2))
	startKey := stringParam(param(r.params, 3))
	var ok1, ok2 bool
	q.txIndex, ok1 = uintParam(param(r.params, 1))
	q.limit, ok2 = uintParam(param(r.params, 4))
	if paramCount(r.params) != 5 || !isHexHash(h) || !isEthAddress(addr) || !isHexHash(startKey) || !ok1 || !ok2 {
		return errInvalidParams, msgStorageParams
	}
	head := n.ethBlock(r.now)
	var known bool
	if q.block, known = parseHash32(h, dEthBlock); !known || q.block > head {
		r.detail = append(r.detail, h[2:]...)
		r.detail = append(r.detail, notFoundTail...)
		return errServer, msgBlockPrefix
	}
	// geth replays the block up to the transaction: an index past its transactions is an
	// error, except 0 in an empty block (the state after the block's start).
	if count := ethTxCount(q.block); q.txIndex >= max(count, 1) {
		r.detail = strconv.AppendUint(r.detail, q.txIndex, 10)
		r.detail = append(r.detail, outOfRangeTail...)
		r.detail = append(r.detail, h[2:]...)
		return errServer, msgTxIndexPrefix
	}
	if code, msg := n.traceable(q.block, head); code != errNone {
		return code, msg
	}
	q.contract, q.token, _ = parseEthAddress(addr)
	top, _ := parseHexWord(startKey[2:18]) // checked above: hex digits
	// Wallet top/storageStep's key is the last to start at or before top, and the next
	// wallet's starts after it: the first slot at or after startKey is one of the two.
	q.start = top / storageStep
	if q.start < ethWallets && afterKey(startKey[2:], q.token, q.start) {
		q.start++
	}
	return errNone, ""
}

// afterKey reports whether the 64 hex digits start (any case) come after the hashed key of
// wallet i's slot.
func afterKey(start []byte, token, i uint64) bool {
	var buf [70]byte
	key := appendStorageKey(buf[:0], token, i)
	key = key[3 : len(key)-1] // without the quotes and 0x
	for j, c := range start {
		if c >= 'A' && c <= 'F' {
			c += 'a' - 'A'
		}
		if c != key[j] {
			return c > key[j]
		}
	}
	return false
}

// appendStorageKey writes the hashed key of wallet i's balance slot in token's storage,
// quoted: i×storageStep, then digits of a hash of the slot.
func appendStorageKey(dst []byte, token, i uint64) []byte {
	dst = append(dst, `"0x`...)
	at := len(dst)
	dst = appendHashHex(dst, dEthStorage, token<<32|i)
	top := i * storageStep
	for j := range 16 {
		dst[at+j] = hexDigits[(top>>(60-4*j))&0xf]
	}
	return append(dst, '"')
}
